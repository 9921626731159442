/// How workers hold, retry and give up on jobs. Tests shorten the times; the defaults suit a
/// pipeline that takes well under a second per message.
public struct QueueConfiguration: Sendable {
    /// How long a claim stays valid without a heartbeat. Default 30 s.
    public var lease: Duration = .seconds(30)
    /// How often a busy worker extends its lease. Default: a third of the lease.
    public var heartbeatInterval: Duration? = nil
    /// First retry delay; each later retry doubles it, with jitter. Default 2 s.
    public var retryBaseDelay: Duration = .seconds(2)
    /// Longest retry delay. Default 5 minutes.
    public var retryMaxDelay: Duration = .seconds(300)
    /// How often an idle worker looks for work when nothing wakes it. Default 2 s.
    public var pollInterval: Duration = .seconds(2)
    /// On shutdown, how long jobs in flight may take before they are released. Default 20 s.
    public var shutdownGrace: Duration = .seconds(20)

    /// The shortest lease a server accepts: a busy worker renews its lease every third of it,
    /// and below this a renewal delayed by a slow database or a busy machine can let a live
    /// worker's job be taken over. (Tests of lease expiry use shorter ones on purpose.)
    public static let shortestLease: Duration = .seconds(10)

    public init() {}

    var effectiveHeartbeatInterval: Duration { heartbeatInterval ?? lease / 3 }
}
