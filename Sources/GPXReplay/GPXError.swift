/// An error reading or replaying a track, in words a person can act on.
///
/// The `description` is one line that names the file, for example
/// `run.gpx: line 12: the element <trkpt> is not closed`.
public struct GPXError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. Callers branch on the code, never on the message.
    public enum Code: String, Sendable, Codable {
        /// The file cannot be opened or read.
        case io
        /// The bytes are not a well-formed GPX document.
        case malformed
        /// The document is GPX, but its points cannot be replayed (no fixes, bad times).
        case invalidTrack
        /// The document is GPX, but its points cannot be a race's course (see `Course`).
        case invalidCourse
    }

    /// What kind of failure this is.
    public var code: Code
    /// The reason, in words, without the source.
    public var message: String
    /// The file the error belongs to, when known.
    public var source: String?

    /// An error of `code`, with its reason and, when known, its file.
    public init(_ code: Code, _ message: String, source: String? = nil) {
        self.code = code
        self.message = message
        self.source = source
    }

    /// The one line a person reads: `source: message`, or the message alone.
    public var description: String {
        if let source { return "\(source): \(message)" }
        return message
    }
}
