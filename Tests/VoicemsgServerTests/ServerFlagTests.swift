import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// Flag checks of the server's timing options: `serve` refuses them before it listens, with a
/// non-zero exit status and one line naming the problem.
@Suite struct ServerFlagTests {
    @Test func leaseTooShortToHeartbeatIsRefusedInOneLine() async throws {
        try await Self.expectRefused(["--lease-seconds", "3"], saying: "--lease-seconds must be at least 10")
    }

    /// `serve` given `flags` exits non-zero before it listens, naming the problem in its log.
    static func expectRefused(_ flags: [String], saying reason: String) async throws {
        let directory = try TemporaryDirectory()
        let server = try await ChildProcess.start(
            try Tool.built("voicemsg"),
            arguments: ["serve", "--port", "0", "--data-dir", directory.file("data")] + flags,
            logPath: directory.file("server.log"))
        defer { Task { await server.stop() } }
        let status = try await server.waitForExit(seconds: 30)
        #expect(status != nil && status != 0)
        #expect(server.log.contains(reason))
        #expect(!server.log.contains("listening on"))
    }
}
