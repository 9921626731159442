extension DistanceTracker {
    /// The tracker's limits, with defaults for running on a consumer phone or watch.
    public struct Configuration: Sendable, Codable, Equatable {
        /// Fixes that report a horizontal accuracy worse than this (metres) are ignored.
        /// Default 30 m: phones report 3 to 10 m outdoors, and 30 m and more indoors or in
        /// tunnels, where the position is worth nothing for distance.
        public var maximumAccuracy: Double
        /// The position noise assumed, as σ per axis in metres, when a fix reports no
        /// accuracy. Default 5 m, typical of a consumer receiver under open sky.
        public var assumedAccuracy: Double
        /// A fix whose implied speed from the last accepted fix is above this (m/s) is an
        /// outlier. Default 10 m/s: a 1:40/km pace, faster than any runner sustains for more
        /// than a few seconds, while real spikes imply 15 to 100 m/s.
        public var maximumSpeed: Double
        /// More time than this (seconds) between fixes is a gap: tunnel, auto-pause, smart
        /// recording. The filter restarts after it. Default 10 s.
        public var gapSeconds: Double
        /// The straight line across a gap counts only when its average speed is at most this
        /// (m/s). Default 7 m/s, a 2:23/km pace.
        public var maximumGapSpeed: Double
        /// White-acceleration noise density of the constant-velocity Kalman filter (m²/s³).
        /// Lower is smoother: it follows less of the slow GPS wander, and rounds corners more.
        /// Default 1.0: responsive enough for corners; the chords below, not the filter, deal
        /// with the slow wander (tuned on real tracks with Gauss–Markov noise, σ 5 m, τ 30 s).
        public var accelerationNoise: Double
        /// Below this filtered speed (m/s) the runner is standing still and no distance
        /// accrues. Default 0.7 m/s, well below a slow walk (1.2 m/s).
        public var stillSpeed: Double
        /// Standing still ends when the filtered speed is above this (m/s). Default 1.1 m/s.
        public var movingSpeed: Double
        /// Standing still also ends when the position leaves a circle of this radius (metres)
        /// around where the runner stopped; the straight line out of it then counts.
        /// Default 25 m: GPS wander of σ 5 m per axis leaves it about once an hour.
        public var stillRadius: Double
        /// When this many outliers in a row agree with each other, the reference before them
        /// was the wrong one: the tracker restarts at the first of them, counting the straight
        /// line there only when it is plausible. Default 3.
        public var maximumConsecutiveRejections: Int
        /// Distance is counted along chords of about this length (metres) between filtered
        /// positions, so sideways GPS wander cancels instead of adding up. Default 25 m.
        public var chordLength: Double
        /// A turn sharper than this (degrees) between the chord and the current heading ends
        /// the chord early, so corners are not cut. Default 30°.
        public var maximumTurn: Double

        public init(
            maximumAccuracy: Double = 30, assumedAccuracy: Double = 5, maximumSpeed: Double = 10,
            gapSeconds: Double = 10, maximumGapSpeed: Double = 7, accelerationNoise: Double = 1.0,
            stillSpeed: Double = 0.7, movingSpeed: Double = 1.1, stillRadius: Double = 25,
            maximumConsecutiveRejections: Int = 3, chordLength: Double = 25, maximumTurn: Double = 30
        ) {
            self.chordLength = chordLength
            self.maximumTurn = maximumTurn
            self.maximumAccuracy = maximumAccuracy
            self.assumedAccuracy = assumedAccuracy
            self.maximumSpeed = maximumSpeed
            self.gapSeconds = gapSeconds
            self.maximumGapSpeed = maximumGapSpeed
            self.accelerationNoise = accelerationNoise
            self.stillSpeed = stillSpeed
            self.movingSpeed = movingSpeed
            self.stillRadius = stillRadius
            self.maximumConsecutiveRejections = maximumConsecutiveRejections
        }
    }
}
