/// The run's tracker, whichever it is: positions alone, or the race's course. The scheduler
/// goes by one distance and does not care which gives it, so an app holds a `RunTracker`, feeds
/// it every fix and hands each reading's `meters` to the `PlaybackScheduler`, as it would a
/// `DistanceTracker`'s.
///
/// ```swift
/// var tracker = course.map { RunTracker.course(CourseTracker(course: $0)) } ?? .positions(DistanceTracker())
/// let reading = tracker.update(with: fix)
/// let answer = scheduler.handle(.distanceUpdate(time: reading.time, meters: reading.meters))
/// ```
///
/// With a course, set the scheduler up with `PlaybackScheduler.Configuration.along(course)`:
/// the distance along the course stops at its end, and so the run is over there whatever the
/// planned distance.
///
/// A value rather than a protocol: the runner's page, in Embedded Swift, holds one whose kind is
/// known only once the run starts, and Embedded Swift has no existentials of such a protocol.
/// `Codable` as either kind; a `DistanceTracker` saved by itself (before this type) restores
/// as `.positions`.
public struct RunTracker: Sendable, Equatable {
    // One of the two, held as optionals rather than as an enum's payloads: a payload is copied
    // out and back on every fix (a course tracker is a kilobyte), an optional is updated where
    // it is.
    private var positionsTracker: DistanceTracker?
    private var course: CourseTracker?

    /// The tracker from positions alone.
    public static func positions(_ tracker: DistanceTracker) -> RunTracker {
        RunTracker(positionsTracker: tracker, course: nil)
    }

    /// The course tracker, for a run with a course.
    public static func course(_ tracker: CourseTracker) -> RunTracker {
        RunTracker(positionsTracker: nil, course: tracker)
    }

    /// Feeds one fix. The reading's `meters` is what the scheduler goes by: metres run, or
    /// metres along the course.
    public mutating func update(with fix: GPSFix) -> Reading {
        if let reading = course?.update(with: fix) {
            return Reading(
                time: reading.time, meters: reading.meters, speed: reading.speed, outcome: reading.outcome,
                isOffCourse: reading.isOffCourse, lateral: reading.lateral, event: reading.event)
        }
        let reading = positionsTracker!.update(with: fix)
        return Reading(time: reading.time, meters: reading.meters, speed: reading.speed, outcome: reading.outcome)
    }

    /// Either tracker's answer to one fix; the course's part is empty without a course.
    public struct Reading: Sendable, Equatable {
        public var time: Double
        /// What the scheduler goes by: cumulative metres, or metres along the course. Never
        /// decreases.
        public var meters: Double
        /// Speed over the ground in m/s; 0 while standing still.
        public var speed: Double
        public var outcome: DistanceTracker.Outcome
        /// With a course: whether the runner is off it, how far from it the fix was, and
        /// whether they left it or came back with this fix (see `CourseTracker.Reading`).
        public var isOffCourse = false
        public var lateral: Double?
        public var event: CourseTracker.Event?
    }

    public mutating func pause() {
        course?.pause()
        positionsTracker?.pause()
    }

    public mutating func resume() {
        course?.resume()
        positionsTracker?.resume()
    }

    /// Cumulative metres, or metres along the course; never decreases.
    public var meters: Double { course?.meters ?? positionsTracker?.meters ?? 0 }

    /// Speed over the ground in m/s, 0 while standing still.
    public var speed: Double { course?.speed ?? positionsTracker?.speed ?? 0 }

    public var isPaused: Bool { course?.isPaused ?? positionsTracker?.isPaused ?? false }

    /// The course tracker, when the run has a course: off the course or not, where along it.
    public var courseTracker: CourseTracker? { course }

    /// The tracker from positions alone, when the run has no course.
    public var distanceTracker: DistanceTracker? { positionsTracker }
}

#if !hasFeature(Embedded)
extension RunTracker: Codable {
    private enum CodingKeys: String, CodingKey { case positions, course }

    public init(from decoder: any Decoder) throws {
        let saved = try decoder.container(keyedBy: CodingKeys.self)
        if let course = try saved.decodeIfPresent(CourseTracker.self, forKey: .course) {
            self = .course(course)
        } else if let positions = try saved.decodeIfPresent(DistanceTracker.self, forKey: .positions) {
            self = .positions(positions)
        } else {
            self = .positions(try DistanceTracker(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(course, forKey: .course)
        try container.encodeIfPresent(positionsTracker, forKey: .positions)
    }
}
#endif
