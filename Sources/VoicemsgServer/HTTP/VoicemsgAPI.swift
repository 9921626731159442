import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import RunTracking

/// The HTTP API: runs, uploads, message status, the manifest, audio, health and metrics.
public struct VoicemsgAPI: Sendable {
    let store: Store
    let metrics: ServerMetrics
    let configuration: APIConfiguration
    let runCreation: RunCreationGate
    let admission: UploadAdmission
    let uploadSlots: UploadSlots
    /// The threads uploads are written on, this API's own: they stop when it is released.
    let uploadThreads = UploadThreads()

    public init(store: Store, metrics: ServerMetrics, configuration: APIConfiguration = .init()) {
        self.store = store
        self.metrics = metrics
        self.configuration = configuration
        runCreation = RunCreationGate(
            perMinute: configuration.runCreationsPerMinute, adminTokenHash: configuration.adminTokenHash)
        self.admission = UploadAdmission(
            limits: .init(
                maxQueueDepth: configuration.maxQueueDepth,
                uploadsPerMinutePerToken: configuration.uploadsPerMinutePerToken,
                maxMessagesPerRun: configuration.maxMessagesPerRun))
        uploadSlots = UploadSlots(limit: configuration.maxConcurrentUploads)
    }

    /// A router with every route of the API.
    public func makeRouter() -> Router<VoicemsgRequestContext> {
        // Every GET route answers HEAD too, with the same headers and no body.
        let router = Router(context: VoicemsgRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ResponseHardening())
        router.add(middleware: BearerAuthenticator())
        router.post("/v1/runs") { request, context in try await createRun(request, context) }
        router.post("/v1/runs/:runID/messages") { request, context in try await upload(request, context) }
        router.get("/v1/runs/:runID/manifest") { request, context in try await manifest(request, context) }
        router.get("/v1/messages/:id") { request, context in try await message(request, context) }
        router.get("/v1/messages/:id/audio") { request, context in try await audio(request, context) }
        router.get("/v1/runs/:runID") { request, context in try await runInfo(request, context) }
        router.delete("/v1/runs/:runID") { request, context in try await deleteRun(request, context) }
        router.get("/v1/runs/:runID/markers/resolve") { request, context in try await resolveMarker(request, context) }
        router.get("/v1/runs/:runID/messages") { request, context in try await runMessages(request, context) }
        router.get("/") { request, context in try planPage(request, context) }
        router.get("/r/:runID") { request, context in try recordingPage(request, context) }
        router.get("/runs/:runID") { request, context in try runnerPage(request, context) }
        router.get("/static/:name") { request, context in try staticFile(request, context) }
        router.delete("/v1/messages/:id") { request, context in try await deleteMessage(request, context) }
        router.post("/v1/messages/:id/played") { request, context in try await played(request, context) }
        router.get("/healthz") { _, _ in try await health() }
        router.get("/metrics") { _, _ in try await renderMetrics() }
        return router
    }

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
                id: newID, runID: run.id, marker: marker.canonical,
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
        return spooler
    }

    func health() async throws -> HealthResponse {
        _ = try await store.records.run(id: "healthz")
        return HealthResponse(status: "ok")
    }

    func renderMetrics() async throws -> Response {
        let text = metrics.render(queueDepth: try await store.records.statusCounts())
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
