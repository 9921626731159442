import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// Starts the two kinds of process: `serve` (HTTP and in-process workers) and `worker`
/// (workers only). Both stop gracefully on SIGTERM and SIGINT.
public enum ServerLauncher {
    /// Runs the HTTP server on `host:port` with `workers` in-process workers until a signal.
    public static func serve(
        location: StoreLocation, host: String, port: Int, workers: Int,
        processor: any MessageProcessor, api apiConfiguration: APIConfiguration,
        queue: QueueConfiguration, hooks: TestHooks, logger: Logger
    ) async throws {
        let (store, storeServices) = try await location.open(logger: logger)
        let metrics = ServerMetrics()
        let pool = WorkerPool(
            store: store, processor: processor, configuration: queue, concurrency: workers,
            metrics: metrics, hooks: hooks, logger: logger)
        let router = VoicemsgAPI(store: store, metrics: metrics, configuration: apiConfiguration)
            .makeRouter()
        let where_ = store.location
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "voicemsg"),
            onServerRunning: { channel in
                let actualPort = channel.localAddress?.port ?? port
                logger.notice(
                    "voicemsg serve: data in \(where_); listening on http://\(host):\(actualPort); \(max(0, workers)) workers")
            },
            logger: logger)
        // With no workers, this server only takes uploads; `voicemsg worker` processes elsewhere.
        let workerServices: [any Service] = workers > 0 ? [pool] : []
        try await runGroup(storeServices + workerServices + [app], logger: logger, grace: queue.shutdownGraceSeconds)
    }

    /// Runs `concurrency` workers against a shared database until a signal.
    public static func work(
        location: StoreLocation, concurrency: Int, processor: any MessageProcessor,
        queue: QueueConfiguration, hooks: TestHooks, logger: Logger
    ) async throws {
        let (store, storeServices) = try await location.open(logger: logger)
        let pool = WorkerPool(
            store: store, processor: processor, configuration: queue, concurrency: concurrency,
            metrics: ServerMetrics(), hooks: hooks, logger: logger)
        logger.notice("voicemsg worker \(pool.name): data in \(store.location); \(max(1, concurrency)) workers")
        try await runGroup(storeServices + [pool], logger: logger, grace: queue.shutdownGraceSeconds)
    }

    /// Services stop in reverse order: the HTTP server first, then the workers (which release
    /// their jobs), then the database connections they needed to do so.
    static func runGroup(_ services: [any Service], logger: Logger, grace: Double) async throws {
        var configuration = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        // A backstop well after the workers' own grace period and release.
        configuration.maximumGracefulShutdownDuration = .seconds(grace + 30)
        try await ServiceGroup(configuration: configuration).run()
    }
}
