import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Who may create a run, and how often: a token bucket per client address (429 with
/// `Retry-After` when empty), or, when run creation is closed to the public, only a request
/// bearing the operator's admin token. Run creation is the one unauthenticated write, so
/// without this anyone could create runs as fast as the database takes them.
final class RunCreationGate: Sendable {
    let perMinute: Int
    let adminTokenHash: String?
    /// The clock, in seconds; tests move it.
    let now: @Sendable () -> Double
    private let buckets = NIOLockedValueBox([String: Bucket]())

    struct Bucket {
        var tokens: Double
        var updated: Double
    }

    /// Past this many tracked clients, full buckets are forgotten (they equal a new one).
    static let trackedClients = 10_000

    init(perMinute: Int, adminTokenHash: String?, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.perMinute = max(1, perMinute)
        self.adminTokenHash = adminTokenHash
        self.now = now
    }

    /// Returns when this request may create a run; throws 401/403 (closed) or 429 otherwise.
    func admit(_ context: VoicemsgRequestContext) throws {
        if let adminTokenHash {
            guard let credential = context.identity else {
                throw HTTPError(
                    .unauthorized, headers: [.wwwAuthenticate: "Bearer"],
                    message: "run creation on this server is closed to the public; it needs the admin token")
            }
            guard SecureIdentifier.constantTimeEquals(credential.tokenHash, adminTokenHash) else {
                throw HTTPError(.forbidden, message: "this token is not the admin token; run creation is closed to the public")
            }
            return
        }
        let client = context.remoteAddress?.ipAddress ?? "unknown"
        if let wait = take(client: client) {
            throw HTTPError(
                .tooManyRequests, headers: [.retryAfter: "\(Int(wait.rounded(.up)))"],
                message: "at most \(perMinute) runs a minute from one address; try again in \(Int(wait.rounded(.up))) s")
        }
    }

    /// Takes a token from `client`'s bucket: nil when there was one, else seconds until there is.
    func take(client: String) -> Double? {
        let capacity = Double(perMinute)
        let refillPerSecond = capacity / 60
        let time = now()
        return buckets.withLockedValue { buckets in
            if buckets.count > Self.trackedClients {
                buckets = buckets.filter { $0.value.tokens + (time - $0.value.updated) * refillPerSecond < capacity }
            }
            var bucket = buckets[client] ?? Bucket(tokens: capacity, updated: time)
            bucket.tokens = min(capacity, bucket.tokens + max(0, time - bucket.updated) * refillPerSecond)
            bucket.updated = time
            defer { buckets[client] = bucket }
            guard bucket.tokens >= 1 else { return max(1, (1 - bucket.tokens) / refillPerSecond) }
            bucket.tokens -= 1
            return nil
        }
    }
}
