import Foundation
import HTTPTypes
import Hummingbird

extension VoicemsgAPI {
    /// Checks an id from the path before anything else sees it; path-like ids get 400.
    static func validID(_ id: String?) throws -> String {
        guard let id, SecureIdentifier.isValid(id) else {
            throw HTTPError(.badRequest, message: "not a valid id")
        }
        return id
    }

    /// The bearer token, or 401 when there is none.
    static func bearerToken(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization],
            header.lowercased().hasPrefix("bearer ")
        else {
            throw HTTPError(
                .unauthorized, headers: [.wwwAuthenticate: "Bearer"],
                message: "a bearer token is required")
        }
        let token = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else {
            throw HTTPError(
                .unauthorized, headers: [.wwwAuthenticate: "Bearer"],
                message: "a bearer token is required")
        }
        return token
    }

    func authorize(_ request: Request, runID: String, needsOwner: Bool) async throws -> RunRecord {
        try await authorize(token: Self.bearerToken(request), runID: runID, needsOwner: needsOwner)
    }

    /// The run, when `token` is its owner token, or its invite token and `needsOwner` is false.
    /// A wrong token and an unknown run both answer 403, so ids cannot be probed.
    func authorize(token: String, runID: String, needsOwner: Bool) async throws -> RunRecord {
        guard let run = try await store.run(id: runID) else {
            throw HTTPError(.forbidden, message: "this token does not give access to this run")
        }
        let hash = SecureIdentifier.hash(token: token)
        let isOwner = SecureIdentifier.constantTimeEquals(hash, run.ownerTokenHash)
        let isInvite = SecureIdentifier.constantTimeEquals(hash, run.inviteTokenHash)
        if isOwner || (isInvite && !needsOwner) { return run }
        if isInvite {
            throw HTTPError(.forbidden, message: "this needs the run's owner token; an invite token only uploads")
        }
        throw HTTPError(.forbidden, message: "this token does not give access to this run")
    }
}
