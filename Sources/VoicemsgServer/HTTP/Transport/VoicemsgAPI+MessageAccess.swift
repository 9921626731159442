import Hummingbird

/// The same for a message in the path (its status, its audio, its deletion, its played report):
/// the message's own sender token opens it as well as the run's tokens.
extension VoicemsgAPI {
    /// Lets through the message's own sender token, the run's owner token, and, when
    /// `allowInvite`, the run's invite token; anything else gets 403.
    ///
    /// A sender token matches one message's stored hash and no run's, so it opens that message
    /// and nothing else: not the run's other messages, its list or its manifest.
    func authorize(_ credential: BearerCredential, message record: MessageRecord, allowInvite: Bool) async throws {
        if let senderHash = record.senderTokenHash,
            SecureIdentifier.constantTimeEquals(credential.tokenHash, senderHash)
        {
            return
        }
        _ = try await authorize(credential, runID: record.runID, needsOwner: !allowInvite)
    }

    /// The message in the path (400 for a malformed id, 404 when there is none) and the bearer
    /// credential (401 when there is none); the caller then authorizes one against the other.
    func pathMessage(_ context: VoicemsgRequestContext) async throws -> (MessageRecord, BearerCredential) {
        let id = try Self.validID(context.parameters.get("id"))
        let credential = try Self.credential(context)
        guard let record = try await store.records.message(id: id) else {
            throw HTTPError(.notFound, message: "no message \(id)")
        }
        return (record, credential)
    }
}
