import RunTracking
extension RunSimulator {
    /// A message as `encode` wrote it: its marker, sender and length, and optionally its audio.
    public struct Message: Sendable {
        public var file: String
        public var sender: String?
        public var marker: DistanceMarker
        public var durationSeconds: Double
        /// Mono 48 kHz samples, for the mixdown; nil when only the timeline is wanted.
        public var samples: [Float]?

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
        public var tracker: DistanceTracker.Configuration
        /// Lead, gap and planned distance. Relative markers need `plannedDistance`.
        public var scheduler: PlaybackScheduler.Configuration

        public init(tracker: DistanceTracker.Configuration = .init(), scheduler: PlaybackScheduler.Configuration = .init()) {
            self.tracker = tracker
            self.scheduler = scheduler
        }
    }

    /// One message's place on the run.
    public struct Play: Sendable, Codable, Equatable {
        public var file: String
        public var sender: String?
        /// Canonical marker, as in the tag.
        public var marker: String
        public var markerMeters: Double
        /// Seconds since the first fix.
        public var startSeconds: Double
        /// The distance the scheduler reckoned when it started: the tracker's latest, carried
        /// on at the current pace between fixes.
        public var startMeters: Double
        public var endSeconds: Double
        /// How far past its marker the runner was by that distance when it started (negative:
        /// early, by the lead).
        public var latenessMeters: Double
        /// How far past its marker the runner was along the track's own points when it
        /// started: the point-to-point distance, with spikes left out, up to where the track
        /// has the runner at that moment. This is the true path when the GPX is one (a route,
        /// a clean test track); on a noisy recording, the jitter adds length to it.
        public var pathLatenessMeters: Double
        public var reason: PlaybackScheduler.PlayReason
    }

    /// A message that never started (only possible if the run never ended).
    public struct Unplayed: Sendable, Codable, Equatable {
        public var file: String
        public var marker: String
        public var markerMeters: Double
    }

    /// Tracked distance at a moment of the run.
    public struct Sample: Sendable, Codable, Equatable {
        public var seconds: Double
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
        public var plannedDistanceMeters: Double?
        public var plays: [Play]
        public var unplayed: [Unplayed]
        /// Distance over time, one sample per fix; for plots, not part of the JSON contract.
        public var distance: [Sample]
    }
}
