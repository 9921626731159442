extension CourseTracker {
    /// A runner back on the course this far or more ahead of where they left it took a short
    /// cut; nearer, it is where they left, give or take the fixes' error and the stretch of
    /// the wrong way that ran beside the course. 50 m.
    public static let shortCutMeters = 50.0

    /// What a fix changed about the runner and the course.
    public enum Event: Sendable, Equatable {
        /// The runner has left the course; `meters` is where along it they were last seen on it.
        case leftCourse(meters: Double)
        /// The runner is back on the course at `meters` along it. `skipped` is how far ahead of
        /// where they left that is: about 0 after a wrong turn and back, the metres of course
        /// not run after a short cut.
        case rejoinedCourse(meters: Double, skipped: Double)
    }

    /// The tracker's answer to one fix.
    public struct Reading: Sendable, Equatable {
        public var time: Double
        /// Metres along the course; never decreases.
        public var meters: Double
        /// Speed over the ground in m/s; 0 while standing still.
        public var speed: Double
        /// What the fix was (see `DistanceTracker.Outcome`): only accepted fixes are matched.
        public var outcome: DistanceTracker.Outcome
        public var isOffCourse: Bool
        /// How far from the course the fix was, in metres; nil when it was not matched (an
        /// ignored fix, or off the course with no course near it).
        public var lateral: Double?
        /// When the runner left the course or came back to it with this fix.
        public var event: Event?
    }
}

#if !hasFeature(Embedded)
extension CourseTracker.Event: Codable {}
#endif
