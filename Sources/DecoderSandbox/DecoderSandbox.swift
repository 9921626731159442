#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import DecoderWire

/// The walls voicemsg-decode puts up around itself, in two steps, so that a file that takes over
/// FFmpeg gets nothing: no descriptor of the server's (the parent spawns the child with 0, 1
/// and 2 only), no life beyond its parent's, no file, socket or process.
///
/// 1. `enter`, before a byte of the input is read: resource limits, and death with the parent.
/// 2. `restrictSystemCalls`, once the libraries are loaded and the input is open, before any
///    byte of it is parsed: on Linux, a seccomp allow-list (`SystemCallFilter`) that kills the
///    process (SIGSYS) at any other system call. On macOS, whose own (`sandbox_init`) is
///    deprecated and not used, the rlimits are the wall (docs/operations.md, "The isolated
///    decoder").
///
/// The tests' FaultyDecoder calls the same two functions, so what it proves holds for the
/// real child.
public enum DecoderSandbox {
    /// Resource limits, then death with the parent. Exits with
    /// `DecoderWire.sandboxUnavailableStatus` when a wall cannot be put up, or when the parent
    /// that spawned this process is already gone.
    public static func enter(_ launch: DecoderWire.Launch) {
        ResourceLimits.apply(launch.limits)
        ParentDeath.arrange(expectedParent: launch.parentProcessID)
    }

    /// From here on, only the system calls decoding needs; anything else ends the process with
    /// SIGSYS. Nothing on macOS (see the type's documentation).
    public static func restrictSystemCalls() {
        #if os(Linux)
        // What the C library reads from files on first use, read now: the time zone, which
        // FFmpeg's MP4 demuxer needs for a recording's creation time (glibc opens
        // /etc/localtime once, then keeps it).
        tzset()
        if let failure = SystemCallFilter.install() { refuse(failure) }
        #endif
    }

    /// One line on stderr (where the parent gives the child /dev/null, for a person running it by
    /// hand), then the status that tells the parent the machine, not the file, is at fault.
    static func refuse(_ reason: String) -> Never {
        let message = "voicemsg-decode: \(reason)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(DecoderWire.sandboxUnavailableStatus)
    }
}
