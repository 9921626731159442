import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport

@testable import VoicemsgServer

/// The HTTP API on a fresh SQLite store in a folder of its own, as the API tests drive it
/// through HummingbirdTesting; uploads spool into the same folder, as the server's do into its
/// data folder. `change` sets the limits a test needs.
struct APITestApp {
    let directory: TemporaryDirectory
    let store: Store
    let app: Application<RouterResponder<VoicemsgRequestContext>>

    init(metrics: ServerMetrics = ServerMetrics(), _ change: (inout APIConfiguration) -> Void = { _ in }) async throws {
        directory = try TemporaryDirectory()
        store = try StoreLocation.sqlite(dataDirectory: directory.file("data")).open(logger: testLogger)
        try await store.migrate()
        var configuration = APIConfiguration()
        configuration.spoolDirectory = URL(fileURLWithPath: directory.path)
        change(&configuration)
        app = Application(
            router: VoicemsgAPI(store: store, metrics: metrics, configuration: configuration).makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}

/// What every suite that calls the API asks of a request and its answer: the bearer header a
/// token goes in, and the answer's JSON decoded.
protocol CallsTheAPI {}

extension CallsTheAPI {
    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    static func json<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer: response.body))
    }
}
