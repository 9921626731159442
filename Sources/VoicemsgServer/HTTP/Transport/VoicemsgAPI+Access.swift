import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// Who a request is and which run it opens, for every route that takes a token: the id in the
/// path checked before anything reads it, 401 without a token, and one rule for owner and
/// invite tokens. One place, so that every route refuses alike and a wrong token and an
/// unknown run cannot be told apart.
extension VoicemsgAPI {
    /// Checks an id from the path before anything else sees it; path-like ids get 400.
    static func validID(_ id: String?) throws -> String {
        guard let id, SecureIdentifier.isValid(id) else {
            throw HTTPError(.badRequest, message: "not a valid id")
        }
        return id
    }

    /// The bearer token the authenticator found, or 401 when there is none.
    static func credential(_ context: VoicemsgRequestContext) throws -> BearerCredential {
        guard let credential = context.identity else {
            throw HTTPError(
                .unauthorized, headers: [.wwwAuthenticate: "Bearer"],
                message: "a bearer token is required")
        }
        return credential
    }

    func authorize(_ context: VoicemsgRequestContext, runID: String, needsOwner: Bool) async throws -> RunRecord {
        try await authorize(Self.credential(context), runID: runID, needsOwner: needsOwner)
    }

    /// The run, when the token is its owner token, or its invite token and `needsOwner` is false.
    /// A wrong token and an unknown run both answer 403, so ids cannot be probed.
    func authorize(_ credential: BearerCredential, runID: String, needsOwner: Bool) async throws -> RunRecord {
        guard let run = try await store.records.run(id: runID) else {
            throw HTTPError(.forbidden, message: "this token does not give access to this run")
        }
        let isOwner = SecureIdentifier.constantTimeEquals(credential.tokenHash, run.ownerTokenHash)
        let isInvite = SecureIdentifier.constantTimeEquals(credential.tokenHash, run.inviteTokenHash)
        if isOwner || (isInvite && !needsOwner) { return run }
        if isInvite {
            throw HTTPError(.forbidden, message: "this needs the run's owner token; an invite token only uploads")
        }
        throw HTTPError(.forbidden, message: "this token does not give access to this run")
    }
}
