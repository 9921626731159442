import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import RunTracking

/// The HTTP API: runs, uploads, message status, the manifest, audio, health and metrics.
///
/// This file holds what the routes share (the store, the limits, the gates and the upload
/// threads, each made once here) and the route table, in the order and under the headings of
/// docs/api.md. Each resource's handlers are in `Routes/` under its name; `Transport/` holds
/// what every route relies on (the HTTP/1 channel, uploads' admission and spooling, tokens,
/// entity tags and ranges, the response's headers).
public struct VoicemsgAPI: Sendable {
    let store: Store
    let metrics: ServerMetrics
    let configuration: APIConfiguration
    let runCreation: RunCreationGate
    let admission: UploadAdmission
    let uploadSlots: UploadSlots
    /// The threads uploads are written on, this API's own: they stop when it is released.
    let uploadThreads = UploadThreads()
    /// The AAC versions made when first asked for, on the upload threads.
    let aacVersions: AACVersions

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
        aacVersions = AACVersions(store: store, configuration: configuration.aac, threads: uploadThreads)
    }

    /// A router with every route of the API.
    public func makeRouter() -> Router<VoicemsgRequestContext> {
        // Every GET route answers HEAD too, with the same headers and no body.
        let router = Router(context: VoicemsgRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ResponseHardening())
        router.add(middleware: BearerAuthenticator())
        // Runs: Routes/VoicemsgAPI+Runs.swift
        router.post("/v1/runs") { request, context in try await createRun(request, context) }
        router.get("/v1/runs/:runID") { request, context in try await runInfo(request, context) }
        router.delete("/v1/runs/:runID") { request, context in try await deleteRun(request, context) }
        router.get("/v1/runs/:runID/markers/resolve") { request, context in try await resolveMarker(request, context) }
        router.get("/v1/runs/:runID/messages") { request, context in try await runMessages(request, context) }
        router.get("/v1/runs/:runID/manifest") { request, context in try await manifest(request, context) }
        router.put("/v1/runs/:runID/course") { request, context in try await putCourse(request, context) }
        router.delete("/v1/runs/:runID/course") { request, context in try await deleteCourse(request, context) }
        // Messages: Routes/VoicemsgAPI+Messages.swift, their audio Routes/VoicemsgAPI+Audio.swift
        router.post("/v1/runs/:runID/messages") { request, context in try await upload(request, context) }
        router.get("/v1/messages/:id") { request, context in try await message(request, context) }
        router.get("/v1/messages/:id/audio") { request, context in try await audio(request, context) }
        router.delete("/v1/messages/:id") { request, context in try await deleteMessage(request, context) }
        router.post("/v1/messages/:id/played") { request, context in try await played(request, context) }
        // Health and metrics: Routes/VoicemsgAPI+Health.swift
        router.get("/healthz") { _, _ in try await health() }
        router.get("/metrics") { _, _ in try await renderMetrics() }
        // Pages and files: Routes/VoicemsgAPI+Pages.swift
        router.get("/") { request, context in try planPage(request, context) }
        router.get("/r/:runID") { request, context in try recordingPage(request, context) }
        router.get("/runs/:runID") { request, context in try runnerPage(request, context) }
        router.get("/static/:name") { request, context in try staticFile(request, context) }
        return router
    }
}
