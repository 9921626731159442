import Foundation

/// What a successful attempt produced: the Ogg Opus file and its measurements.
public struct JobResult: Sendable {
    public var audio: Data
    public var durationSeconds: Double
    public var sha256: String

    public init(audio: Data, durationSeconds: Double) {
        self.audio = audio
        self.durationSeconds = durationSeconds
        self.sha256 = SecureIdentifier.hexSHA256(audio)
    }
}
