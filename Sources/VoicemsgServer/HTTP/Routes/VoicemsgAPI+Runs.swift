import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import RunTracking

/// The run routes, in the order of docs/api.md's "Runs": create, read (with the owner's storage
/// part), delete, resolve a marker, list the messages (a long poll) and the manifest. One file
/// per resource, so that the code and the document read alike. The reads go through
/// `run(id:)` and `messages(runID:)` only, and a marker is refused with the very words the
/// upload would use (`parseMarker`).
extension VoicemsgAPI {
    /// The presets the recording page offers, in the order it shows them.
    static let markerPresets: [(label: String, marker: String)] = [
        ("1 km", "1km"), ("5 km", "5km"), ("Halfway", "halfway"),
        ("1 km before the finish", "finish-1km"), ("Finish", "finish"),
    ]

    /// `POST /v1/runs` (no token, unless run creation is closed to the public): a run, and its
    /// owner and invite tokens, shown this once.
    func createRun(_ request: Request, _ context: VoicemsgRequestContext) async throws
        -> EditedResponse<CreateRunResponse>
    {
        try runCreation.admit(context)
        let body = try await request.decode(as: CreateRunRequest.self, context: context)
        let title = try Self.checkedText(body.title, name: "title")
        let planned = try body.plannedDistanceMeters.map(RunBounds.checkedPlannedDistance)
        // A blank name is no name: the plan page sends what the field holds.
        let runnerName = try body.runnerName.flatMap {
            $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : try Self.checkedText($0, name: "runnerName")
        }
        let ownerToken = SecureIdentifier.makeToken()
        let inviteToken = SecureIdentifier.makeToken()
        let run = RunRecord(
            id: SecureIdentifier.makeID(), title: title,
            plannedDistanceMeters: planned, runnerName: runnerName,
            ownerTokenHash: SecureIdentifier.hash(token: ownerToken),
            inviteTokenHash: SecureIdentifier.hash(token: inviteToken),
            createdAt: Date().timeIntervalSince1970)
        try await store.records.createRun(run)
        return EditedResponse(
            status: .created,
            response: CreateRunResponse(id: run.id, ownerToken: ownerToken, inviteToken: inviteToken))
    }

    /// `GET /v1/runs/{id}` (invite or owner token).
    func runInfo(_ request: Request, _ context: VoicemsgRequestContext) async throws -> Response {
        let runID = try Self.validID(context.parameters.get("runID"))
        let run = try await authorize(context, runID: runID, needsOwner: false)
        let info = RunInfoResponse(
            id: run.id, title: run.title, plannedDistanceMeters: run.plannedDistanceMeters,
            runnerName: run.runnerName, presets: Self.presets(plannedDistance: run.plannedDistanceMeters),
            limits: .init(
                // `serve` gives the same limit to its pipeline, so it is the one an upload meets.
                maxSeconds: configuration.maxRecordingSeconds,
                maxBytes: configuration.maxUploadBytes),
            storage: try await ownerStorage(context, run: run),
            course: try await runCourse(runID: run.id))
        return try Self.privateJSON(info)
    }

    /// The presets that resolve on a run of this planned distance: without one only the
    /// absolute ones, and with one only those that lie before its finish.
    static func presets(plannedDistance: Double?) -> [RunInfoResponse.Preset] {
        markerPresets.compactMap { preset in
            guard let marker = try? DistanceMarker(parsing: preset.marker),
                let meters = try? marker.resolvedMeters(plannedDistance: plannedDistance)
            else { return nil }
            if !marker.isRelative, let plannedDistance, meters >= plannedDistance { return nil }
            return .init(label: preset.label, marker: preset.marker, canonical: marker.canonical, meters: meters)
        }
    }

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

    /// `GET /v1/runs/{id}/markers/resolve?marker=…` (invite or owner token): where a typed
    /// marker lies on this run, or 400 with the reason an upload would be refused.
    func resolveMarker(_ request: Request, _ context: VoicemsgRequestContext) async throws -> Response {
        let runID = try Self.validID(context.parameters.get("runID"))
        let run = try await authorize(context, runID: runID, needsOwner: false)
        let (marker, meters) = try Self.parseMarker(request.uri.queryParameters.get("marker"), run: run)
        return try Self.privateJSON(MarkerResolution(canonical: marker.canonical, meters: meters))
    }

    /// The marker of an upload or a resolve request, or the 400 both of them answer.
    static func parseMarker(_ text: String?, run: RunRecord) throws -> (DistanceMarker, Double) {
        guard let text else {
            throw HTTPError(.badRequest, message: "the marker query parameter is required, as in ?marker=5km")
        }
        do {
            let marker = try DistanceMarker(parsing: text)
            return (marker, try marker.resolvedMeters(plannedDistance: run.plannedDistanceMeters))
        } catch {
            throw HTTPError(.badRequest, message: error.description)
        }
    }

    /// `GET /v1/runs/{id}/messages[?wait=N]` (owner token): every message in any state, in
    /// marker order, with an ETag so a page polling it gets 304 while nothing changed.
    ///
    /// With `wait` and an `If-None-Match` that matches the list as it is, it waits up to `wait`
    /// seconds for the list to change (a message added, processed, played or deleted) and then
    /// answers 200 with the new list, or 304 when nothing changed: the runner's page follows
    /// the run without asking every few seconds.
    func runMessages(_ request: Request, _ context: VoicemsgRequestContext) async throws -> Response {
        // Noted before the first read, so a change between that read and the wait still wakes it.
        var seen = store.changes.generation
        let runID = try Self.validID(context.parameters.get("runID"))
        _ = try await authorize(context, runID: runID, needsOwner: true)
        let wait = try Self.waitSeconds(request.uri.queryParameters.get("wait"))
        let known = request.headers[.ifNoneMatch]
        var (body, etag) = try await messageList(runID: runID)
        if let wait {
            let deadline = Date().addingTimeInterval(wait)
            while EntityTag.ifNoneMatch(known, matches: etag) {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { break }
                await store.changes.wait(after: seen, timeoutSeconds: min(Self.recheckSeconds, remaining))
                try Task.checkCancellation()
                seen = store.changes.generation
                (body, etag) = try await messageList(runID: runID)
            }
        }
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, no-cache"]
        if EntityTag.ifNoneMatch(request.headers[.ifNoneMatch], matches: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The run's messages as JSON in marker order, and the ETag of those bytes.
    func messageList(runID: String) async throws -> (body: Data, etag: String) {
        let records = try await store.records.messages(runID: runID).sorted {
            ($0.markerMeters, $0.createdAt, $0.id) < ($1.markerMeters, $1.createdAt, $1.id)
        }
        let body = try Self.encoder.encode(RunMessagesResponse(messages: records.map(MessageResponse.init)))
        return (body, "\"\(SecureIdentifier.hexSHA256(body).prefix(32))\"")
    }

    /// The `?wait=` of a long poll: nil when absent, 400 unless 0 to `longestWaitSeconds`.
    static func waitSeconds(_ text: String?) throws -> Double? {
        guard let text else { return nil }
        guard let wait = Double(text), wait.isFinite, wait >= 0, wait <= longestWaitSeconds else {
            throw HTTPError(.badRequest, message: "wait must be a number of seconds from 0 to \(Int(longestWaitSeconds))")
        }
        return wait
    }

    /// `GET /v1/runs/{id}/manifest` (owner token): the ready messages in playing order, what
    /// the runner's app downloads before the run.
    func manifest(_ request: Request, _ context: VoicemsgRequestContext) async throws -> ManifestResponse {
        let runID = try Self.validID(context.parameters.get("runID"))
        let run = try await authorize(context, runID: runID, needsOwner: true)
        let all = try await store.records.messages(runID: runID)
        let ready = all.filter { $0.status == .ready }.sorted {
            ($0.markerMeters, $0.createdAt, $0.id) < ($1.markerMeters, $1.createdAt, $1.id)
        }
        return ManifestResponse(
            run: .init(
                id: run.id, title: run.title, plannedDistanceMeters: run.plannedDistanceMeters,
                course: try await runCourse(runID: run.id)),
            messages: ready.map { record in
                ManifestResponse.Message(
                    id: record.id, marker: record.marker, markerMeters: record.markerMeters,
                    sender: record.sender, durationSeconds: record.durationSeconds ?? 0,
                    bytes: record.audioBytes ?? 0, sha256: record.audioSHA256 ?? "",
                    audioURL: "/v1/messages/\(record.id)/audio")
            },
            pending: all.count { $0.status == .queued || $0.status == .processing },
            failed: all.count { $0.status == .failed })
    }

    /// Sorted keys, so the same messages always give the same bytes and the same ETag.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// JSON that no shared cache keeps: these answers depend on the bearer token.
    static func privateJSON(_ value: some Encodable) throws -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "private, no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
