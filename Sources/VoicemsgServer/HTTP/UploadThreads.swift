import NIOCore
import NIOPosix

/// The threads that hash uploads and write them to the spool, at the workers' lower CPU
/// priority (`BackgroundPriority`).
///
/// A hundred uploads arriving at once keep both cores of a small machine busy; hashing and
/// copying their bytes is the part of that work that can wait a moment, while the event loops
/// and the tasks that answer `/healthz` and the API should not. Kept apart from NIO's shared
/// pool so that lowering these threads touches nothing else.
enum UploadThreads {
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    /// Runs `work` on one of the pool's threads, lowered first (once per thread: the check is
    /// one system call).
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive {
            BackgroundPriority.lowerCurrentThread()
            return try work()
        }
    }
}
