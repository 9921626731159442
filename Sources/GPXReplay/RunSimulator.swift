import RunTracking
/// Replays a run's fixes through the tracker and the `PlaybackScheduler`, playing each message
/// for its duration, to show exactly when each would play. The tracker is a `RunTracker`: the
/// `DistanceTracker`, or with a course (`Configuration.course`) the `CourseTracker`.
///
/// Time is seconds since the first fix. Between fixes `PlaybackReplay` delivers what a phone
/// would: the end of each playback at its exact time, and a `tick` at each wake-up the
/// scheduler asks for. When the fixes end, the run finishes and every message left plays in
/// turn.
///
/// It takes only RunTracking's types, yet it stays here, beside the GPX reader: it is the
/// what-if replay of `voicemsg simulate` and of the tracker corpus, not something an app runs.
/// An app, like the runner's page, drives `DistanceTracker` and `PlaybackReplay` (both in
/// RunTracking) from live fixes; this adds what a report over a recorded track needs: each
/// message's audio for the mixdown, the distance at every fix for the plot, and each start
/// measured along the track's own points (`RecordedPath`). In RunTracking, that would widen the
/// library the phone and the page link, and its Embedded build, for nothing they use.
public enum RunSimulator {
    /// Replays `fixes` and plays `messages` as a phone would, each for its duration.
    ///
    /// With a course, the scheduler is set up for it (`PlaybackScheduler.Configuration.along`):
    /// the planned distance is the course's length unless one is given, and the run ends at
    /// the course's end.
    ///
    /// Throws a `GPXError` when there are no fixes, and the scheduler's error when a relative
    /// marker has no planned distance to resolve against.
    public static func simulate(
        fixes: [GPSFix], messages: [Message], configuration: Configuration = .init()
    ) throws -> Timeline {
        guard let first = fixes.first else {
            throw GPXError(.invalidTrack, "the track has no fixes to replay")
        }
        let schedulerConfiguration = configuration.course.map { configuration.scheduler.along($0) } ?? configuration.scheduler
        let scheduler = try PlaybackScheduler(
            messages: messages.enumerated().map { .init(id: String($0.offset), marker: $0.element.marker) },
            configuration: schedulerConfiguration)
        var replay = PlaybackReplay(
            scheduler: scheduler,
            durations: Dictionary(uniqueKeysWithValues: messages.enumerated().map { (String($0.offset), $0.element.durationSeconds) }))
        let markerMeters = Dictionary(uniqueKeysWithValues: scheduler.queue.map { ($0.message.id, $0.meters) })
        let path = RecordedPath(fixes, maximumSpeed: configuration.tracker.maximumSpeed)
        var tracker = configuration.course.map { RunTracker.course(CourseTracker(course: $0, configuration: configuration.courseTracker)) }
            ?? .positions(DistanceTracker(configuration: configuration.tracker))
        var excursions: [Excursion] = []
        var startedAway: Double?
        var meters = 0.0
        var plays: [Play] = []
        var distance: [Sample] = []
        distance.reserveCapacity(fixes.count)

        func record(_ starts: [PlaybackReplay.Start]) {
            for start in starts {
                let message = messages[Int(start.id)!]
                let marker = markerMeters[start.id]!
                plays.append(Play(
                    file: message.file, sender: message.sender, marker: message.marker.canonical,
                    markerMeters: marker, startSeconds: start.time, startMeters: start.meters,
                    endSeconds: start.endTime, latenessMeters: start.meters - marker,
                    pathLatenessMeters: path.meters(at: first.time + start.time) - marker, reason: start.reason))
            }
        }

        var last = 0.0
        for fix in fixes {
            let seconds = fix.time - first.time
            let reading = tracker.update(with: fix)
            meters = reading.meters
            if let event = reading.event { note(event, at: seconds, in: &excursions) }
            if excursions.isEmpty, let away = tracker.courseTracker?.startedAway {
                // The run began away from the course (a warm-up, or a course of another place):
                // off it from the first fix until it joins it, as the tracker holds it.
                excursions.append(Excursion(leftSeconds: seconds, leftMeters: 0))
                startedAway = away
            }
            last = max(last, seconds)
            distance.append(Sample(seconds: seconds, meters: meters))
            record(replay.handle(.distanceUpdate(time: seconds, meters: meters)))
        }
        record(replay.finish(at: last))

        let started = Set(replay.scheduler.startedIDs)
        let unplayed = replay.scheduler.queue.compactMap { entry -> Unplayed? in
            let message = messages[Int(entry.message.id)!]
            guard !started.contains(entry.message.id) else { return nil }
            return Unplayed(file: message.file, marker: message.marker.canonical, markerMeters: entry.meters)
        }
        return Timeline(
            distanceMeters: meters, pathMeters: path.length, durationSeconds: last,
            plannedDistanceMeters: schedulerConfiguration.plannedDistance, plays: plays,
            unplayed: unplayed, distance: distance,
            course: configuration.course.map {
                CourseSummary(lengthMeters: $0.length, excursions: excursions, startedAwayMeters: startedAway)
            })
    }

    /// Opens an excursion when the runner leaves the course, closes it when they are back.
    private static func note(_ event: CourseTracker.Event, at seconds: Double, in excursions: inout [Excursion]) {
        switch event {
        case .leftCourse(let meters):
            excursions.append(Excursion(leftSeconds: seconds, leftMeters: meters))
        case .rejoinedCourse(let meters, let skipped):
            // Back from the excursion a leftCourse opened, or the one a run that began away from
            // the course opened at its first fix.
            guard !excursions.isEmpty else { return }
            excursions[excursions.count - 1].rejoinedSeconds = seconds
            excursions[excursions.count - 1].rejoinedMeters = meters
            excursions[excursions.count - 1].skippedMeters = skipped
        }
    }

    /// The tracker's total over `fixes`: the planned distance to assume when none is given.
    public static func trackedDistance(of fixes: [GPSFix], configuration: DistanceTracker.Configuration = .init()) -> Double {
        var tracker = DistanceTracker(configuration: configuration)
        for fix in fixes { _ = tracker.update(with: fix) }
        return tracker.meters
    }
}
