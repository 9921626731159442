import Foundation
import Testing

@testable import VoicemsgServer

/// The README's "413 past 25 MB", over real HTTP to the real server with its default limit: a
/// body of exactly 25 MiB is taken, one byte more is refused with a JSON reason, and the refused
/// one leaves no message and no spooled file.
@Suite struct UploadSizeLimitLiveTests {
    @Test func aBodyOneBytePast25MiBGets413AndLeavesNothing() async throws {
        try await TestServer().live { server in
            let run = try await server.createRun(title: "Big", planned: 10_000)
            let limit = 25 * 1024 * 1024
            func upload(bytes count: Int, marker: String) async throws -> HTTPAnswer {
                var body = Data("#!AMR\n".utf8)
                body.append(Data(count: count - body.count))
                return try await server.request(
                    "/v1/runs/\(run.id)/messages?marker=\(marker)", method: .post,
                    headers: bearer(run.inviteToken), body: body)
            }

            let atLimit = try await upload(bytes: limit, marker: "1km")
            #expect(atLimit.status == 202, "\(atLimit.status): \(atLimit.text)")
            let past = try await upload(bytes: limit + 1, marker: "2km")
            #expect(past.status == 413, "\(past.status): \(past.text)")
            #expect(past.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(past.text.contains("uploads are limited to 26214400 bytes"), "413 body: \(past.text)")

            let list = try await server.request("/v1/runs/\(run.id)/messages", headers: bearer(run.ownerToken))
            #expect(list.status == 200)
            let messages = (try JSONSerialization.jsonObject(with: list.body) as? [String: Any])?["messages"] as? [Any]
            #expect(messages?.count == 1, "only the upload at the limit is a message: \(list.text.prefix(300))")
            let spool = server.directory.file("data/uploads-in-progress")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
            #expect(left.isEmpty, "spooled files left behind: \(left)")
        }
    }
}
