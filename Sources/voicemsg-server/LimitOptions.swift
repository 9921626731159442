import ArgumentParser
import Foundation
import VoicemsgServer

/// What `serve` takes from one client, one run and everyone at once.
struct LimitOptions: ParsableArguments {
    private static var defaults: APIConfiguration { ServerDefaults.configuration.api }

    @Option(help: "Largest upload in bytes.")
    var maxUploadBytes: Int = defaults.maxUploadBytes

    @Option(help: "Longest recording in seconds; the recording page counts down to it.")
    var maxRecordingSeconds: Double = defaults.maxRecordingSeconds

    @Option(help: "Runs one client address may create per minute; more get 429 with Retry-After.")
    var runsPerMinute: Int = defaults.runCreationsPerMinute

    @Flag(help: "Close run creation to the public: only requests bearing the token in \(LimitOptions.adminTokenVariable) create runs.")
    var adminOnlyRuns = false

    @Option(help: "Queued and processing messages past which uploads get 503.")
    var maxQueueDepth: Int = defaults.maxQueueDepth

    @Option(help: "Uploads each token may start per minute; more get 429.")
    var uploadsPerMinutePerToken: Int = defaults.uploadsPerMinutePerToken

    @Option(help: "Messages a run may hold; more get 409.")
    var maxMessagesPerRun: Int = defaults.maxMessagesPerRun

    @Option(help: "Uploads received and stored at once; more get 503 with Retry-After, so that health checks and the API stay responsive.")
    var maxConcurrentUploads: Int = defaults.maxConcurrentUploads

    func validate() throws {
        guard maxUploadBytes > 0 else { throw ValidationError("--max-upload-bytes must be positive") }
        guard runsPerMinute > 0 else { throw ValidationError("--runs-per-minute must be positive") }
        if adminOnlyRuns, Self.adminToken == nil {
            throw ValidationError(
                "--admin-only-runs needs the admin token in the environment variable \(Self.adminTokenVariable) (at least 32 characters)")
        }
        guard maxRecordingSeconds.isFinite, maxRecordingSeconds >= 1 else {
            throw ValidationError("--max-recording-seconds must be at least 1")
        }
        guard maxQueueDepth > 0, uploadsPerMinutePerToken > 0, maxMessagesPerRun > 0, maxConcurrentUploads > 0 else {
            throw ValidationError(
                "--max-queue-depth, --uploads-per-minute-per-token, --max-messages-per-run and --max-concurrent-uploads must be positive")
        }
    }

    func apply(to api: inout APIConfiguration) {
        api.maxUploadBytes = maxUploadBytes
        api.maxRecordingSeconds = maxRecordingSeconds
        api.runCreationsPerMinute = runsPerMinute
        // From the environment, not the command line, so it does not show in `ps`.
        api.adminTokenHash = adminOnlyRuns ? Self.adminToken.map(SecureIdentifier.hash(token:)) : nil
        api.maxQueueDepth = maxQueueDepth
        api.uploadsPerMinutePerToken = uploadsPerMinutePerToken
        api.maxMessagesPerRun = maxMessagesPerRun
        api.maxConcurrentUploads = maxConcurrentUploads
    }

    static let adminTokenVariable = "VOICEMSG_ADMIN_TOKEN"

    /// The operator's admin token, when it is long enough to be unguessable.
    static var adminToken: String? {
        ProcessInfo.processInfo.environment[adminTokenVariable].flatMap { $0.count >= 32 ? $0 : nil }
    }
}
