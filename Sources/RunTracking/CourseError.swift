/// Why a list of places cannot be a race's course, in words a person can act on.
///
/// The `description` is one line, for example
/// `the course is 62 m long; a course must be at least 100 m`.
public struct CourseError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong with the course. Callers branch on the reason, never on the message.
    public enum Reason: String, Sendable {
        /// Fewer than two distinct places: no way to go.
        case tooFewPoints
        /// Shorter than `Course.minimumLength`.
        case tooShort
        /// Longer than `Course.maximumLength`.
        case tooLong
        /// More places than `Course.maximumPointCount`.
        case tooManyPoints
        /// A place that cannot be on Earth (NaN, infinite, latitude past ±90°, longitude past ±180°).
        case invalidPoint
    }

    public var reason: Reason
    public var message: String
    /// The file or upload the course came from, when known.
    public var source: String?

    public init(_ reason: Reason, _ message: String, source: String? = nil) {
        self.reason = reason
        self.message = message
        self.source = source
    }

    public var description: String {
        if let source { return "\(source): \(message)" }
        return message
    }
}

#if !hasFeature(Embedded)
extension CourseError.Reason: Codable {}
#endif
