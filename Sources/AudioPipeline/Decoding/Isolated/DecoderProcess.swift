import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One running `voicemsg-decode`: its pid and the read end of its stdout. The one place that
/// spawns, signals and reaps it; `deinit` kills and reaps a child still running, so an error
/// anywhere in the parent never leaves one behind.
final class DecoderProcess {
    let pid: pid_t
    /// The read end of the child's stdout.
    let output: Int32
    private var status: Int32?
    private(set) var wasKilled = false

    /// Spawns `executable` with `arguments`, its stdin reading `input` (a descriptor the caller
    /// keeps and closes), its stdout a new pipe, its stderr /dev/null, and an empty environment
    /// but for the loader's search path.
    init(executable: String, arguments: [String], input: Int32) throws {
        // Pipes are created without close-on-exec and marked right after; a spawn on another
        // thread in between would hand this pipe to that child, and this one's end of file
        // would wait for it. Every spawn of this type takes the lock.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Self.error("cannot create a pipe", errno) }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let environment = ["LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH"].compactMap { name in
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
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw Self.error("cannot start \(executable)", spawned)
        }
        self.pid = pid
        self.output = pipeEnds[0]
    }

    deinit {
        if status == nil { kill() }
        close(output)
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
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(UInt64(Int32.max), (deadline - now) / 1_000_000 + 1))
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Self.error("cannot wait for the decoder", errno)
            }
            if ready == 0 { continue }
            let got = systemRead(output, buffer, count)
            if got >= 0 { return got }
            if errno == EINTR || errno == EAGAIN { continue }
            throw Self.error("cannot read from the decoder", errno)
        }
    }

    private static let spawnLock = NSLock()

    private static func error(_ what: String, _ code: Int32) -> AudioPipelineError {
        AudioPipelineError(.io, "\(what) (\(String(cString: strerror(code))))")
    }
}

// `kill` and `read` are also method names here.
private func systemKill(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
