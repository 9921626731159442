/// A message as stored, with its job state and, once ready, what its audio is. It decodes from
/// a row of `messages` by its column names (`CodingKeys`).
public struct MessageRecord: Sendable, Equatable, Decodable {
    public var id: String
    public var runID: String
    public var marker: String
    public var markerMeters: Double
    public var sender: String?
    public var status: MessageStatus
    /// Why the message failed, or why its last attempt failed while a retry waits.
    public var error: String?
    /// Attempts started so far; an attempt counts from the moment it is claimed.
    public var attempts: Int
    public var maxAttempts: Int
    public var durationSeconds: Double?
    public var audioBytes: Int?
    public var audioSHA256: String?
    /// The worker that holds or last held the job.
    public var workerID: String?
    /// The worker that wrote the result.
    public var completedBy: String?
    public var createdAt: Double
    /// SHA-256 of the token the upload gave its sender; nil for messages from before sender
    /// tokens.
    public var senderTokenHash: String?
    /// When the runner's app reported playing it (seconds since 1970, the server's clock), and
    /// where: metres into the run and seconds since its start. Nil until played.
    public var playedAt: Double?
    public var playedAtMeters: Double?
    public var playedAtRunSeconds: Double?
    /// What the upload that created it was (`IdempotencyFingerprint`): a retry with its
    /// Idempotency-Key must match it. Nil for messages from before fingerprints.
    public var requestFingerprint: String?

    public init(
        id: String, runID: String, marker: String, markerMeters: Double, sender: String?,
        status: MessageStatus, error: String?, attempts: Int, maxAttempts: Int,
        durationSeconds: Double?, audioBytes: Int?, audioSHA256: String?, workerID: String?, completedBy: String?,
        createdAt: Double, senderTokenHash: String? = nil, playedAt: Double? = nil,
        playedAtMeters: Double? = nil, playedAtRunSeconds: Double? = nil, requestFingerprint: String? = nil
    ) {
        self.id = id
        self.runID = runID
        self.marker = marker
        self.markerMeters = markerMeters
        self.sender = sender
        self.status = status
        self.error = error
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.durationSeconds = durationSeconds
        self.audioBytes = audioBytes
        self.audioSHA256 = audioSHA256
        self.workerID = workerID
        self.completedBy = completedBy
        self.createdAt = createdAt
        self.senderTokenHash = senderTokenHash
        self.playedAt = playedAt
        self.playedAtMeters = playedAtMeters
        self.playedAtRunSeconds = playedAtRunSeconds
        self.requestFingerprint = requestFingerprint
    }

    /// The columns of `messages` that hold each property.
    enum CodingKeys: String, CodingKey {
        case id
        case runID = "run_id"
        case marker
        case markerMeters = "marker_meters"
        case sender
        case status
        case error
        case attempts
        case maxAttempts = "max_attempts"
        case durationSeconds = "duration_seconds"
        case audioBytes = "audio_bytes"
        case audioSHA256 = "audio_sha256"
        case workerID = "worker_id"
        case completedBy = "completed_by"
        case createdAt = "created_at"
        case senderTokenHash = "sender_token_hash"
        case playedAt = "played_at"
        case playedAtMeters = "played_at_meters"
        case playedAtRunSeconds = "played_at_run_seconds"
        case requestFingerprint = "request_fingerprint"
    }
}
