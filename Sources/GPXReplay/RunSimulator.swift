import RunTracking
/// Replays a run's fixes through the `DistanceTracker` and the `PlaybackScheduler`, playing
/// each message for its duration, to show exactly when each would play.
///
/// Time is seconds since the first fix. Between fixes the simulator delivers what a phone
/// would: the end of each playback at its exact time, and a `tick` when the minimum gap after
/// it runs out. When the fixes end, the run finishes and every message left plays in turn.
public enum RunSimulator {
    public static func simulate(
        fixes: [GPSFix], messages: [Message], configuration: Configuration = .init()
    ) throws -> Timeline {
        guard let first = fixes.first else {
            throw GPXError(.invalidTrack, "the track has no fixes to replay")
        }
        var scheduler = try PlaybackScheduler(
            messages: messages.enumerated().map { .init(id: String($0.offset), marker: $0.element.marker) },
            configuration: configuration.scheduler)
        var tracker = DistanceTracker(configuration: configuration.tracker)
        var meters = 0.0
        var plays: [Play] = []
        var playingEnd: Double?
        var distance: [Sample] = []
        distance.reserveCapacity(fixes.count)

        func apply(_ action: PlaybackScheduler.Action?, at seconds: Double) {
            guard case .play(let id, let reason) = action, let index = Int(id) else { return }
            let message = messages[index]
            let entry = scheduler.queue.first { $0.message.id == id }!
            plays.append(Play(
                file: message.file, sender: message.sender, marker: message.marker.canonical,
                markerMeters: entry.meters, startSeconds: seconds, startMeters: meters,
                endSeconds: seconds + message.durationSeconds, latenessMeters: meters - entry.meters,
                reason: reason))
            playingEnd = seconds + message.durationSeconds
        }
        func catchUp(to seconds: Double) {
            while true {
                if let end = playingEnd, end <= seconds, let id = scheduler.state.progress.playing {
                    playingEnd = nil
                    apply(scheduler.handle(.playbackFinished(id: id, time: end)), at: end)
                } else if let wake = scheduler.wakeUpTime, wake <= seconds {
                    apply(scheduler.handle(.tick(time: wake)), at: wake)
                } else {
                    return
                }
            }
        }

        var last = 0.0
        for fix in fixes {
            let seconds = fix.time - first.time
            catchUp(to: seconds)
            meters = tracker.update(with: fix).meters
            last = max(last, seconds)
            distance.append(Sample(seconds: seconds, meters: meters))
            apply(scheduler.handle(.distanceUpdate(time: seconds, meters: meters)), at: seconds)
        }
        catchUp(to: last)
        apply(scheduler.handle(.runFinished(time: last)), at: last)
        while !scheduler.isComplete {
            let before = scheduler.state.progress
            catchUp(to: .infinity)
            if scheduler.state.progress == before { break }
        }

        let started = Set(scheduler.startedIDs)
        let unplayed = scheduler.queue.compactMap { entry -> Unplayed? in
            let message = messages[Int(entry.message.id)!]
            guard !started.contains(entry.message.id) else { return nil }
            return Unplayed(file: message.file, marker: message.marker.canonical, markerMeters: entry.meters)
        }
        return Timeline(
            distanceMeters: meters, durationSeconds: last,
            plannedDistanceMeters: configuration.scheduler.plannedDistance, plays: plays,
            unplayed: unplayed, distance: distance)
    }

    /// The tracker's total over `fixes`: the planned distance to assume when none is given.
    public static func trackedDistance(of fixes: [GPSFix], configuration: DistanceTracker.Configuration = .init()) -> Double {
        var tracker = DistanceTracker(configuration: configuration)
        for fix in fixes { _ = tracker.update(with: fix) }
        return tracker.meters
    }
}
