import Foundation
import HTTPTypes
import Hummingbird

/// `POST /v1/messages/{id}/played` body: where the runner was when the app played it.
struct PlayedRequest: Decodable {
    var atMeters: Double
    var runSeconds: Double
}

extension VoicemsgAPI {
    /// The longest `?wait=` a status request may ask for, in seconds.
    static let longestWaitSeconds = 30.0
    /// How often a waiting status request re-reads the message anyway: changes made by workers
    /// on other machines do not reach this process's `MessageChangeSignal`.
    static let recheckSeconds = 1.0
    /// Bounds of a played report: 1000 km, and 30 days.
    static let longestPlayedMeters = 1_000_000.0
    static let longestPlayedRunSeconds = 30 * 86_400.0

    /// `GET /v1/messages/{id}[?wait=N&status=S]`: the message, for the run's owner or invite
    /// token or the message's sender token.
    ///
    /// With `wait` and `status` (the status the client already has), it answers at once when
    /// the status differs, and otherwise waits up to `wait` seconds for it to change or for the
    /// message to be played, so a page can follow a message without polling every second. A message deleted while waited on
    /// answers 404.
    func message(_ request: Request, _ context: VoicemsgRequestContext) async throws -> MessageResponse {
        // Noted before the first read, so a change between that read and the wait still wakes it.
        var seen = store.changes.generation
        let (first, credential) = try await pathMessage(context)
        try await authorize(credential, message: first, allowInvite: true)
        var record = first
        let query = request.uri.queryParameters
        guard let waitText = query.get("wait") else { return MessageResponse(record) }
        guard let wait = Double(waitText), wait.isFinite, wait >= 0, wait <= Self.longestWaitSeconds else {
            throw HTTPError(.badRequest, message: "wait must be a number of seconds from 0 to 30")
        }
        guard let knownText = query.get("status") else { return MessageResponse(record) }
        guard let known = MessageStatus(rawValue: knownText) else {
            throw HTTPError(
                .badRequest,
                message: "status must be one of \(MessageStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let deadline = Date().addingTimeInterval(wait)
        // A played report leaves the status at ready but is news to the sender's page.
        while record.status == known && record.playedAt == first.playedAt {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            await store.changes.wait(after: seen, timeoutSeconds: min(Self.recheckSeconds, remaining))
            try Task.checkCancellation()
            seen = store.changes.generation
            guard let fresh = try await store.records.message(id: record.id) else {
                throw HTTPError(.notFound, message: "message \(record.id) was deleted")
            }
            record = fresh
        }
        return MessageResponse(record)
    }

    /// `DELETE /v1/messages/{id}`, by the run's owner or the message's sender: the message, its
    /// audio and its job go; a worker processing it can no longer complete it.
    func deleteMessage(_ request: Request, _ context: VoicemsgRequestContext) async throws -> Response {
        let (record, credential) = try await pathMessage(context)
        try await authorize(credential, message: record, allowInvite: false)
        guard try await store.queue.delete(messageID: record.id) else {
            throw HTTPError(.notFound, message: "no message \(record.id)")
        }
        return Response(status: .noContent)
    }

    /// `POST /v1/messages/{id}/played`, by the run's owner: records once when (server time) and
    /// where the runner's app played a ready message. A repeated report keeps the first values
    /// and answers the stored state, so the app may report again after a lost answer.
    func played(_ request: Request, _ context: VoicemsgRequestContext) async throws -> MessageResponse {
        let (record, credential) = try await pathMessage(context)
        _ = try await authorize(credential, runID: record.runID, needsOwner: true)
        let body = try await request.decode(as: PlayedRequest.self, context: context)
        guard body.atMeters.isFinite, (0...Self.longestPlayedMeters).contains(body.atMeters) else {
            throw HTTPError(.badRequest, message: "atMeters must be a number from 0 to 1000000")
        }
        guard body.runSeconds.isFinite, (0...Self.longestPlayedRunSeconds).contains(body.runSeconds) else {
            throw HTTPError(.badRequest, message: "runSeconds must be a number from 0 to 2592000 (30 days)")
        }
        guard record.status == .ready else {
            throw HTTPError(
                .conflict, message: "message \(record.id) is \(record.status.rawValue); only a ready message can be played")
        }
        guard
            let stored = try await store.records.markPlayed(
                messageID: record.id, atMeters: body.atMeters, runSeconds: body.runSeconds)
        else {
            throw HTTPError(.notFound, message: "message \(record.id) was deleted")
        }
        return MessageResponse(stored)
    }
}
