#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import DecoderWire

/// The resource limits the decoder process puts on itself at start-up, on every platform.
enum ResourceLimits {
    static func apply(_ limits: DecoderWire.Limits) {
        // Past the soft CPU limit the kernel sends SIGXCPU; one second later, SIGKILL.
        set(RLIMIT_CPU, soft: rlim_t(limits.cpuSeconds), hard: rlim_t(limits.cpuSeconds + 1))
        // Allocations past this fail: FFmpeg reports ENOMEM, or the runtime traps.
        set(RLIMIT_AS, rlim_t(limits.addressSpaceBytes))
        // No file may be written or grown (the output is a pipe, which this does not limit),
        // and a crash leaves no core file.
        set(RLIMIT_FSIZE, 0)
        set(RLIMIT_CORE, 0)
        // stdin, stdout, stderr and what the loader opens: a decoder opens nothing else.
        set(RLIMIT_NOFILE, 16)
        // No new process or thread, where the user is not root (root is exempt): the wall
        // against fork on macOS, which has no system-call filter for it.
        set(processCount, 0)
    }

    #if canImport(Glibc)
    typealias Resource = __rlimit_resource
    /// glibc names it only by a macro Swift does not import.
    static let processCount = __RLIMIT_NPROC
    #else
    typealias Resource = Int32
    static let processCount = RLIMIT_NPROC
    #endif

    private static func set(_ resource: Resource, _ value: rlim_t) {
        set(resource, soft: value, hard: value)
    }

    private static func set(_ resource: Resource, soft: rlim_t, hard: rlim_t) {
        var limit = rlimit(rlim_cur: soft, rlim_max: hard)
        #if canImport(Glibc)
        let result = setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
        #else
        let result = setrlimit(resource, &limit)
        #endif
        // A limit that cannot be set is not a sandbox: refuse to decode at all.
        if result != 0 { DecoderSandbox.refuse("cannot set resource limit \(resource)") }
    }
}
