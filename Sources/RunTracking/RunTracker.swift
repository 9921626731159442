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
/// An enum rather than a protocol: the runner's page, in Embedded Swift, holds one whose kind is
/// known only once the run starts, and Embedded Swift has no existentials of such a protocol.
/// `Codable` as either kind; a `DistanceTracker` saved by itself (before this type) restores
/// as `.positions`.
public enum RunTracker: Sendable, Equatable {
    case positions(DistanceTracker)
    case course(CourseTracker)

    /// Feeds one fix. The reading's `meters` is what the scheduler goes by: metres run, or
    /// metres along the course.
    public mutating func update(with fix: GPSFix) -> Reading {
        switch self {
        case .positions(var tracker):
            let reading = tracker.update(with: fix)
            self = .positions(tracker)
            return Reading(time: reading.time, meters: reading.meters, speed: reading.speed, outcome: reading.outcome)
        case .course(var tracker):
            let reading = tracker.update(with: fix)
            self = .course(tracker)
            return Reading(
                time: reading.time, meters: reading.meters, speed: reading.speed, outcome: reading.outcome,
                isOffCourse: reading.isOffCourse, lateral: reading.lateral, event: reading.event)
        }
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
        switch self {
        case .positions(var tracker):
            tracker.pause()
            self = .positions(tracker)
        case .course(var tracker):
            tracker.pause()
            self = .course(tracker)
        }
    }

    public mutating func resume() {
        switch self {
        case .positions(var tracker):
            tracker.resume()
            self = .positions(tracker)
        case .course(var tracker):
            tracker.resume()
            self = .course(tracker)
        }
    }

    /// Cumulative metres, or metres along the course; never decreases.
    public var meters: Double {
        switch self {
        case .positions(let tracker): tracker.meters
        case .course(let tracker): tracker.meters
        }
    }

    /// Speed over the ground in m/s, 0 while standing still.
    public var speed: Double {
        switch self {
        case .positions(let tracker): tracker.speed
        case .course(let tracker): tracker.speed
        }
    }

    public var isPaused: Bool {
        switch self {
        case .positions(let tracker): tracker.isPaused
        case .course(let tracker): tracker.isPaused
        }
    }

    /// The course tracker, when the run has a course: off the course or not, where along it.
    public var courseTracker: CourseTracker? {
        if case .course(let tracker) = self { return tracker }
        return nil
    }
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
        switch self {
        case .positions(let tracker): try container.encode(tracker, forKey: .positions)
        case .course(let tracker): try container.encode(tracker, forKey: .course)
        }
    }
}
#endif
