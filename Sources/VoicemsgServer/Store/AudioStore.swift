import Foundation

/// Each message's audio: the original upload until processing succeeds, then the Ogg Opus result
/// and, beside it, its AAC version.
///
/// The job queue writes the upload and the result, inside its own transactions, because its
/// rules tie them to the job's state: an upload and its job are stored together, and completion
/// stores the result (with its AAC when the worker made one) and deletes the original together.
/// An AAC version made later, for a message that has none, is added here.
public protocol AudioStore: Sendable {
    /// The processed Ogg Opus bytes of a ready message.
    func audio(messageID: String) async throws -> Data?
    /// True while the original upload is kept (it is deleted once processing succeeds).
    func hasOriginal(messageID: String) async throws -> Bool
    /// The AAC version of a ready message, when it has one.
    func aac(messageID: String) async throws -> StoredAAC?
    /// Stores `aac` as the AAC version of a ready message that has none; false when the message
    /// is gone or already has one (which is then kept: both were made from the same Opus).
    func storeAAC(_ aac: StoredAAC, messageID: String) async throws -> Bool
}

/// A message's AAC version (AAC-LC in an M4A) and its SHA-256, its ETag.
public struct StoredAAC: Sendable, Equatable {
    public var bytes: Data
    public var sha256: String

    public init(_ bytes: Data) {
        self.bytes = bytes
        self.sha256 = SecureIdentifier.hexSHA256(bytes)
    }

    init(bytes: Data, sha256: String) {
        self.bytes = bytes
        self.sha256 = sha256
    }
}
