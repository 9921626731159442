import Foundation

/// One attempt at one message, held under a lease.
///
/// The lease token is new for every claim. Heartbeats, completion, failure and release all
/// name it, so a worker whose lease expired and was taken over can no longer change the job.
public struct JobClaim: Sendable {
    public var messageID: String
    public var runID: String
    public var runTitle: String
    /// The marker as the upload parsed it.
    public var marker: StoredMarker
    public var sender: String?
    /// 1 for the first attempt; counted when the job was claimed.
    public var attempt: Int
    public var maxAttempts: Int
    public var leaseToken: String
    public var workerID: String
    /// The recording as uploaded.
    public var original: Data
}
