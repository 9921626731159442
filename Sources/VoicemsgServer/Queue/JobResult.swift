import Foundation

/// What a successful attempt produced: the Ogg Opus file and its measurements, and the same
/// message as AAC in MP4 when that could be made.
public struct JobResult: Sendable {
    public var audio: Data
    public var durationSeconds: Double
    public var sha256: String
    /// The AAC version, stored beside the Opus; nil when it could not be made, and then made
    /// the first time a client asks for it (`AACVersions`).
    public var aac: StoredAAC?
    /// Why there is no AAC version, for the log: the message is ready without it.
    public var aacFailure: String?

    public init(audio: Data, durationSeconds: Double, aac: Data? = nil, aacFailure: String? = nil) {
        self.audio = audio
        self.durationSeconds = durationSeconds
        self.sha256 = SecureIdentifier.hexSHA256(audio)
        self.aac = aac.map(StoredAAC.init)
        self.aacFailure = aacFailure
    }
}
