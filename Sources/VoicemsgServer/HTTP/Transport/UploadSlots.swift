import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Bounds how many uploads are spooled, hashed and stored at once; past it an upload gets 503
/// with `Retry-After` before its body is read (Hummingbird then reads and discards the body, so a
/// client that sends it all before reading still reads the answer).
///
/// Each upload in progress holds memory (its batch, NIO's buffers, its task) and a file; a
/// bound keeps a flood of them within a known memory and descriptor budget, and a client told
/// to come back in a second loses little. A low bound does not lighten the load: the refused
/// bodies must still be read (for the answer to reach clients that send before they read), so
/// it concentrates the work rather than removing it (docs/operations.md, "Load and faults").
final class UploadSlots: Sendable {
    let limit: Int
    private let taken = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Runs `upload` in a slot, or throws 503 when all are taken.
    func withSlot<T>(_ upload: () async throws -> T) async throws -> T {
        let admitted = taken.withLockedValue { taken in
            guard taken < limit else { return false }
            taken += 1
            return true
        }
        guard admitted else {
            throw UploadRefusal(
                error: HTTPError(
                    .serviceUnavailable, headers: [.retryAfter: "\(Self.retrySeconds)"],
                    message: "the server is taking \(limit) uploads at once, its most; try again in \(Self.retrySeconds) s"))
        }
        defer { taken.withLockedValue { $0 -= 1 } }
        return try await upload()
    }

    static let retrySeconds = 1
}
