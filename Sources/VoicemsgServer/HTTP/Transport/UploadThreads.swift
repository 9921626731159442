import NIOCore
import NIOPosix

/// The threads that hash uploads and write them to the spool, at the workers' lower CPU
/// priority (`BackgroundPriority`).
///
/// A hundred uploads arriving at once keep both cores of a small machine busy; hashing and
/// copying their bytes is the part of that work that can wait a moment, while the event loops
/// and the tasks that answer `/healthz` and the API should not. Kept apart from NIO's shared
/// pool so that lowering these threads touches nothing else.
///
/// Each `VoicemsgAPI` owns one, so the threads live as long as the application that uses them:
/// they start with it and stop when it is released. (A `Service` would stop them at shutdown
/// too, but the API is also built alone, as the tests build it, with no service group to run it.)
final class UploadThreads: Sendable {
    private let pool: NIOThreadPool

    init(threads: Int = System.coreCount) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    deinit {
        // Nothing can be queued any more: whoever would queue work holds this object.
        pool.shutdownGracefully { _ in }
    }

    /// Runs `work` on one of the pool's threads, lowered first (once per thread: the check is
    /// one system call).
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive {
            BackgroundPriority.lowerCurrentThread()
            return try work()
        }
    }
}
