import Foundation
import Testing

@testable import VoicemsgServer

/// `voicemsg serve` ends with status 0 on SIGTERM, with and without workers: an orchestrator
/// reads any other status as a crash.
@Suite struct ServeShutdownTests {
    @Test(arguments: [0, 1])
    func sigtermEndsServeWithStatusZero(workers: Int) async throws {
        let server = try await ServerProcess.start(workers: workers)
        defer { Task { await server.stop() } }
        #expect(try await server.request("/healthz").status == 200)
        server.process.send(SIGTERM)
        let status = try await server.process.waitForExit(seconds: 60)
        #expect(status == 0, "exit status \(String(describing: status)):\n\(server.process.log)")
    }
}
