#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
#if os(Linux)
import CSeccomp
#endif

/// The child must not outlive the server that spawned it: an orphan decoder would go on using
/// CPU for nobody, and, had it inherited the listening socket, keep the port from a restarted
/// server.
enum ParentDeath {
    /// On Linux, SIGKILL when the parent ends (PR_SET_PDEATHSIG), asked for first and checked
    /// after: a parent that died before the request leaves this process another parent, and it
    /// stops here. The signal follows the parent *thread* that spawned the child; the parent's
    /// `DecoderProcess` spawns, reads and reaps on one thread, which so outlives its child.
    ///
    /// On macOS there is no such signal. The parent's death closes the read end of the child's
    /// stdout, and the child's next write ends it (SIGPIPE); a child that stops writing is bound
    /// by its CPU limit. Only the check is made.
    static func arrange(expectedParent: Int32) {
        #if os(Linux)
        guard vm_prctl(PR_SET_PDEATHSIG, UInt(SIGKILL)) == 0 else {
            DecoderSandbox.refuse("cannot ask to die with its parent (\(String(cString: strerror(errno))))")
        }
        #endif
        guard getppid() == expectedParent else {
            DecoderSandbox.refuse("its parent (\(expectedParent)) is gone")
        }
    }
}
