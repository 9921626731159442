import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import ServiceLifecycle

/// Starts the two kinds of process: `serve` (HTTP and in-process workers) and `worker`
/// (workers only). Both stop gracefully on SIGTERM and SIGINT.
public enum ServerLauncher {
    /// Runs the HTTP server on `host:port` with `workers` in-process workers until a signal;
    /// HTTPS when `tls` is given.
    public static func serve(
        location: StoreLocation, host: String, port: Int, workers: Int,
        processor: any MessageProcessor, api apiConfiguration: APIConfiguration,
        queue: QueueConfiguration, tls: TLSIdentity? = nil, logger: Logger
    ) async throws {
        FileDescriptorLimit.raiseToHardLimit(logger: logger)
        let store = try location.open(logger: logger)
        let metrics = ServerMetrics()
        var apiConfiguration = apiConfiguration
        if case .sqlite(let dataDirectory) = location {
            apiConfiguration.spoolDirectory = URL(fileURLWithPath: dataDirectory)
                .appendingPathComponent("uploads-in-progress", isDirectory: true)
        }
        UploadSpooler.removeLeftovers(in: apiConfiguration.spoolDirectory)
        let router = VoicemsgAPI(store: store, metrics: metrics, configuration: apiConfiguration)
            .makeRouter()
        let where_ = store.location
        let scheme = tls == nil ? "http" : "https"
        // HTTP/1 with the 1.0 close, the close after a refused upload's answer, the idle
        // timeout for stalled bodies and idle keep-alive, and the head's deadline for slow
        // headers; under TLS when asked.
        let http1 = HTTPServerBuilder.voicemsgHTTP1(
            configuration: .init(
                additionalChannelHandlers: [CloseAfterResponseHandler()],
                idleTimeout: .milliseconds(Int64(apiConfiguration.idleTimeoutSeconds * 1000))),
            headTimeout: .milliseconds(Int64(apiConfiguration.headerTimeoutSeconds * 1000)))
        let server: HTTPServerBuilder = try tls.map { try .tls(http1, tlsConfiguration: $0.configuration) } ?? http1
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "voicemsg"),
            onServerRunning: { channel in
                let actualPort = channel.localAddress?.port ?? port
                logger.notice(
                    "voicemsg serve: data in \(where_); listening on \(scheme)://\(host):\(actualPort); \(max(0, workers)) worker\(workers == 1 ? "" : "s")")
            },
            logger: logger)
        // With no workers, this server only takes uploads; `voicemsg worker` processes elsewhere.
        var users: [any Service] = []
        if workers > 0 {
            users.append(
                WorkerPool(
                    store: store, processor: processor, configuration: queue, concurrency: workers,
                    metrics: metrics, logger: logger))
        }
        users.append(
            RetentionSweeper(
                store: store, keepFailedSeconds: apiConfiguration.failedOriginalRetentionSeconds,
                intervalSeconds: 3600, logger: logger))
        users.append(app)
        try await runGroup(store: store, users: users, logger: logger, grace: queue.shutdownGraceSeconds)
    }

    /// Runs `concurrency` workers against `location` until a signal. The `worker` command gives a
    /// shared PostgreSQL database; the tests' faulty worker also runs on a SQLite folder.
    public static func work(
        location: StoreLocation, concurrency: Int, processor: any MessageProcessor,
        queue: QueueConfiguration, logger: Logger
    ) async throws {
        let store = try location.open(logger: logger)
        let pool = WorkerPool(
            store: store, processor: processor, configuration: queue, concurrency: concurrency,
            metrics: ServerMetrics(), logger: logger)
        try await runGroup(store: store, users: [pool], logger: logger, grace: queue.shutdownGraceSeconds) {
            logger.notice("voicemsg worker \(pool.name): data in \(store.location); \(max(1, concurrency)) worker\(max(1, concurrency) == 1 ? "" : "s")")
        }
    }

    /// Runs the store's services, then, once the schema is migrated, the services that use it.
    /// Services stop in reverse order: the HTTP server first, then the workers (which release
    /// their jobs), then the listener and the database connections they needed to do so.
    static func runGroup(
        store: Store, users: [any Service], logger: Logger, grace: Double,
        onMigrated: @escaping @Sendable () -> Void = {}
    ) async throws {
        let afterMigration = AfterMigration(store: store, services: users, logger: logger, onMigrated: onMigrated)
        var configuration = ServiceGroupConfiguration(
            services: (store.services + [afterMigration]).map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        // A backstop well after the workers' own grace period and release.
        configuration.maximumGracefulShutdownDuration = .seconds(grace + 30)
        try await ServiceGroup(configuration: configuration).run()
    }
}

/// Migrates the store, then runs the services that use it as a group of their own, so that none
/// of them sees an old schema. It runs after the store's own services in the process's group: the
/// database connections are there to migrate with, and they outlive everything that uses them.
struct AfterMigration: Service {
    let store: Store
    let services: [any Service]
    let logger: Logger
    let onMigrated: @Sendable () -> Void

    func run() async throws {
        // While the database is unreachable the migration waits for it; a signal meanwhile
        // ends the process cleanly, with nothing started.
        do {
            try await cancelWhenGracefulShutdown { try await store.migrate() }
        } catch where Task.isShuttingDownGracefully {
            logger.info("stopped before the database could be reached")
            return
        }
        onMigrated()
        try await ServiceGroup(
            configuration: .init(services: services.map { .init(service: $0) }, logger: logger)
        ).run()
    }
}
