extension DistanceTracker {
    /// What the tracker made of one fix.
    public enum Outcome: String, Sendable {
        /// The first fix: the start.
        case started
        /// Used for distance.
        case accepted
        /// Came after a gap; the straight line across it was counted.
        case bridgedGap
        /// After a run of outliers the tracker restarted here without counting the jump.
        case restarted
        /// Not later than the previous fix (duplicate or backwards time); ignored.
        case outOfOrder
        /// At exactly the place of the last accepted fix, to the last digit: a stale fix that
        /// a phone hands over again after waking up, newly timed, or a device holding its
        /// position while standing; ignored.
        case repeated
        /// Coordinates that cannot be on Earth; ignored.
        case invalidCoordinates
        /// Reported accuracy worse than the configured limit; ignored.
        case inaccurate
        /// Implied speed above the configured limit; ignored as a spike.
        case outlier
        /// Came while the run was paused (see `pause()`); ignored.
        case paused
    }

    /// The tracker's answer to one fix.
    public struct Reading: Sendable, Equatable {
        public var time: Double
        /// Cumulative distance in metres; never decreases.
        public var meters: Double
        /// Current speed in m/s; 0 while standing still.
        public var speed: Double
        public var outcome: Outcome

        /// Seconds per kilometre, or nil while (nearly) standing still.
        public var pace: Double? { speed >= 0.2 ? 1000 / speed : nil }
    }
}

#if !hasFeature(Embedded)
extension DistanceTracker.Outcome: Codable {}
#endif
