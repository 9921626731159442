#if os(Linux)
import CSeccomp
import Glibc

/// The decoder's system-call allow-list, through libseccomp: once it is loaded, a system call
/// that is not here, or is here with other arguments, kills the process (SIGSYS), which the
/// parent reports as "the decoder was stopped by its sandbox".
///
/// The list is what demuxing and decoding a recording from descriptor 0 into descriptor 1
/// needs, found by running the decoding tests, the format table, the browser recordings and the
/// fuzz corpus under the filter. Nothing in it names a path, makes a descriptor or a process,
/// or reaches the network.
enum SystemCallFilter {
    struct Rule {
        enum Condition {
            case always
            /// Argument `index` must equal `value`: a descriptor number, a process id.
            case equal(index: UInt32, value: UInt64)
            /// Argument `index` must have none of the bits of `mask`.
            case clear(index: UInt32, mask: UInt64)
        }

        var name: String
        var condition: Condition
        /// Why decoding needs it.
        var reason: String
    }

    static func allowList(processID: pid_t) -> [Rule] {
        let input: Rule.Condition = .equal(index: 0, value: 0)
        let notExecutable: Rule.Condition = .clear(index: 2, mask: UInt64(PROT_EXEC))
        return [
            Rule(name: "read", condition: input, reason: "the input, descriptor 0, as FFmpeg's I/O callback reads it"),
            Rule(name: "pread64", condition: input, reason: "the CAF packet table and the open-ended WAV/CAF check read chunk headers in place"),
            Rule(name: "lseek", condition: input, reason: "seeking in the input (an MP4's moov at the end) and its size"),
            Rule(name: "write", condition: .equal(index: 0, value: 1), reason: "the records on stdout, descriptor 1"),
            // The parent makes descriptor 2 /dev/null. Without it a trap in the decoder's Swift
            // code (an index out of range) would die on its message, and read as the sandbox's.
            Rule(name: "write", condition: .equal(index: 0, value: 2), reason: "the Swift runtime's fatal-error line before it traps"),
            Rule(name: "mmap", condition: notExecutable, reason: "malloc's large blocks and FFmpeg's frame buffers; never executable memory"),
            Rule(name: "mprotect", condition: notExecutable, reason: "malloc growing its heaps; never making memory executable"),
            Rule(name: "munmap", condition: .always, reason: "freeing what mmap gave"),
            Rule(name: "mremap", condition: .always, reason: "realloc of large blocks"),
            Rule(name: "brk", condition: .always, reason: "malloc's main heap"),
            Rule(name: "madvise", condition: .always, reason: "free returning pages of malloc's heaps"),
            Rule(name: "futex", condition: .always, reason: "the Swift runtime's and FFmpeg's once-initialisations and locks"),
            Rule(name: "clock_gettime", condition: .always, reason: "time, where the vDSO does not answer in user space"),
            Rule(name: "clock_getres", condition: .always, reason: "as clock_gettime"),
            Rule(name: "gettimeofday", condition: .always, reason: "as clock_gettime"),
            Rule(name: "exit_group", condition: .always, reason: "the end of the process"),
            Rule(name: "exit", condition: .always, reason: "the end of a thread"),
            // abort() (a failed assertion in FFmpeg or the C library) masks signals and sends
            // itself SIGABRT; allowed, the parent reports a crash as a crash.
            Rule(name: "rt_sigprocmask", condition: .always, reason: "abort()"),
            Rule(name: "getpid", condition: .always, reason: "abort()"),
            Rule(name: "gettid", condition: .always, reason: "abort()"),
            Rule(name: "tgkill", condition: .equal(index: 0, value: UInt64(processID)), reason: "abort(), to this process only"),
        ]
    }

    /// Loads the filter; the reason it could not, or nil.
    static func install() -> String? {
        let kill = vm_seccomp_kill_process()
        guard let filter = seccomp_init(kill) else { return "cannot set up the system-call filter (seccomp_init)" }
        defer { seccomp_release(filter) }
        // A system call of another ABI (32-bit x86 on x86-64) is refused the same way, and the
        // filter covers every thread, were there more than one.
        var status = seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, kill)
        if status == 0 { status = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) }
        guard status == 0 else { return "cannot set up the system-call filter (\(describe(status)))" }
        for rule in allowList(processID: getpid()) {
            let call = seccomp_syscall_resolve_name(rule.name)
            // Not a system call on this architecture (aarch64 has no gettimeofday of its own).
            if call == __NR_SCMP_ERROR { continue }
            switch rule.condition {
            case .always: status = vm_seccomp_allow(filter, call)
            case .equal(let index, let value): status = vm_seccomp_allow_when_equal(filter, call, index, value)
            case .clear(let index, let mask): status = vm_seccomp_allow_when_clear(filter, call, index, mask)
            }
            guard status == 0 else { return "cannot allow \(rule.name) (\(describe(status)))" }
        }
        status = seccomp_load(filter)
        guard status == 0 else { return "cannot load the system-call filter (\(describe(status)))" }
        return nil
    }

    /// libseccomp returns a negated errno.
    private static func describe(_ status: Int32) -> String {
        String(cString: strerror(-status))
    }
}
#endif
