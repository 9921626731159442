import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SystemPackage
#if canImport(Glibc)
import CSpawn
import Glibc
#else
import Darwin
#endif

/// One running `voicemsg-decode`: its pid and the read end of its stdout. The one place that
/// spawns, signals and reaps it; `deinit` kills and reaps a child still running, so an error
/// anywhere in the parent never leaves one behind.
///
/// Spawning, reading and reaping happen on the caller's thread, without suspending: on Linux the
/// child's parent-death signal follows the thread that spawned it, which so outlives the child.
///
/// Descriptors are swift-system's `FileDescriptor`, errors its `Errno`; posix_spawn, poll and
/// waitpid, which swift-system does not wrap, take the raw numbers.
final class DecoderProcess {
    let pid: pid_t
    /// The read end of the child's stdout.
    let output: FileDescriptor
    private var status: Int32?
    private(set) var wasKilled = false

    /// Spawns `executable` with `arguments`, its stdin reading `input` (a descriptor the caller
    /// keeps and closes), its stdout a new pipe, its stderr /dev/null, no other descriptor of this
    /// process, and an environment that holds only the loader's search path and the runtime's
    /// backtrace switch.
    init(executable: String, arguments: [String], input: FileDescriptor) throws {
        let (readEnd, writeEnd) = try Self.pipe()
        // This process keeps the read end, and only once the child runs.
        var started = false
        defer {
            try? writeEnd.close()
            if !started { try? readEnd.close() }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.rawValue, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd.rawValue, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        // Default handlers and an empty mask, whatever the parent set: a child whose reader
        // went away dies of SIGPIPE instead of spinning on EPIPE.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        let signalFlags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)

        // The child gets descriptors 0, 1 and 2 and nothing else: not the server's sockets,
        // event loops, database or spool files, whether or not they were opened close-on-exec
        // (NIO's sockets and epoll descriptors are not). Both also keep the pipe's ends, made
        // on another thread for another child, out of this one.
        #if os(Linux)
        let closing = vm_spawn_close_from(&actions, 3)
        guard closing == 0 else { throw Self.error("cannot prepare the decoder's start", Errno(rawValue: closing)) }
        posix_spawnattr_setflags(&attributes, Int16(signalFlags))
        #else
        posix_spawnattr_setflags(&attributes, Int16(signalFlags | Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)))
        #endif

        // No backtrace from the Swift runtime on a crash: it would start a helper process,
        // which the system-call filter forbids, and the crash would read as the sandbox's.
        let environment = ["SWIFT_BACKTRACE=enable=no"] + ["LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH"].compactMap { name in
            ProcessInfo.processInfo.environment[name].map { "\(name)=\($0)" }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Self.error("cannot start \(executable)", Errno(rawValue: spawned)) }
        started = true
        self.pid = pid
        self.output = readEnd
    }

    deinit {
        if status == nil { kill() }
        try? output.close()
    }

    /// SIGKILL, then reaps.
    func kill() {
        guard status == nil else { return }
        wasKilled = true
        _ = systemKill(pid, SIGKILL)
        _ = wait()
    }

    /// Waits for the child to end and returns its raw wait status.
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        status = raw
        return raw
    }

    /// Reads up to `count` bytes into `buffer`, waiting at most until `deadline` (uptime in
    /// nanoseconds). Returns the bytes read (0 at end of file), or nil when the deadline passed.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, deadline: UInt64) throws -> Int? {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            var poller = pollfd(fd: output.rawValue, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(UInt64(Int32.max), (deadline - now) / 1_000_000 + 1))
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Self.error("cannot wait for the decoder", Errno(rawValue: errno))
            }
            if ready == 0 { continue }
            do {
                return try output.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
            } catch Errno.resourceTemporarilyUnavailable {
                continue
            } catch let failure as Errno {
                throw Self.error("cannot read from the decoder", failure)
            }
        }
    }

    /// A pipe whose ends this process's other children never get: atomically close-on-exec on
    /// Linux; on macOS marked right after, which POSIX_SPAWN_CLOEXEC_DEFAULT makes safe.
    private static func pipe() throws -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        #if os(Linux)
        do {
            return try FileDescriptor.pipe(options: .closeOnExec)
        } catch let failure {
            throw error("cannot create a pipe", failure)
        }
        #else
        do {
            let ends = try FileDescriptor.pipe()
            for end in [ends.readEnd, ends.writeEnd] { _ = fcntl(end.rawValue, F_SETFD, FD_CLOEXEC) }
            return ends
        } catch let failure as Errno {
            throw error("cannot create a pipe", failure)
        }
        #endif
    }

    private static func error(_ what: String, _ cause: Errno) -> AudioPipelineError {
        AudioPipelineError(.io, "\(what) (\(cause))")
    }
}

// `kill` is also a method name here.
private func systemKill(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
