/// Whether the tests run on Linux, where /proc, seccomp and the parent-death signal the decoder
/// child's walls rely on exist; the suites that check those walls run there only.
#if os(Linux)
    public let isLinux = true
#else
    public let isLinux = false
#endif
