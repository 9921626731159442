import Foundation
import Hummingbird
import NIOCore
import Testing
import TestSupport
@testable import VoicemsgServer

/// The slowest body kept (`UploadSpooler.minimumBytesPerSecond`, mod_reqtimeout's MinRate): a
/// body that trickles is cut off with 408 and leaves no file; one at a steady pace is kept.
/// The pace is judged by a clock that ticks as each piece arrives, so a loaded test run, which
/// starved these tasks for minutes, cannot change the verdict.
struct UploadPaceTests {
    /// A body of `chunks` pieces of `size` bytes; the clock moves on by `interval` as each one
    /// is handed over.
    static func body(chunks: Int, size: Int, interval: Duration, clock: Locked<Duration>) -> RequestBody {
        let stream = AsyncStream<ByteBuffer> { continuation in
            for _ in 0..<chunks {
                continuation.yield(ByteBuffer(repeating: 0x52, count: size))
            }
            continuation.finish()
        }
        let ticking = stream.map { piece -> ByteBuffer in
            clock.withLock { $0 += interval }
            return piece
        }
        return RequestBody(asyncSequence: ticking)
    }

    /// 100 B/s after half a second, on the pieces' clock.
    static func spooler(_ directory: URL, clock: Locked<Duration>) -> UploadSpooler {
        var spooler = UploadSpooler(directory: directory, limit: 1 << 20, threads: UploadThreads())
        spooler.graceSeconds = 0.5
        spooler.minimumBytesPerSecond = 100
        spooler.timeSince = { _ in clock.withLock { $0 } }
        return spooler
    }

    @Test func aTricklingBodyIsCutOffWith408AndLeavesNothing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // 2 bytes every 50 ms: 40 B/s, behind 100 B/s once 0.5 s + 0.4 t < t, near 0.85 s.
        let clock = Locked(Duration.zero)
        let error = await #expect(throws: HTTPError.self) {
            _ = try await Self.spooler(directory, clock: clock).spool(
                Self.body(chunks: 80, size: 2, interval: .milliseconds(50), clock: clock), declaredLength: 160)
        }
        #expect(error?.status.code == 408)
        #expect(error?.headers[.connection] == "close")
        let cutAt = clock.withLock { $0 }
        #expect(cutAt > .milliseconds(800) && cutAt < .milliseconds(950), "cut off at \(cutAt)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aBodyAtASteadyPaceIsKept() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // 110 bytes every second: just above 100 B/s for 30 s, long past the grace.
        let clock = Locked(Duration.zero)
        let spooled = try await Self.spooler(directory, clock: clock).spool(
            Self.body(chunks: 30, size: 110, interval: .seconds(1), clock: clock), declaredLength: 3300)
        #expect(spooled.length == 3300)
    }
}
