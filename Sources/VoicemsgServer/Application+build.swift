import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

/// Puts the whole server together from `configuration`: the HTTP API and pages, and as the
/// application's services the store's own (PostgreSQL's connection pool and its listener), then,
/// once the schema is migrated, the workers and the retention sweeper.
///
/// Nothing runs until the application does. `voicemsg serve` runs it with
/// `runUntilSignalled(shutdownGrace:logger:)`; the tests run the same application in their own
/// process through HummingbirdTesting (`app.test(.router)` or `.live`).
///
/// The application's services start in order and stop in reverse: the HTTP server stops first,
/// then the sweeper and the workers (which release their jobs), then the listener and the
/// connection pool they needed to do so. The server starts listening only once the schema is
/// migrated, so that no request sees an old one.
public func buildApplication(
    _ configuration: ServerConfiguration, logger: Logger
) throws -> some ApplicationProtocol {
    let store = try configuration.store.open(logger: logger)
    return try buildApplication(configuration, store: store, metrics: ServerMetrics(), logger: logger)
}

/// The same server on `store`, opened already from `configuration.store` (the application
/// migrates it as it starts), counting into `metrics`. The tests build through here, so that
/// while the application runs they can look into the very store and counters it uses, as no
/// client can.
func buildApplication(
    _ configuration: ServerConfiguration, store: Store, metrics: ServerMetrics, logger: Logger
) throws -> Application<RouterResponder<VoicemsgRequestContext>> {
    // One descriptor per connection: a thousand slow clients must not exhaust the soft limit.
    FileDescriptorLimit.raiseToHardLimit(logger: logger)
    var api = configuration.api
    // A server on a data folder spools there: the same disk as the database it copies into.
    if case .sqlite(let dataDirectory) = configuration.store {
        api.spoolDirectory = URL(fileURLWithPath: dataDirectory)
            .appendingPathComponent("uploads-in-progress", isDirectory: true)
    }
    // The AAC a request makes is the workers' own.
    if let aac = configuration.pipeline.aac { api.aac = aac }
    let router = VoicemsgAPI(store: store, metrics: metrics, configuration: api).makeRouter()

    // HTTP/1 with the 1.0 close, the close after a refused upload's answer, the idle timeout for
    // stalled bodies and idle keep-alive, and the head's deadline for slow headers; under TLS
    // when asked.
    let http1 = HTTPServerBuilder.voicemsgHTTP1(
        configuration: .init(
            additionalChannelHandlers: [CloseAfterResponseHandler()], idleTimeout: TimeAmount(api.idleTimeout)),
        headTimeout: TimeAmount(api.headerTimeout))
    let server = try configuration.tls.map { try HTTPServerBuilder.tls(http1, tlsConfiguration: $0.configuration) } ?? http1

    var migrated: [any Service] = []
    // With no workers, this server only takes uploads; `voicemsg worker` processes elsewhere.
    if configuration.workers > 0 {
        var pipeline = configuration.pipeline
        pipeline.limits.maximumDurationSeconds = api.maxRecordingSeconds
        migrated.append(
            WorkerPool(
                store: store, processor: PipelineMessageProcessor(configuration: pipeline),
                configuration: configuration.queue, concurrency: configuration.workers, metrics: metrics,
                logger: logger))
    }
    migrated.append(
        RetentionSweeper(
            store: store, keepFailed: api.failedOriginalRetention,
            interval: configuration.retentionSweepInterval, logger: logger))
    let afterMigration = AfterMigration(store: store, services: migrated, logger: logger)

    let host = configuration.host
    let port = configuration.port
    let scheme = configuration.tls == nil ? "http" : "https"
    let workers = max(0, configuration.workers)
    var app = Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(host, port: port), serverName: "voicemsg"),
        services: store.services + [afterMigration],
        onServerRunning: { channel in
            let bound = channel.localAddress?.port ?? port
            logger.notice(
                "voicemsg serve: data in \(store.location); listening on \(scheme)://\(host):\(bound); \(workers) worker\(workers == 1 ? "" : "s")")
        },
        logger: logger)
    let spoolDirectory = api.spoolDirectory
    app.beforeServerStarts {
        try await afterMigration.waitUntilMigrated()
        // Files of uploads in progress when an earlier server stopped.
        UploadSpooler.removeLeftovers(in: spoolDirectory)
    }
    return app
}

/// The services of `voicemsg worker`: the store's own and, once the schema is migrated, a pool
/// of `concurrency` workers running `processor`. Run it with `runUntilSignalled`.
public func buildWorkers(
    store location: StoreLocation, concurrency: Int, processor: any MessageProcessor,
    queue: QueueConfiguration, logger: Logger
) throws -> some Service {
    let store = try location.open(logger: logger)
    let pool = WorkerPool(
        store: store, processor: processor, configuration: queue, concurrency: concurrency,
        metrics: ServerMetrics(), logger: logger)
    let afterMigration = AfterMigration(store: store, services: [pool], logger: logger) {
        logger.notice(
            "voicemsg worker \(pool.name): data in \(store.location); \(pool.concurrency) worker\(pool.concurrency == 1 ? "" : "s")")
    }
    return ServiceGroup(
        configuration: .init(
            services: (store.services + [afterMigration]).map { .init(service: $0) }, logger: logger))
}

extension Service {
    /// Runs this service, as the process's only one, until SIGTERM or SIGINT, then stops it
    /// gracefully: jobs in flight get `shutdownGrace`, and 30 s more are the backstop after
    /// which everything still running is cancelled. A signal that comes while the database is
    /// still unreachable, before anything started, ends the run cleanly.
    public func runUntilSignalled(shutdownGrace: Duration, logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: self)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownGrace + .seconds(30)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch is StoppedBeforeMigration {
            logger.info("stopped before the database could be reached")
        }
    }
}
