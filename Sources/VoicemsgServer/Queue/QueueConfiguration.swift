/// How workers hold, retry and give up on jobs. Tests shorten the times; the defaults suit a
/// pipeline that takes well under a second per message.
public struct QueueConfiguration: Sendable {
    /// How long a claim stays valid without a heartbeat. Default 30 s.
    public var leaseSeconds: Double = 30
    /// How often a busy worker extends its lease. Default: a third of the lease.
    public var heartbeatSeconds: Double? = nil
    /// Attempts before a job is failed for good, counting attempts that crashed. Default 5.
    public var maxAttempts: Int = 5
    /// First retry delay; each later retry doubles it, with jitter. Default 2 s.
    public var retryBaseSeconds: Double = 2
    /// Longest retry delay. Default 5 minutes.
    public var retryMaxSeconds: Double = 300
    /// How often an idle worker looks for work when nothing wakes it. Default 2 s.
    public var pollSeconds: Double = 2
    /// On shutdown, how long jobs in flight may take before they are released. Default 20 s.
    public var shutdownGraceSeconds: Double = 20

    public init() {}

    var effectiveHeartbeatSeconds: Double { heartbeatSeconds ?? leaseSeconds / 3 }
}
