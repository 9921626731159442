import RunTracking
extension RunSimulator {
    /// A message as `encode` wrote it: its marker, sender and length, and optionally its audio.
    public struct Message: Sendable {
        /// The message's file, as the timeline names it.
        public var file: String
        /// Who it is from.
        public var sender: String?
        /// Where it plays.
        public var marker: DistanceMarker
        /// How long it plays, in seconds.
        public var durationSeconds: Double
        /// Mono 48 kHz samples, for the mixdown; nil when only the timeline is wanted.
        public var samples: [Float]?

        /// A message at `marker` that plays for `durationSeconds`.
        public init(file: String, sender: String? = nil, marker: DistanceMarker, durationSeconds: Double, samples: [Float]? = nil) {
            self.file = file
            self.sender = sender
            self.marker = marker
            self.durationSeconds = durationSeconds
            self.samples = samples
        }
    }

    /// The tracker's and the scheduler's settings for one replay.
    public struct Configuration: Sendable {
        /// The positions-alone tracker's settings, when there is no course.
        public var tracker: DistanceTracker.Configuration
        /// Lead, gap and planned distance. Relative markers need `plannedDistance`.
        public var scheduler: PlaybackScheduler.Configuration
        /// The race's course: with one, the `CourseTracker` gives the distance, along it.
        public var course: Course?
        /// The course tracker's settings (its own `odometer` settings included), with a course.
        public var courseTracker: CourseTracker.Configuration

        /// The settings for a replay; the defaults are the phone's.
        public init(
            tracker: DistanceTracker.Configuration = .init(), scheduler: PlaybackScheduler.Configuration = .init(),
            course: Course? = nil, courseTracker: CourseTracker.Configuration = .init()
        ) {
            self.tracker = tracker
            self.scheduler = scheduler
            self.course = course
            self.courseTracker = courseTracker
        }
    }

    /// Where the runner left the course, and where they came back to it.
    public struct Excursion: Sendable, Codable, Equatable {
        /// Seconds since the first fix, and metres along the course where they were last seen
        /// on it.
        public var leftSeconds: Double
        public var leftMeters: Double
        /// When and where along the course they were back on it; nil when the run ended off it.
        public var rejoinedSeconds: Double?
        public var rejoinedMeters: Double?
        /// Metres of course not run: the rejoin's place less where they left (about 0 after a
        /// wrong turn and back; a short cut's length). Nil when the run ended off the course.
        public var skippedMeters: Double?
    }

    /// The run against its course.
    public struct CourseSummary: Sendable, Codable, Equatable {
        public var lengthMeters: Double
        /// Every time the runner left the course, in order. A run that began away from the
        /// course has first an excursion from its first fix (at 0 m) until it joined it.
        public var excursions: [Excursion]
        /// When the run began away from the course: how far its first fix was from the course's
        /// start, in metres. Nil when it began on the course.
        public var startedAwayMeters: Double?

        /// The way to the course of a run that began away from it: the first excursion.
        public var wayToTheCourse: Excursion? { startedAwayMeters == nil ? nil : excursions.first }
        /// Each time the runner left the course once on it: the excursions after that way.
        public var departures: ArraySlice<Excursion> { excursions.dropFirst(wayToTheCourse == nil ? 0 : 1) }

        public init(lengthMeters: Double, excursions: [Excursion], startedAwayMeters: Double? = nil) {
            self.lengthMeters = lengthMeters
            self.excursions = excursions
            self.startedAwayMeters = startedAwayMeters
        }
    }

    /// One message's place on the run.
    public struct Play: Sendable, Codable, Equatable {
        /// The message's file.
        public var file: String
        /// Who it is from.
        public var sender: String?
        /// Canonical marker, as in the tag.
        public var marker: String
        /// The marker, resolved to metres.
        public var markerMeters: Double
        /// Seconds since the first fix.
        public var startSeconds: Double
        /// The distance the scheduler reckoned when it started: the tracker's latest, carried
        /// on at the current pace between fixes.
        public var startMeters: Double
        /// When it ended, in seconds since the first fix.
        public var endSeconds: Double
        /// How far past its marker the runner was by that distance when it started (negative:
        /// early, by the lead).
        public var latenessMeters: Double
        /// How far past its marker the runner was along the track's own points when it
        /// started: the point-to-point distance, with spikes left out, up to where the track
        /// has the runner at that moment. This is the true path when the GPX is one (a route,
        /// a clean test track); on a noisy recording, the jitter adds length to it.
        public var pathLatenessMeters: Double
        /// Why it started then.
        public var reason: PlaybackScheduler.PlayReason
    }

    /// A message that never started (only possible if the run never ended).
    public struct Unplayed: Sendable, Codable, Equatable {
        /// The message's file.
        public var file: String
        /// Its canonical marker.
        public var marker: String
        /// The marker, resolved to metres.
        public var markerMeters: Double
    }

    /// Tracked distance at a moment of the run.
    public struct Sample: Sendable, Codable, Equatable {
        /// Seconds since the first fix.
        public var seconds: Double
        /// The tracker's distance then.
        public var meters: Double
    }

    /// What happened on the replayed run.
    public struct Timeline: Sendable, Codable, Equatable {
        /// The tracker's total.
        public var distanceMeters: Double
        /// The track's own points added up (spikes left out): what "path late m" is measured
        /// on. The true length for a route or a clean track; a recorded track's jitter makes
        /// it longer than the distance run.
        public var pathMeters: Double
        /// From the first to the last fix.
        public var durationSeconds: Double
        /// The planned distance relative markers resolved against, when given.
        public var plannedDistanceMeters: Double?
        /// Every message that started, in the order they started.
        public var plays: [Play]
        /// The messages that never started.
        public var unplayed: [Unplayed]
        /// Distance over time, one sample per fix; for plots, not part of the JSON contract.
        public var distance: [Sample]
        /// With a course: its length, and where the runner left it and came back.
        public var course: CourseSummary?
    }
}
