/// An error a person can act on: what went wrong, in which file or stage, and why.
///
/// The `description` is the one line the CLI prints on stderr, for example
/// `input.wav: not an audio file libsndfile can read (Format not recognised.)`. When a C
/// library refused a call, `cause` keeps its own account: the library, the function and its
/// numeric code.
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
        /// A setting is outside what its stage accepts, such as a bitrate libopus cannot code at.
        case invalidConfiguration
        /// A codec library refused a call.
        case codecFailure
        /// The file system refused a read or a write.
        case io

        /// Whether an error of this kind is worth trying again, when nothing more specific is
        /// known: a codec library that fails without saying why and a file system that refuses
        /// a write may work a moment later; bad input and bad settings fail the same way every
        /// time.
        public var isRetryable: Bool {
            switch self {
            case .codecFailure, .io: return true
            case .unreadableInput, .unsupportedInput, .invalidSamples, .noSpeech, .invalidMarker,
                 .invalidContainer, .invalidConfiguration:
                return false
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The reason, in words, without the source.
    public var message: String
    /// The file, upload or stage the error belongs to, when known.
    public var source: String?
    /// The C library's own account of the failure underneath, when a library call failed.
    public var cause: Cause?
    /// Whether the same work may succeed when tried again: true when the machine failed (out of
    /// memory, a write the disk refused), false when the input or the settings did. The
    /// server's retry policy reads it; nothing else should guess it from `code`.
    public var isRetryable: Bool

    /// An error; `isRetryable` defaults to what `code` says of its kind.
    public init(_ code: Code, _ message: String, source: String? = nil, cause: Cause? = nil, isRetryable: Bool? = nil) {
        self.code = code
        self.message = message
        self.source = source
        self.cause = cause
        self.isRetryable = isRetryable ?? code.isRetryable
    }

    /// The same error, attributed to `source` unless it already names one.
    public func attributed(to source: String) -> AudioPipelineError {
        var copy = self
        if copy.source == nil { copy.source = source }
        return copy
    }

    /// The one line a person reads: `source: message`, or the message alone.
    public var description: String {
        if let source { return "\(source): \(message)" }
        return message
    }
}
