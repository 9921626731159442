import AudioPipeline
import Foundation

/// Limits and policies of the HTTP API.
public struct APIConfiguration: Sendable {
    /// Largest upload accepted, in bytes; larger bodies get 413 and nothing is stored.
    /// Default 25 MB.
    public var maxUploadBytes: Int = 25 * 1024 * 1024
    /// The largest course (GPX) a run's owner may send. Default 16 MiB: a marathon drawn every
    /// metre with times and heights is about 5 MB.
    public var maxCourseBytes: Int = 16 * 1024 * 1024
    /// Attempts each new message gets before it is failed for good. Default 5.
    public var maxAttempts: Int = 5
    /// Longest recording the pipeline accepts, in seconds; the recording page stops there and
    /// counts down to it. Default: the pipeline's own limit (10 minutes).
    public var maxRecordingSeconds: Double = InputLimits.default.maximumDurationSeconds
    /// Runs one client (one remote address) may create per minute; more get 429 with
    /// Retry-After. Default 20.
    public var runCreationsPerMinute: Int = 20
    /// When set, run creation is closed to the public: only a request bearing this token (the
    /// operator's) creates a run. Only its SHA-256 is kept.
    public var adminTokenHash: String?
    /// How long the upload of a failed message is kept, for its sender to retry or the operator
    /// to look at. Default 7 days.
    public var failedOriginalRetention: Duration = .seconds(7 * 86_400)
    /// Queued and processing messages past which uploads get 503 with `Retry-After`.
    public var maxQueueDepth: Int = 10_000
    /// Uploads each bearer token may start per minute; more get 429 with `Retry-After`.
    public var uploadsPerMinutePerToken: Int = 60
    /// Uploads spooled and stored at once; more get 503 with `Retry-After` (`UploadSlots`).
    /// Default 128: each holds its batch and NIO's buffers while it streams, so a flood stays
    /// within a small, known memory (what 100 at once cost: docs/operations.md, "Load and
    /// faults").
    public var maxConcurrentUploads: Int = 128
    /// Messages a run may hold; more get 409.
    public var maxMessagesPerRun: Int = 1_000
    /// How long a connection may go without a byte from the client before the server closes
    /// it: while its request headers arrive, between body bytes, and idle between requests. A
    /// stalled upload is then cut off and leaves nothing. Default 30 s.
    public var idleTimeout: Duration = .seconds(30)
    /// How long from a request's first byte until its headers must be whole, whatever the pace
    /// of the bytes, as nginx's `client_header_timeout`: a client trickling its headers a byte
    /// at a time is closed. Default 10 s: a phone on a poor network sends a request head (under
    /// 2 KB) in well under a second.
    public var headerTimeout: Duration = .seconds(10)
    /// The slowest upload body kept: after `uploadPaceGrace`, a body must average this many
    /// bytes a second or it is cut off with 408 and leaves nothing. Default 500 (4 kbit/s, far
    /// below any phone network); 0 turns the check off.
    public var minimumUploadBytesPerSecond: Double = 500
    /// How long a body may take before `minimumUploadBytesPerSecond` is checked: the first
    /// seconds of an upload include the connection's slow start and a phone waking its radio.
    public static let uploadPaceGrace: Duration = .seconds(20)
    /// How long the rest of a refused body (413) is read and discarded before the answer
    /// closes the connection, so a client that writes its whole body before reading still
    /// reads why. Default 5 s: a phone's 25 MB at loopback or LAN speed; past it the client
    /// may see a reset instead of the 413.
    public var refusedBodyDrainTime: Duration = .seconds(5)
    /// Where uploads are written while they arrive (see `UploadSpooler`). The server sets it
    /// inside the SQLite data folder; the default is the system's temporary folder.
    public var spoolDirectory: URL = FileManager.default.temporaryDirectory
        .appendingPathComponent("voicemsg-uploads", isDirectory: true)
    /// How the AAC version of a message that has none is made, when a client first asks for it
    /// (`AACVersions`). The server uses the workers' own (`ServerConfiguration.pipeline.aac`).
    public var aac = AACEncoder.Configuration()

    public init() {}
}
