/// An error from the tracking and scheduling code, in words a person can act on.
///
/// The `description` is one line, for example
/// `invalid distance marker '5xx': expected a distance in m, km or mi, ...`, or
/// `the course is 62 m long; a course must be at least 100 m`.
public struct RunTrackingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. Callers branch on the code, never on the message.
    public enum Code: String, Sendable {
        /// A distance marker could not be parsed, or cannot become metres: it is relative and
        /// there is no planned distance, or it lies before the start.
        case invalidMarker
        /// A pace could not be parsed.
        case invalidPace
        /// A distance (such as a planned distance) could not be parsed.
        case invalidDistance
        /// Two messages in one run share an id.
        case duplicateMessage
        /// A course of fewer than two distinct places: no way to go.
        case courseTooFewPoints
        /// A course shorter than `Course.minimumLength`.
        case courseTooShort
        /// A course longer than `Course.maximumLength`.
        case courseTooLong
        /// A course of more places than `Course.maximumPointCount`.
        case courseTooManyPoints
        /// A place of a course that cannot be on Earth (NaN, infinite, latitude past ±90°,
        /// longitude past ±180°).
        case invalidCoursePoint
    }

    public var code: Code
    public var message: String
    /// The message or input the error belongs to, when known.
    public var source: String?

    public init(_ code: Code, _ message: String, source: String? = nil) {
        self.code = code
        self.message = message
        self.source = source
    }

    /// The same error, attributed to `source` unless it already names one.
    public func attributed(to source: String) -> RunTrackingError {
        var copy = self
        if copy.source == nil { copy.source = source }
        return copy
    }

    public var description: String {
        if let source { return "\(source): \(message)" }
        return message
    }
}

#if !hasFeature(Embedded)
extension RunTrackingError.Code: Codable {}
#endif
