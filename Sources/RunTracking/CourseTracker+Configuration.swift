extension CourseTracker {
    /// The course tracker's settings, with defaults for a runner on a consumer phone or watch.
    ///
    /// The defaults were chosen on the tuning set of the tracker corpus's course runs
    /// (`scripts/tracker-corpus.sh`); docs/tracker.md gives the figures and the commands that
    /// measure them.
    public struct Configuration: Sendable, Equatable {
        /// The positions-alone tracker run beside the course tracker: it judges every fix
        /// (spikes, stale fixes, poor accuracy), finds the stands, and gives the heading.
        public var odometer = DistanceTracker.Configuration()
        /// White-acceleration noise density of the filter along the course (m²/s³). Lower is
        /// smoother: the GPS error along the course is averaged over longer, and a change of
        /// pace is followed later. Default 0.3.
        public var accelerationNoise = 0.3
        /// A fix farther from the course than the larger of this (metres) and
        /// `offCourseAccuracies` times its accuracy (σ) is off the course; `offCourseFixes` of
        /// them in a row, and the runner has left it. Default 40 m: the trail runs' fixes
        /// (σ up to 8 m, wandering over 10 to 120 s) stray 30 m from the way now and then,
        /// and a wrong turn is found within about this far of the junction.
        public var offCourseDistance = 40.0
        /// See `offCourseDistance`. Default 5: 5σ of a fix's error.
        public var offCourseAccuracies = 5.0
        /// See `offCourseDistance`. Default 3.
        public var offCourseFixes = 3
        /// A fix farther from the course than this many σ of its error (its accuracy, or the
        /// error learnt from the fixes' distances from the course) moves nothing along it: it
        /// says nothing of where along the course the runner is, and it may be the first of a
        /// way off the course that parts from it at a slant (a short cut across a bend, a wrong
        /// turn down a fork), which was otherwise followed along the course until it was the
        /// off-course distance away, 100 m on the trail runs. Default 3.5: at 3σ, a wander of
        /// fixes of σ 8 m lingered past the bound for 20 s on a runner who never left the
        /// course, and the place waited 80 m behind them; a way off the course is found a few
        /// metres later for it.
        public var strayingAccuracies = 3.5
        /// Straying for this long (seconds, and `offCourseFixes` fixes), the runner has left the
        /// course even within the off-course distance: a short cut across a bend may never be
        /// that far from it. Default 30 s.
        public var offCourseSeconds = 30.0
        /// Off the course, the runner is back on it after this many fixes in a row within
        /// `strayingAccuracies` σ of it, at places along it that agree with each other.
        /// Default 2.
        public var rejoinFixes = 2
        /// How far behind the current place along the course a fix is still matched (metres):
        /// the fixes' error along the course. Default 30 m. Ahead, the search reaches as far
        /// as `odometer.maximumSpeed` could have carried the runner since the last fix.
        public var searchBehind = 30.0
        /// How much a stretch of course running against the runner's heading counts against
        /// it, where two stretches are both near the fix (a turn-around point, a crossing), in
        /// units of the squared error over twice its variance. Default 2.
        public var headingWeight = 2.0

        /// The defaults, each given beside its setting.
        public init() {}
    }
}

#if !hasFeature(Embedded)
// Every setting may be missing from what an earlier version saved: it then takes its default.
extension CourseTracker.Configuration: Codable {
    public init(from decoder: any Decoder) throws {
        let saved = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        func read<Value: Decodable>(_ key: CodingKeys, into setting: inout Value) throws {
            if let value = try saved.decodeIfPresent(Value.self, forKey: key) { setting = value }
        }
        try read(.odometer, into: &odometer)
        try read(.accelerationNoise, into: &accelerationNoise)
        try read(.offCourseDistance, into: &offCourseDistance)
        try read(.offCourseAccuracies, into: &offCourseAccuracies)
        try read(.offCourseFixes, into: &offCourseFixes)
        try read(.strayingAccuracies, into: &strayingAccuracies)
        try read(.offCourseSeconds, into: &offCourseSeconds)
        try read(.rejoinFixes, into: &rejoinFixes)
        try read(.searchBehind, into: &searchBehind)
        try read(.headingWeight, into: &headingWeight)
    }
}
#endif
