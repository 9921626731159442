import HTTPTypes
import Hummingbird

// The JSON the message routes answer, and the played report they read, as docs/api.md shows
// it. Apart from the handlers so that one file lists the whole contract; each answer is also
// `Decodable` because the tests read the server's answers back into these very types.

/// `POST /v1/runs/{runID}/messages` answer.
struct UploadResponse: ResponseEncodable, Decodable {
    var id: String
    var status: MessageStatus
    /// The sender's token for this message alone, shown only when the upload created it: a
    /// replay with the same Idempotency-Key gets the message without it (only its hash is
    /// stored), so the client keeps the first answer's token with its recording.
    var senderToken: String?
}

/// `GET /v1/messages/{id}` answer.
struct MessageResponse: ResponseEncodable, Decodable {
    var id: String
    var runID: String
    var status: MessageStatus
    var error: String?
    var marker: String
    var markerMeters: Double
    var sender: String?
    var durationSeconds: Double?
    var attempts: Int
    /// When the runner's app played it, in seconds since 1970 (server time); nil until played.
    var playedAt: Double?
    var playedAtMeters: Double?
    var playedAtRunSeconds: Double?

    init(_ record: MessageRecord) {
        id = record.id
        runID = record.runID
        status = record.status
        // A transient error of a job that will be retried is kept for operators, not shown as
        // the message's error.
        error = record.status == .failed ? record.error : nil
        marker = record.marker
        markerMeters = record.markerMeters
        sender = record.sender
        durationSeconds = record.durationSeconds
        attempts = record.attempts
        playedAt = record.playedAt
        playedAtMeters = record.playedAtMeters
        playedAtRunSeconds = record.playedAtRunSeconds
    }
}

/// `POST /v1/messages/{id}/played` body: where the runner was when the app played it.
struct PlayedRequest: Decodable {
    var atMeters: Double
    var runSeconds: Double
}
