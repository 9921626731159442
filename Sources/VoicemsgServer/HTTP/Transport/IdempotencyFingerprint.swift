import Foundation
import HTTPTypes
import Hummingbird

/// What an Idempotency-Key is bound to: the body's SHA-256 and the parameters that shape the
/// message (its marker and sender). A retry of the same upload matches and gets the first
/// message back; the same key with another recording, marker or sender is a client bug, and it
/// gets 422 with the reason rather than the first message and a silently dropped recording
/// (Stripe's rule).
enum IdempotencyFingerprint {
    /// The SHA-256 of the upload's bytes. One function, so that a body spooled to disk can be
    /// hashed the same way as it streams by.
    static func bodySHA256(_ body: Data) -> String {
        SecureIdentifier.hexSHA256(body)
    }

    /// One hash over every bound value, each on its own line: text fields cannot hold a line
    /// break (`TextField`), so no two different requests give the same lines.
    static func make(bodySHA256: String, marker: String, sender: String?) -> String {
        let lines = [
            "voicemsg-upload-1",
            "body-sha256=\(bodySHA256)",
            "marker=\(marker)",
            sender.map { "sender=\($0)" } ?? "no-sender",
        ]
        return SecureIdentifier.hexSHA256(Data(lines.joined(separator: "\n").utf8))
    }

    /// Nothing when the stored message was created by the same request (or predates
    /// fingerprints); otherwise 422.
    static func checkReplay(of record: MessageRecord, fingerprint: String) throws {
        guard let stored = record.requestFingerprint, stored != fingerprint else { return }
        throw HTTPError(
            .unprocessableContent,
            message: "this Idempotency-Key was already used for message \(record.id) with a different recording, "
                + "marker or sender; send a new key for a new message")
    }
}
