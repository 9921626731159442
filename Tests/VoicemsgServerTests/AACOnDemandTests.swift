import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RunTracking
import Testing
import TestSupport

@testable import VoicemsgServer

/// A message stored with no AAC version (made before there were any, or whose worker could not
/// make it) gets one made once, from its Opus, the first time `?container=mp4` is asked for;
/// the work a request can start is bounded, and a failure leaves the Opus served as before.
@Suite struct AACOnDemandTests {
    /// A ready message of `seconds` of espeak-ng speech, its Ogg Opus made by the real pipeline,
    /// stored the way a worker from before AAC versions stored it: with no AAC.
    static func readyMessage(_ fixture: TestServer, _ client: some TestClientProtocol, text: String = "Keep going, you are doing great")
        async throws -> (id: String, owner: String, ogg: Data)
    {
        let speech = fixture.directory.file("speech.wav")
        try Tool.run("espeak-ng", ["-w", speech, text])
        let message = try MessagePipeline().process(.file(path: speech), metadata: MessageMetadata(marker: try DistanceMarker(parsing: "1km"), sender: "Ann"))
        let ogg = Data(try OggOpusWriter.write(message.stream))
        let created = try await client.execute(
            uri: "/v1/runs", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"title":"Old"}"#))
        let run = try json(CreateRunResponse.self, created)
        let upload = try await client.execute(
            uri: "/v1/runs/\(run.id)/messages?marker=1km&sender=Ann", method: .post, headers: bearer(run.inviteToken),
            body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000)))
        let id = try json(UploadResponse.self, upload).id
        let claim = try #require(try await fixture.store.claim(workerID: "old", leaseSeconds: 30))
        #expect(try await fixture.store.complete(claim, result: JobResult(audio: ogg, durationSeconds: message.durationSeconds)))
        return (id, run.ownerToken, ogg)
    }

    /// A stand-in for voicemsg-decode that counts its starts in `counter`, then does `then`.
    static func program(_ directory: TemporaryDirectory, counting counter: String, then: String) throws -> String {
        let path = directory.file("fake-voicemsg-decode")
        try "#!/bin/sh\necho run >> '\(counter)'\n\(then)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    static func starts(_ counter: String) -> Int {
        ((try? String(contentsOfFile: counter, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    @Test func anOlderMessageGetsItsAACMadeOnceWhenFirstAskedFor() async throws {
        let fixture = try TestServer()
        try await fixture.router { client, _ in
            let message = try await Self.readyMessage(fixture, client)
            #expect(try await fixture.store.audio.aac(messageID: message.id) == nil)
            let uri = "/v1/messages/\(message.id)/audio?container=mp4"
            let first = try await client.execute(uri: uri, method: .get, headers: bearer(message.owner))
            #expect(first.status == .ok, "\(String(buffer: first.body))")
            #expect(first.headers[.contentType] == "audio/mp4")
            let body = Data(buffer: first.body)
            let stored = try #require(try await fixture.store.audio.aac(messageID: message.id))
            #expect(stored.bytes == body && first.headers[.eTag] == "\"\(stored.sha256)\"")

            // ffprobe reads AAC-LC in MP4, with the Opus message's length and its tags.
            let path = fixture.directory.file("served.m4a")
            try body.write(to: URL(fileURLWithPath: path))
            let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries",
                "stream=codec_name,profile,channels:format=duration:format_tags=artist,DISTANCE_MARKER", "-of", "default=nw=1", path]).text
            #expect(probe.contains("codec_name=aac") && probe.contains("profile=LC") && probe.contains("channels=1"), "\(probe)")
            #expect(probe.contains("TAG:artist=Ann") && probe.contains("TAG:DISTANCE_MARKER=1000m"), "\(probe)")
            let opus = try OggOpusReader.read(message.ogg)
            let duration = try #require(probe.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) })
            #expect(abs(duration - opus.durationSeconds) < 0.001, "\(duration) s against the Opus's \(opus.durationSeconds) s")
            let measured = try ReferenceTools.ebur128(path)
            #expect(abs(measured.integrated + 16) <= 0.5 && measured.truePeak <= -1, "\(measured)")

            // Made once: the next request reads the stored file.
            let again = try await client.execute(uri: uri, method: .get, headers: bearer(message.owner))
            #expect(Data(buffer: again.body) == body && again.headers[.eTag] == first.headers[.eTag])
            var conditional = bearer(message.owner)
            conditional[.ifNoneMatch] = first.headers[.eTag]
            #expect(try await client.execute(uri: uri, method: .get, headers: conditional).status == .notModified)
            // The Opus is what it was.
            let ogg = try await client.execute(uri: "/v1/messages/\(message.id)/audio", method: .get, headers: bearer(message.owner))
            #expect(Data(buffer: ogg.body) == message.ogg)
        }
    }

    /// An encoder that dies: 503 with the reason and Retry-After, the Opus served as before, the
    /// message still ready, and no second attempt while the failure is fresh.
    @Test func aFailedAACSaysWhyAndLeavesTheOpus() async throws {
        let directory = try TemporaryDirectory()
        let counter = directory.file("starts")
        let program = try Self.program(directory, counting: counter, then: "kill -KILL $$")
        // The workers' AAC settings are the ones a request uses too.
        let fixture = try TestServer { $0.pipeline.aac?.isolation.executablePath = program }
        try await fixture.router { client, _ in
            let message = try await Self.readyMessage(fixture, client)
            let uri = "/v1/messages/\(message.id)/audio?container=mp4"
            let failed = try await client.execute(uri: uri, method: .get, headers: bearer(message.owner))
            #expect(failed.status == .serviceUnavailable)
            let said = try reason(failed)
            #expect(said.contains("could not be made") && said.contains("AAC encoder"), "\(said)")
            #expect(failed.headers[.retryAfter].flatMap(Int.init).map { $0 > 0 } == true)
            #expect(Self.starts(counter) == 1)

            let again = try await client.execute(uri: uri, method: .get, headers: bearer(message.owner))
            let againReason = try reason(again)
            #expect(again.status == .serviceUnavailable && againReason.contains("could not be made"), "\(againReason)")
            #expect(Self.starts(counter) == 1, "a fresh failure is not tried again")

            let ogg = try await client.execute(uri: "/v1/messages/\(message.id)/audio", method: .get, headers: bearer(message.owner))
            #expect(ogg.status == .ok && Data(buffer: ogg.body) == message.ogg)
            let webm = try await client.execute(uri: "/v1/messages/\(message.id)/audio?container=webm", method: .get, headers: bearer(message.owner))
            #expect(webm.status == .ok)
            #expect(try await fixture.store.message(id: message.id)?.status == .ready)
            #expect(try await fixture.store.audio.aac(messageID: message.id) == nil)
        }
    }

    /// At most one AAC is made at a time: while a slow one is being made, its own request waits
    /// no longer than the wait and another message's request starts nothing; both are 503 with
    /// Retry-After, and the work, once done, is stored.
    @Test func theWorkARequestStartsIsBounded() async throws {
        let fixture = try TestServer()
        let counter = fixture.directory.file("starts")
        let real = try Tool.built("voicemsg-decode")
        let slow = try Self.program(fixture.directory, counting: counter, then: "sleep 2\nexec '\(real)' \"$@\"")
        var configuration = AACEncoder.Configuration()
        configuration.isolation.executablePath = slow
        let versions = AACVersions(
            store: fixture.store, configuration: configuration, threads: UploadThreads(threads: 2), limit: 1, wait: .milliseconds(300))
        try await fixture.router { client, _ in
            let first = try await Self.readyMessage(fixture, client)
            let second = try await Self.readyMessage(fixture, client, text: "Nearly there")
            await #expect {
                _ = try await versions.aac(messageID: first.id)
            } throws: { error in
                (error as? HTTPError)?.status == .serviceUnavailable && (error as? HTTPError)?.body?.contains("is being made") == true
            }
            await #expect {
                _ = try await versions.aac(messageID: second.id)
            } throws: { error in
                (error as? HTTPError)?.status == .serviceUnavailable && (error as? HTTPError)?.body?.contains("1 AAC version at once") == true
            }
            // The first is made in the background, and then served from the store.
            var stored: StoredAAC?
            for _ in 0..<600 where stored == nil {
                stored = try await fixture.store.audio.aac(messageID: first.id)
                if stored == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let made = try #require(stored)
            #expect(try await versions.aac(messageID: first.id) == made)
            #expect(try await fixture.store.audio.aac(messageID: second.id) == nil)
        }
    }
}
