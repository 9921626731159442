import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

extension APITests {
    /// A real Ogg Opus message served in each container `?container=` names: its media type,
    /// an ETag of its own (the stored file's SHA-256, with the container as a suffix for the
    /// rewraps; the AAC version's own SHA-256), the same bytes on every request, so that
    /// `If-None-Match` and Range hold.
    @Test func audioComesInEveryContainerWithItsOwnETagAndRange() async throws {
        let file = server.directory.file("tone.opus")
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1.5",
                                "-c:a", "libopus", "-b:a", "24k", file])
        let ogg = try Data(contentsOf: URL(fileURLWithPath: file))
        let stream = try OggOpusReader.read(ogg)
        let m4aFile = server.directory.file("tone.m4a")
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", file, "-c:a", "aac", "-b:a", "32k", m4aFile])
        let m4a = try Data(contentsOf: URL(fileURLWithPath: m4aFile))
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            let uploaded = try json(UploadResponse.self, try await upload(client, run: run.id, token: run.inviteToken))
            while let claim = try await store.claim(workerID: "test", leaseSeconds: 30) {
                _ = try await store.complete(claim, result: JobResult(audio: ogg, durationSeconds: stream.durationSeconds, aac: m4a))
            }
            let path = "/v1/messages/\(uploaded.id)/audio"
            let sha256 = SecureIdentifier.hexSHA256(ogg)
            let expected: [(query: String, type: String, etag: String, body: Data)] = [
                ("", "audio/ogg", "\"\(sha256)\"", ogg),
                ("?container=ogg", "audio/ogg", "\"\(sha256)\"", ogg),
                ("?container=caf", "audio/x-caf", "\"\(sha256)-caf\"", Data(try CAFOpusWriter.write(stream))),
                ("?container=webm", "audio/webm", "\"\(sha256)-webm\"", Data(try WebMOpusWriter.write(stream))),
                ("?container=mp4", "audio/mp4", "\"\(SecureIdentifier.hexSHA256(m4a))\"", m4a),
            ]
            for container in expected {
                let uri = path + container.query
                let whole = try await client.execute(uri: uri, method: .get, headers: bearer(run.ownerToken))
                #expect(whole.status == .ok, "\(uri)")
                #expect(whole.headers[.contentType] == container.type)
                #expect(whole.headers[.eTag] == container.etag)
                let body = Data(buffer: whole.body)
                #expect(body == container.body, "\(uri)")
                let again = try await client.execute(uri: uri, method: .get, headers: bearer(run.ownerToken))
                #expect(Data(buffer: again.body) == body, "\(uri) changed between two requests")

                var headers = bearer(run.ownerToken)
                headers[.ifNoneMatch] = container.etag
                #expect(try await client.execute(uri: uri, method: .get, headers: headers).status == .notModified)

                headers = bearer(run.ownerToken)
                headers[.range] = "bytes=100-199"
                let part = try await client.execute(uri: uri, method: .get, headers: headers)
                #expect(part.status == .partialContent)
                #expect(part.headers[.contentRange] == "bytes 100-199/\(body.count)")
                #expect(Data(buffer: part.body) == body.subdata(in: 100..<200))
                // A Range whose If-Range names another container's version gets the whole body.
                headers[.ifRange] = container.etag == "\"\(sha256)\"" ? "\"\(sha256)-webm\"" : "\"\(sha256)\""
                let mismatched = try await client.execute(uri: uri, method: .get, headers: headers)
                #expect(mismatched.status == .ok && Data(buffer: mismatched.body) == body)
            }

            for name in ["m4a", "MP4", "aac", ""] {
                let unknown = try await client.execute(uri: path + "?container=\(name)", method: .get, headers: bearer(run.ownerToken))
                #expect(unknown.status == .badRequest, "\(name)")
                #expect(try reason(unknown) == "container must be ogg, caf, webm or mp4", "\(name)")
            }
        }
    }
}
