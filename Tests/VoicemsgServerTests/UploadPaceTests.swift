import Foundation
import Hummingbird
import NIOCore
import Testing
@testable import VoicemsgServer

/// The slowest body kept (`UploadSpooler.minimumBytesPerSecond`, mod_reqtimeout's MinRate): a
/// body that trickles is cut off with 408 and leaves no file; one at a steady pace is kept.
struct UploadPaceTests {
    /// A body of `chunks` pieces of `size` bytes, one every `interval`.
    static func body(chunks: Int, size: Int, interval: Duration) -> RequestBody {
        let stream = AsyncStream<ByteBuffer> { continuation in
            let task = Task {
                for _ in 0..<chunks {
                    continuation.yield(ByteBuffer(repeating: 0x52, count: size))
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return RequestBody(asyncSequence: stream)
    }

    /// 100 B/s after half a second. The bodies below are far from that pace either way, since
    /// a full test run can starve these tasks of their threads for seconds.
    static func spooler(_ directory: URL) -> UploadSpooler {
        var spooler = UploadSpooler(directory: directory, limit: 1 << 20)
        spooler.graceSeconds = 0.5
        spooler.minimumBytesPerSecond = 100
        return spooler
    }

    @Test func aTricklingBodyIsCutOffWith408AndLeavesNothing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // 2 bytes every 50 ms: 40 B/s, cut off near 0.8 s.
        let error = await #expect(throws: HTTPError.self) {
            _ = try await Self.spooler(directory).spool(Self.body(chunks: 80, size: 2, interval: .milliseconds(50)), declaredLength: 160)
        }
        #expect(error?.status.code == 408)
        #expect(error?.headers[.connection] == "close")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aBodyAtASteadyPaceIsKept() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // 2,000 bytes every 50 ms: 40,000 B/s for a second; each piece buys 20 s.
        let spooled = try await Self.spooler(directory).spool(
            Self.body(chunks: 20, size: 2000, interval: .milliseconds(50)), declaredLength: 40_000)
        #expect(spooled.length == 40_000)
    }
}
