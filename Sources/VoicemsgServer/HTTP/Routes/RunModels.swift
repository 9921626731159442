import Foundation
import Hummingbird

// The JSON the run routes read and answer, as docs/api.md shows it. Apart from the handlers so
// that one file lists the whole contract; each answer is also `Decodable` because the tests
// read the server's answers back into these very types.

/// `POST /v1/runs` body.
struct CreateRunRequest: Decodable {
    var title: String
    var plannedDistanceMeters: Double?
    var runnerName: String?
}

/// `POST /v1/runs` answer: the only time the tokens are shown.
struct CreateRunResponse: ResponseEncodable, Decodable {
    var id: String
    var ownerToken: String
    var inviteToken: String
}

/// `GET /v1/runs/{id}` answer: what the recording and runner pages need to know about a run.
struct RunInfoResponse: ResponseEncodable, Decodable {
    struct Preset: Codable, Equatable {
        /// What the page shows: "Halfway".
        var label: String
        /// What the page sends as `?marker=`: "halfway".
        var marker: String
        /// The stored form: "50%".
        var canonical: String
        var meters: Double
    }

    struct Limits: Codable, Equatable {
        /// The longest recording the pipeline accepts.
        var maxSeconds: Double
        /// The largest upload the server accepts.
        var maxBytes: Int
    }

    var id: String
    var title: String
    var plannedDistanceMeters: Double?
    /// Whose run it is, when the runner gave a name.
    var runnerName: String?
    var presets: [Preset]
    var limits: Limits
    /// What the run holds and until when; for the owner only.
    var storage: RunStorageInfo?
    /// The race's course, when the owner gave one: friends see where their marker lies.
    var course: RunCourse?
}

/// A run's course as the API gives it: kept simplified (within half a metre of the file's places),
/// with the length of what is kept, which is what the runner's page follows.
struct RunCourse: Codable, Equatable {
    var lengthMeters: Double
    /// `[[latitude, longitude], …]`, in degrees.
    var points: [[Double]]

    init(lengthMeters: Double, points: [[Double]]) {
        self.lengthMeters = lengthMeters
        self.points = points
    }

    init(_ stored: StoredCourse) throws {
        lengthMeters = stored.lengthMeters
        points = try JSONDecoder().decode([[Double]].self, from: Data(stored.pointsJSON.utf8))
    }
}

/// `PUT /v1/runs/{id}/course` answer: the course as kept.
struct CourseResponse: Codable {
    var course: RunCourse
}

/// `GET /v1/runs/{id}`'s storage part, for the owner: what the run holds, and until when.
struct RunStorageInfo: Codable, Equatable {
    var stored: RunStorage
    /// How long a failed message's upload is kept after it failed, in seconds.
    var failedOriginalsKeptSeconds: Double
    /// When the next failed upload will be deleted, and when the last one will be (seconds
    /// since 1970); nil when no failed upload is held.
    var nextFailedOriginalDeletionAt: Double?
    var lastFailedOriginalDeletionAt: Double?
    /// Everything else (the run, its messages, their processed audio) is kept until the owner
    /// deletes the message or the run.
    var everythingElseKept: String
}

/// `GET /v1/runs/{id}/markers/resolve` answer.
struct MarkerResolution: ResponseEncodable, Decodable {
    var canonical: String
    var meters: Double
}

/// `GET /v1/runs/{id}/messages` answer: every message of the run, in any state, in marker order.
struct RunMessagesResponse: Codable {
    var messages: [MessageResponse]
}

/// `GET /v1/runs/{runID}/manifest` answer.
struct ManifestResponse: ResponseEncodable, Decodable {
    struct Run: Codable {
        var id: String
        var title: String
        var plannedDistanceMeters: Double?
        /// The course, so that Get ready takes it with the messages.
        var course: RunCourse?
    }

    struct Message: Codable {
        var id: String
        var marker: String
        var markerMeters: Double
        var sender: String?
        var durationSeconds: Double
        var bytes: Int
        var sha256: String
        var audioURL: String
    }

    var run: Run
    var messages: [Message]
    /// Queued or processing.
    var pending: Int
    var failed: Int
}
