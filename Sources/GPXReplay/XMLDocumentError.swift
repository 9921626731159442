/// Why a document was not read as XML: not well-formed, or refused (an entity declaration,
/// nesting too deep). `GPXReader` turns it into a `GPXError` naming the file.
struct XMLDocumentError: Error, Equatable, CustomStringConvertible {
    /// 1-based line where the problem was found.
    var line: Int
    /// In words, for example "malformed XML: the file ends before <trkpt> from line 3 is closed".
    var reason: String
    /// True when the input holds no element at all (empty, only whitespace, comments or a
    /// declaration): a caller may prefer "not a GPX file" to "malformed XML" then.
    var isMissingRootElement = false

    var description: String { "line \(line): \(reason)" }
}
