import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import RunTracking

/// The message routes, in the order of docs/api.md's "Messages": the upload, the status (a long
/// poll), the deletion and the played report. The audio is a file of its own
/// (`VoicemsgAPI+Audio.swift`): its containers, ranges and tags are a subject of their own. An
/// upload is refused before its body is read wherever a limit allows (`UploadSlots`,
/// `UploadAdmission`), and that refusal still reads the body on, so that a client that sends
/// everything before it reads is told why.
extension VoicemsgAPI {
    /// The longest `?wait=` a status request may ask for, in seconds.
    static let longestWaitSeconds = 30.0
    /// How often a waiting status request re-reads the message anyway: changes made by workers
    /// on other machines do not reach this process's `MessageChangeSignal`.
    static let recheckSeconds = 1.0
    /// Bounds of a played report: 1000 km, and 30 days.
    static let longestPlayedMeters = 1_000_000.0
    static let longestPlayedRunSeconds = 30 * 86_400.0

    /// `POST /v1/runs/{runID}/messages?marker=…&sender=…` (invite or owner token): the recording,
    /// answered 202 once it and its message are stored.
    func upload(_ request: Request, _ context: VoicemsgRequestContext) async throws
        -> EditedResponse<UploadResponse>
    {
        let runID = try Self.validID(context.parameters.get("runID"))
        let run = try await authorize(context, runID: runID, needsOwner: false)
        guard let markerText = request.uri.queryParameters.get("marker") else {
            throw HTTPError(.badRequest, message: "the marker query parameter is required, as in ?marker=5km")
        }
        let marker: DistanceMarker
        let markerMeters: Double
        do {
            marker = try DistanceMarker(parsing: markerText)
            markerMeters = try RunBounds.checkedMarkerMeters(
                marker.resolvedMeters(plannedDistance: run.plannedDistanceMeters))
        } catch let error as RunTrackingError {
            throw HTTPError(.badRequest, message: error.description)
        }
        let sender = try request.uri.queryParameters.get("sender").map { try Self.checkedText($0, name: "sender") }
        let idempotencyKey = request.headers[HTTPField.Name("Idempotency-Key")!]
        if let idempotencyKey, idempotencyKey.isEmpty || idempotencyKey.count > 200 {
            throw HTTPError(.badRequest, message: "Idempotency-Key must have 1 to 200 characters")
        }
        // Refused before its body is read (too many at once, queue full, rate, run full): the
        // answer waits for the body, so that a client that sends it all first still reads it.
        do {
            return try await uploadSlots.withSlot {
                try await admission.admit(runID: run.id, tokenHash: try Self.credential(context).tokenHash, store: store)
                return try await spoolAndEnqueue(
                    request, run: run, marker: marker, markerMeters: markerMeters, sender: sender,
                    idempotencyKey: idempotencyKey)
            }
        } catch let refusal as UploadRefusal {
            throw await spooler.lingering(refusal.error, body: request.body)
        }
    }

    /// The admitted upload: spooled, sniffed and enqueued, answered 202.
    func spoolAndEnqueue(
        _ request: Request, run: RunRecord, marker: DistanceMarker, markerMeters: Double, sender: String?,
        idempotencyKey: String?
    ) async throws -> EditedResponse<UploadResponse> {
        let spooled = try await spoolBody(request)
        defer { try? FileManager.default.removeItem(at: spooled.file) }
        // Refused now, by its first bytes, rather than accepted and failed by a worker later.
        if let refusal = AudioSniffer.refusal(prefix: spooled.prefix) {
            throw HTTPError(.unsupportedMediaType, message: refusal)
        }

        let fingerprint = IdempotencyFingerprint.make(
            bodySHA256: spooled.sha256, marker: marker.canonical, sender: sender)
        let senderToken = SecureIdentifier.makeToken()
        let newID = SecureIdentifier.makeID()
        let record = try await enqueueUnlessFull(
            NewMessage(
                id: newID, runID: run.id, marker: marker,
                markerMeters: markerMeters, sender: sender, idempotencyKey: idempotencyKey,
                maxAttempts: configuration.maxAttempts,
                senderTokenHash: SecureIdentifier.hash(token: senderToken),
                requestFingerprint: fingerprint),
            spooled: spooled)
        // A replay returns the first message, whose token is stored only as a hash.
        let created = record.id == newID
        if !created { try IdempotencyFingerprint.checkReplay(of: record, fingerprint: fingerprint) }
        // Only a new message counts as an upload; a replay stored nothing.
        if created { metrics.recordUpload() }
        return EditedResponse(
            status: .accepted,
            response: UploadResponse(id: record.id, status: record.status, senderToken: created ? senderToken : nil))
    }

    /// Stores the message, answering 507 when the database's disk is full: the transaction
    /// rolled back, nothing was stored, and the client may try again once space returns.
    func enqueueUnlessFull(_ message: NewMessage, spooled: UploadSpooler.Spooled) async throws -> MessageRecord {
        do {
            return try await store.queue.enqueue(message, originalFile: spooled.file, length: spooled.length)
        } catch let error as StoreError where error.code == .storageFull {
            throw UploadSpooler.diskFull
        }
    }

    /// Spools the streamed body to disk (refusing it with 413 past the limit), hashing it and
    /// keeping its first bytes as it goes, so a slow or stalled upload holds no memory while it
    /// arrives and the whole body is never read back to be checked.
    func spoolBody(_ request: Request) async throws -> UploadSpooler.Spooled {
        try await spooler.spool(
            request.body, declaredLength: request.headers[.contentLength].flatMap(Int.init))
    }

    var spooler: UploadSpooler {
        var spooler = UploadSpooler(
            directory: configuration.spoolDirectory, limit: configuration.maxUploadBytes, threads: uploadThreads)
        spooler.prefixLength = AudioSniffer.prefixLength
        spooler.minimumBytesPerSecond = configuration.minimumUploadBytesPerSecond
        spooler.drainSeconds = configuration.refusedBodyDrainTime.inSeconds
        return spooler
    }

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
