import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/runs/{id}`'s storage part, for the owner: what the run holds, and until when.
struct RunStorageInfo: Codable, Equatable {
    var stored: RunStorage
    /// How long a failed message's upload is kept after it failed, in seconds.
    var failedOriginalsKeptSeconds: Double
    /// When the next failed upload will be deleted, and when the last one will be (seconds
    /// since 1970); nil when no failed upload is held.
    var nextFailedOriginalDeletionAt: Double?
    var lastFailedOriginalDeletionAt: Double?
    /// Everything else (the run, its messages, their processed audio) is kept until the owner
    /// deletes the message or the run.
    var everythingElseKept: String
}

extension VoicemsgAPI {
    /// The storage part of the run info when the token is the owner's; nil for an invite.
    func ownerStorage(_ context: VoicemsgRequestContext, run: RunRecord) async throws -> RunStorageInfo? {
        guard let credential = context.identity,
            SecureIdentifier.constantTimeEquals(credential.tokenHash, run.ownerTokenHash)
        else { return nil }
        let stored = try await store.queue.storage(runID: run.id)
        let keep = configuration.failedOriginalRetention.inSeconds
        return RunStorageInfo(
            stored: stored, failedOriginalsKeptSeconds: keep,
            nextFailedOriginalDeletionAt: stored.oldestFailedOriginalAt.map { $0 + keep },
            lastFailedOriginalDeletionAt: stored.newestFailedOriginalAt.map { $0 + keep },
            everythingElseKept: "until the owner deletes the message (DELETE /v1/messages/{id}) or the run (DELETE /v1/runs/{id})")
    }

    /// `DELETE /v1/runs/{id}` (owner token): the run and everything it holds.
    func deleteRun(_ request: Request, _ context: VoicemsgRequestContext) async throws -> Response {
        let runID = try Self.validID(context.parameters.get("runID"))
        _ = try await authorize(context, runID: runID, needsOwner: true)
        guard try await store.queue.deleteRun(id: runID) else {
            throw HTTPError(.notFound, message: "run \(runID) was already deleted")
        }
        return Response(status: .noContent)
    }
}
