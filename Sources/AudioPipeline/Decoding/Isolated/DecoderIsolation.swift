/// When recordings are decoded by FFmpeg in the separate `voicemsg-decode` process, and the
/// limits that process runs under. A crash, a hang or a limit there fails that one input with
/// one line; the caller's process carries on.
public struct DecoderIsolation: Sendable, Equatable {
    /// Which inputs go to the child.
    public enum Policy: Sendable, Equatable {
        /// libsndfile in-process for what it reads (WAV, FLAC, MP3, Ogg, AIFF, CAF with PCM);
        /// the child for the rest (WebM, MP4/M4A, ADTS AAC, AMR, CAF with AAC or ALAC). The
        /// command line's default: a WAV encode never starts a process or loads FFmpeg.
        case fallback
        /// Every input is decoded in the child. For untrusted uploads: the server's setting.
        case always
    }

    /// Default: `.fallback`.
    public var policy: Policy = .fallback
    /// CPU time the child may use, seconds (RLIMIT_CPU). Default 30: many times what the
    /// longest recording the input limits allow takes to decode, so only a file that makes
    /// FFmpeg spin reaches it (what a decode takes: docs/operations.md, "What it cannot do").
    public var cpuSeconds = 30
    /// The child's address space, bytes (RLIMIT_AS). Default 512 MiB: the child maps FFmpeg
    /// and the codec libraries it links before it reads a byte, then holds one packet and one
    /// frame at a time, so it stays well under this, while a table that claims billions of
    /// entries fails to allocate (what it maps: docs/operations.md, "What it cannot do").
    public var addressSpaceBytes = 512 << 20
    /// Wall-clock time the child may keep its reader waiting, in all, before it is killed,
    /// seconds. Default 60. The reader's own work on the samples is not counted.
    public var wallClockSeconds = 60.0
    /// The `voicemsg-decode` executable. Default nil: the `VOICEMSG_DECODE` environment
    /// variable, else the one installed beside the running executable.
    public var executablePath: String?

    /// The default limits, with `policy`.
    public init(policy: Policy = .fallback) {
        self.policy = policy
    }

    /// The name of the child program, built and installed with voicemsg.
    public static let programName = "voicemsg-decode"
    /// The environment variable that overrides where the child is found (tests, packaging).
    public static let environmentVariable = "VOICEMSG_DECODE"
}
