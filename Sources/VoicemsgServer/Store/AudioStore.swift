import Foundation

/// Each message's audio: the original upload until processing succeeds, then the Ogg Opus result.
///
/// The job queue writes both, inside its own transactions, because its rules tie them to the
/// job's state: an upload and its job are stored together, and completion stores the result and
/// deletes the original together.
public protocol AudioStore: Sendable {
    /// The processed Ogg Opus bytes of a ready message.
    func audio(messageID: String) async throws -> Data?
    /// True while the original upload is kept (it is deleted once processing succeeds).
    func hasOriginal(messageID: String) async throws -> Bool
}
