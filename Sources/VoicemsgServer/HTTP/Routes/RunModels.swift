import Hummingbird

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
