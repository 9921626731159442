import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Pipeline work runs at a lower CPU priority than the threads that answer requests, so that on a
/// machine whose cores are all encoding, `/healthz` and uploads still get the CPU when they need
/// it; the decoder child process a job starts inherits the priority of its thread.
enum BackgroundPriority {
    /// The nice value of a worker thread (0 is the default, 19 the lowest).
    static let niceValue: Int32 = 10

    /// Lowers the calling thread's priority. On Linux a nice value belongs to the thread; where
    /// it would belong to the whole process (macOS), nothing is changed.
    static func lowerCurrentThread() {
        #if os(Linux)
        // 0 names the calling task, which on Linux is this thread, not the process.
        let thread: id_t = 0
        if getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread) < niceValue {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, niceValue)
        }
        #endif
    }
}
