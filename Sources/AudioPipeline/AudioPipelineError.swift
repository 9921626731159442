/// An error a person can act on: what went wrong, in which file or stage, and why.
///
/// The `description` is the one line the CLI prints on stderr, for example
/// `input.wav: not an audio file libsndfile can read (Format not recognised.)`.
public struct AudioPipelineError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. Callers branch on the code, never on the message.
    public enum Code: String, Sendable, Codable {
        /// The input cannot be read as audio at all (empty, random bytes, truncated, unknown format).
        case unreadableInput
        /// The input is audio, but outside the limits (too long, too many channels, odd rate).
        case unsupportedInput
        /// The samples themselves are unusable (NaN, infinity).
        case invalidSamples
        /// Decoding worked but no speech was found.
        case noSpeech
        /// A distance marker could not be parsed or resolved.
        case invalidMarker
        /// A container (Ogg, CAF) is malformed or not what was expected.
        case invalidContainer
        /// A codec library refused a call.
        case codecFailure
        /// The file system refused a read or a write.
        case io
    }

    public var code: Code
    public var message: String
    /// The file, upload or stage the error belongs to, when known.
    public var source: String?

    public init(_ code: Code, _ message: String, source: String? = nil) {
        self.code = code
        self.message = message
        self.source = source
    }

    /// The same error, attributed to `source` unless it already names one.
    public func attributed(to source: String) -> AudioPipelineError {
        var copy = self
        if copy.source == nil { copy.source = source }
        return copy
    }

    public var description: String {
        if let source { return "\(source): \(message)" }
        return message
    }
}
