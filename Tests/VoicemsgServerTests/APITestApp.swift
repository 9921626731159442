import Foundation
import Hummingbird

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
