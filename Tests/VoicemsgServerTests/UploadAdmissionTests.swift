import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// Each admission limit refuses the upload past it, with a JSON error and (where waiting helps)
/// `Retry-After`, and stores nothing for it.
@Suite struct UploadAdmissionTests {
    static func upload(_ client: some TestClientProtocol, run: String, token: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/runs/\(run)/messages?marker=1km", method: .post,
            headers: bearer(token), body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000)))
    }

    @Test func fullQueueGets503WithRetryAfter() async throws {
        try await TestServer { $0.api.maxQueueDepth = 2 }.router { client, store in
            let run = try await client.createRun(title: "Limits", planned: nil)
            #expect(try await Self.upload(client, run: run.id, token: run.inviteToken).status == .accepted)
            #expect(try await Self.upload(client, run: run.id, token: run.inviteToken).status == .accepted)
            let refused = try await Self.upload(client, run: run.id, token: run.inviteToken)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter].flatMap(Int.init) ?? 0 > 0)
            #expect(try reason(refused).contains("queue is full"))
            #expect(try await store.messages(runID: run.id).count == 2)
            // A processed job leaves the queue, so uploads are admitted again.
            let claim = try #require(try await store.claim(workerID: "t", leaseSeconds: 30))
            _ = try await store.complete(claim, result: JobResult(audio: Data([1, 2, 3]), durationSeconds: 1))
            #expect(try await Self.upload(client, run: run.id, token: run.inviteToken).status == .accepted)
        }
    }

    @Test func tokenPastItsRateGets429WithRetryAfter() async throws {
        try await TestServer { $0.api.uploadsPerMinutePerToken = 3 }.router { client, store in
            let run = try await client.createRun(title: "Limits", planned: nil)
            for _ in 0..<3 {
                #expect(try await Self.upload(client, run: run.id, token: run.inviteToken).status == .accepted)
            }
            let refused = try await Self.upload(client, run: run.id, token: run.inviteToken)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter].flatMap(Int.init) ?? 0 > 0)
            #expect(try reason(refused).contains("3 uploads a minute"))
            // The limit is per token: the owner's token still has its own.
            #expect(try await Self.upload(client, run: run.id, token: run.ownerToken).status == .accepted)
            #expect(try await store.messages(runID: run.id).count == 4)
        }
    }

    @Test func runPastItsMessageLimitGets409() async throws {
        try await TestServer { $0.api.maxMessagesPerRun = 2 }.router { client, store in
            let run = try await client.createRun(title: "Limits", planned: nil)
            #expect(try await Self.upload(client, run: run.id, token: run.inviteToken).status == .accepted)
            #expect(try await Self.upload(client, run: run.id, token: run.inviteToken).status == .accepted)
            let refused = try await Self.upload(client, run: run.id, token: run.inviteToken)
            #expect(refused.status == .conflict)
            #expect(try reason(refused).contains("the most a run may hold"))
            // Another run has its own count.
            let other = try await client.createRun(title: "Limits", planned: nil)
            #expect(try await Self.upload(client, run: other.id, token: other.inviteToken).status == .accepted)
            #expect(try await store.messages(runID: run.id).count == 2)
        }
    }

    @Test func rateBucketRefillsOverTime() {
        let admission = UploadAdmission(limits: .init(maxQueueDepth: 10, uploadsPerMinutePerToken: 2, maxMessagesPerRun: 10))
        let start = Date(timeIntervalSince1970: 1_000_000)
        #expect(admission.take(tokenHash: "a", now: start) == nil)
        #expect(admission.take(tokenHash: "a", now: start) == nil)
        let wait = try? #require(admission.take(tokenHash: "a", now: start))
        #expect(wait == 30, "2 a minute refill one every 30 s")
        #expect(admission.take(tokenHash: "a", now: start.addingTimeInterval(30)) == nil)
    }
}
