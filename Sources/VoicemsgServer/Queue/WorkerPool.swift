import Foundation
import Logging
import NIOPosix
import ServiceLifecycle

/// N workers that claim jobs from a store and process them, as one service.
///
/// On graceful shutdown the workers stop claiming at once, jobs in flight get
/// `shutdownGrace` to finish, and whatever is still running then is released back to the
/// queue without counting the attempt, so nothing is left in `processing`.
public final class WorkerPool: Service, Sendable {
    let queue: any JobQueue
    let signal: any WorkSignal
    let processor: any MessageProcessor
    let configuration: QueueConfiguration
    let concurrency: Int
    let metrics: ServerMetrics
    let logger: Logger
    /// One thread per worker for the processor's blocking work, off Swift's cooperative pool, so
    /// the HTTP server and heartbeats stay responsive while every worker is busy.
    let threads: NIOThreadPool
    /// Names this process in `worker_id`, so a result can be traced to who wrote it.
    public let name: String

    public init(
        store: Store, processor: any MessageProcessor, configuration: QueueConfiguration,
        concurrency: Int, metrics: ServerMetrics, logger: Logger, name: String = WorkerPool.defaultName()
    ) {
        self.queue = store.queue
        self.signal = store.signal
        self.processor = processor
        self.configuration = configuration
        self.concurrency = max(1, concurrency)
        self.metrics = metrics
        self.logger = logger
        self.threads = NIOThreadPool(numberOfThreads: max(1, concurrency))
        self.name = name
    }

    /// Host name, process id and a few random characters.
    public static func defaultName() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(getpid())-\(SecureIdentifier.makeID().prefix(6))"
    }

    public func run() async throws {
        let state = ShutdownState()
        threads.start()
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<concurrency {
                        let worker = Worker(pool: self, workerID: "\(name)/\(index)", state: state)
                        group.addTask { await worker.run() }
                    }
                }
            } onCancel: {
                state.expire()
            }
        } onGracefulShutdown: {
            self.logger.info(
                "stopping: no new jobs; jobs in flight have \(self.configuration.shutdownGrace.inSeconds) s")
            state.beginStopping(grace: self.configuration.shutdownGrace)
            Task { await self.signal.signalWork() }
        }
        try await threads.shutdownGracefully()
        logger.info("workers stopped")
    }
}
