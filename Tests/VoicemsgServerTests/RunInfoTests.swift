import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// The read-only endpoints the web pages use: the run, a marker resolved as the upload would
/// resolve it, and every message of the run.
@Suite struct RunInfoTests {
    let server: TestServer
    let store: Store

    init() throws {
        server = try TestServer { $0.api.maxUploadBytes = 64 * 1024 }
        store = server.store
    }

    func upload(_ client: some TestClientProtocol, run: CreateRunResponse, marker: String, sender: String = "Ann")
        async throws -> TestResponse
    {
        let query = "marker=\(marker.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&sender=\(sender)"
        return try await client.execute(
            uri: "/v1/runs/\(run.id)/messages?\(query)", method: .post, headers: bearer(run.inviteToken),
            body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 100)))
    }

    /// The plan page sends the runner's name with the run; friends see it, and a blank name
    /// is no name. A name is held to the same rules as a title.
    @Test func theRunnersNameIsKeptAndShownToFriends() async throws {
        try await server.app.test(.router) { client in
            func create(_ body: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/v1/runs", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
            }
            let named = try json(
                CreateRunResponse.self, try await create(#"{"title":"Sunday long run","plannedDistanceMeters":15000,"runnerName":"Sam"}"#))
            let info = try await client.execute(uri: "/v1/runs/\(named.id)", method: .get, headers: bearer(named.inviteToken))
            #expect(try json(RunInfoResponse.self, info).runnerName == "Sam")

            let blank = try json(CreateRunResponse.self, try await create(#"{"title":"Run","runnerName":""}"#))
            let blankInfo = try await client.execute(uri: "/v1/runs/\(blank.id)", method: .get, headers: bearer(blank.ownerToken))
            #expect(try json(RunInfoResponse.self, blankInfo).runnerName == nil)

            let refused = try await create(#"{"title":"Run","runnerName":"Sam\u0007"}"#)
            #expect(refused.status == .badRequest)
            #expect(try reason(refused).contains("runnerName"))
        }
    }

    @Test func runInfoShowsTheRunPresetsAndLimitsToInviteAndOwner() async throws {
        try await server.app.test(.router) { client in
            let run = try await client.createRun(planned: 21_097)
            let path = "/v1/runs/\(run.id)"
            for token in [run.inviteToken, run.ownerToken] {
                let response = try await client.execute(uri: path, method: .get, headers: bearer(token))
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "private, no-store")
                let info = try json(RunInfoResponse.self, response)
                #expect(info.id == run.id)
                #expect(info.title == "Run")
                #expect(info.plannedDistanceMeters == 21_097)
                #expect(info.presets.map(\.marker) == ["1km", "5km", "halfway", "finish-1km", "finish"])
                #expect(info.presets.map(\.canonical) == ["1000m", "5000m", "50%", "finish-1000m", "finish"])
                #expect(info.presets.map(\.meters) == [1000, 5000, 10_548.5, 20_097, 21_097])
                #expect(info.limits.maxBytes == 64 * 1024)
                #expect(info.limits.maxSeconds == InputLimits.default.maximumDurationSeconds)
            }
            #expect(try await client.execute(uri: path, method: .get).status == .unauthorized)
            #expect(try await client.execute(uri: path, method: .get, headers: bearer("wrong")).status == .forbidden)
            let other = try await client.createRun(planned: 5000)
            #expect(try await client.execute(uri: path, method: .get, headers: bearer(other.inviteToken)).status == .forbidden)
        }
    }

    @Test func presetsAreOnlyThoseThatLieOnTheRun() {
        // Without a planned distance only absolute markers resolve; on a 3 km run, 5 km lies
        // past the finish.
        #expect(VoicemsgAPI.presets(plannedDistance: nil).map(\.marker) == ["1km", "5km"])
        #expect(VoicemsgAPI.presets(plannedDistance: 3000).map(\.marker) == ["1km", "halfway", "finish-1km", "finish"])
        #expect(VoicemsgAPI.presets(plannedDistance: 800).map(\.marker) == ["halfway", "finish"])
    }

    /// Every marker gets the same verdict from resolve as from the upload, and a refusal has
    /// the upload's very words.
    @Test(arguments: [
        (21_097.0, "halfway"), (21_097, "finish-1km"), (21_097, "30 km"), (21_097, "75%"), (21_097, "5xx"),
        (21_097, "150%"), (21_097, "finish+1km"), (21_097, "-5km"), (21_097, ""), (21_097, "finish-30km"),
        (0, "halfway"), (0, "3km"),
    ])
    func resolveGivesTheUploadsVerdict(planned: Double, marker: String) async throws {
        try await server.app.test(.router) { client in
            let run = try await client.createRun(planned: planned > 0 ? planned : nil)
            let encoded = marker.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let resolved = try await client.execute(
                uri: "/v1/runs/\(run.id)/markers/resolve?marker=\(encoded)", method: .get,
                headers: bearer(run.inviteToken))
            let uploaded = try await upload(client, run: run, marker: marker)
            if uploaded.status == .accepted {
                #expect(resolved.status == .ok, "\(marker): the upload took it, resolve refused it")
                let resolution = try json(MarkerResolution.self, resolved)
                let id = try json(UploadResponse.self, uploaded).id
                let stored = try #require(try await store.message(id: id))
                #expect(resolution.canonical == stored.marker)
                #expect(resolution.meters == stored.markerMeters)
            } else {
                #expect(uploaded.status == .badRequest)
                #expect(resolved.status == .badRequest, "\(marker): the upload refused it, resolve took it")
                #expect(try reason(resolved) == reason(uploaded))
            }
        }
    }

    @Test func resolveWithoutAMarkerAnswersAsTheUploadDoes() async throws {
        try await server.app.test(.router) { client in
            let run = try await client.createRun(planned: 10_000)
            let resolved = try await client.execute(
                uri: "/v1/runs/\(run.id)/markers/resolve", method: .get, headers: bearer(run.inviteToken))
            let uploaded = try await client.execute(
                uri: "/v1/runs/\(run.id)/messages", method: .post, headers: bearer(run.inviteToken),
                body: ByteBuffer(bytes: [1, 2, 3]))
            #expect(resolved.status == .badRequest)
            #expect(try reason(resolved) == reason(uploaded))
            #expect(
                try await client.execute(uri: "/v1/runs/\(run.id)/markers/resolve?marker=5km", method: .get).status
                    == .unauthorized)
        }
    }

    @Test func runMessagesListsEveryStateInMarkerOrderForTheOwnerOnly() async throws {
        try await server.app.test(.router) { client in
            let run = try await client.createRun(planned: 21_097)
            for marker in ["finish", "5km", "halfway", "1km"] {
                try #require(try await upload(client, run: run, marker: marker).status == .accepted)
            }
            // One ready, one failed, two still queued.
            let first = try #require(try await store.claim(workerID: "t", leaseSeconds: 30))
            _ = try await store.complete(first, result: JobResult(audio: Data([1, 2, 3]), durationSeconds: 2))
            let second = try #require(try await store.claim(workerID: "t", leaseSeconds: 30))
            _ = try await store.fail(second, error: "upload: no speech found", retryAfterSeconds: nil)

            let path = "/v1/runs/\(run.id)/messages"
            #expect(try await client.execute(uri: path, method: .get).status == .unauthorized)
            #expect(try await client.execute(uri: path, method: .get, headers: bearer(run.inviteToken)).status == .forbidden)
            let response = try await client.execute(uri: path, method: .get, headers: bearer(run.ownerToken))
            #expect(response.status == .ok)
            let list = try json(RunMessagesResponse.self, response).messages
            #expect(list.map(\.marker) == ["1000m", "5000m", "50%", "finish"])
            #expect(list.map(\.markerMeters) == list.map(\.markerMeters).sorted())
            #expect(Set(list.map(\.status)) == [.ready, .failed, .queued])
            #expect(list.first { $0.status == .failed }?.error == "upload: no speech found")
            #expect(list.first { $0.status == .ready }?.durationSeconds == 2)

            // Unchanged: 304 for the ETag; changed: a new ETag.
            let etag = try #require(response.headers[.eTag])
            var headers = bearer(run.ownerToken)
            headers[.ifNoneMatch] = etag
            #expect(try await client.execute(uri: path, method: .get, headers: headers).status == .notModified)
            try #require(try await upload(client, run: run, marker: "2km").status == .accepted)
            let changed = try await client.execute(uri: path, method: .get, headers: headers)
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
            #expect(try json(RunMessagesResponse.self, changed).messages.count == 5)
        }
    }
}
