#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// The server holds one file descriptor per connection, and Linux starts processes with a soft
/// limit of 1,024: a thousand slow clients would then make `accept` fail for everyone else
/// until the header timeout frees them. The hard limit is what the operator allows, so the
/// server raises its soft limit to it at start.
enum FileDescriptorLimit {
    static func raiseToHardLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        let before = limit.rlim_cur
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            logger.debug("open-file limit raised from \(before) to \(limit.rlim_max)")
        } else {
            logger.warning("open-file limit stays at \(before): \(String(cString: strerror(errno)))")
        }
    }
}
