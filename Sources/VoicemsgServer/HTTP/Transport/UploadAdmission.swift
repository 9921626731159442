import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Decides whether an upload may start, before its body is read, so that no limit can be
/// passed by sending bytes: the queue's depth (503), each token's upload rate (429) and each
/// run's number of messages (409). Refusals are JSON errors, with `Retry-After` where waiting
/// helps.
final class UploadAdmission: Sendable {
    struct Limits: Sendable {
        /// Queued and processing messages (all runs) past which uploads get 503.
        var maxQueueDepth: Int
        /// Uploads each bearer token may start per minute, as a bucket that refills evenly.
        var uploadsPerMinutePerToken: Int
        /// Messages a run may hold, whatever their state.
        var maxMessagesPerRun: Int
    }

    /// How long a client should wait when the queue is full: roughly a few jobs' time.
    static let queueFullRetrySeconds = 10

    let limits: Limits
    /// Per token hash: tokens left and when they were last counted.
    private let buckets = NIOLockedValueBox<[String: (tokens: Double, at: Date)]>([:])

    init(limits: Limits) {
        self.limits = limits
    }

    /// Throws the refusal (an `UploadRefusal`), or returns when the upload may go ahead (taking
    /// one rate token).
    func admit(runID: String, tokenHash: String, store: Store) async throws {
        let depth = try await store.records.statusCounts()
            .filter { $0.key == .queued || $0.key == .processing }.values.reduce(0, +)
        if depth >= limits.maxQueueDepth {
            throw UploadRefusal(error: HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "\(Self.queueFullRetrySeconds)"],
                message: "the processing queue is full (\(depth) messages waiting); try again later"))
        }
        let count = try await store.records.messages(runID: runID).count
        if count >= limits.maxMessagesPerRun {
            throw UploadRefusal(error: HTTPError(
                .conflict,
                message: "run \(runID) already has \(count) messages, the most a run may hold; delete some first"))
        }
        if let wait = take(tokenHash: tokenHash, now: Date()) {
            throw UploadRefusal(error: HTTPError(
                .tooManyRequests, headers: [.retryAfter: "\(Int(wait.rounded(.up)))"],
                message: "this token may start \(limits.uploadsPerMinutePerToken) uploads a minute; try again in \(Int(wait.rounded(.up))) s"))
        }
    }

    /// Takes a token from the bucket of `tokenHash`; nil when taken, else seconds until one is.
    func take(tokenHash: String, now: Date) -> Double? {
        let capacity = Double(limits.uploadsPerMinutePerToken)
        let perSecond = capacity / 60
        return buckets.withLockedValue { buckets in
            var bucket = buckets[tokenHash] ?? (capacity, now)
            bucket.tokens = min(capacity, bucket.tokens + now.timeIntervalSince(bucket.at) * perSecond)
            bucket.at = now
            defer {
                buckets[tokenHash] = bucket
                // A bucket untouched for a minute is full again, so it carries no information;
                // dropping those keeps the table small.
                if buckets.count > 10_000 { buckets = buckets.filter { now.timeIntervalSince($0.value.at) < 60 } }
            }
            guard bucket.tokens >= 1 else { return max(1, (1 - bucket.tokens) / perSecond) }
            bucket.tokens -= 1
            return nil
        }
    }
}

/// An upload refused before its body was read (all upload slots taken, the queue or the run
/// full, the token past its rate): `error` is the answer, given once the body has been read on,
/// so that a client that sends it all before reading still reads the answer.
struct UploadRefusal: Error {
    let error: HTTPError
}
