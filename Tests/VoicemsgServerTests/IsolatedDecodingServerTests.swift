import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// Acceptance, uploads through the isolated decoder: a JPEG or an HTML page is refused with 415
/// and a reason at once; and a server whose decoder crashes on one upload fails that message
/// after one attempt with a reason, stays up, and processes the next upload.
@Suite(.serialized) struct IsolatedDecodingServerTests {

    @Test func nonAudioUploadsGet415WithAReason() async throws {
        let server = try TestServer()
        let webm = server.directory.file("chrome.webm")
        try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libopus", "-f", "webm", webm])
        let bodies: [(String, [UInt8], HTTPResponse.Status, String?)] = [
            ("JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 500), .unsupportedMediaType, "a JPEG image"),
            ("HTML", Array("<!DOCTYPE html>\n<html><head><title>Sign in</title></head></html>".utf8), .unsupportedMediaType, "an HTML page"),
            ("WebM", [UInt8](try Data(contentsOf: URL(fileURLWithPath: webm))), .accepted, nil),
        ]
        try await server.app.test(.router) { client in
            let (runRecord, _, invite) = try await makeRun(in: server.store)
            for (name, bytes, status, words) in bodies {
                let response = try await client.execute(
                    uri: "/v1/runs/\(runRecord.id)/messages?marker=5km", method: .post,
                    headers: bearer(invite), body: ByteBuffer(bytes: bytes))
                let text = String(buffer: response.body)
                print("\(name) upload: \(response.status.code) \(text)")
                #expect(response.status == status, "\(name): \(text)")
                if let words { #expect(text.contains(words), "\(name): \(text)") }
            }
            // Only the recording was queued.
            #expect(try await server.store.messages(runID: runRecord.id).count == 1)
        }
    }

    @Test func crashingDecoderFailsOneMessageAndTheWorkerGoesOn() async throws {
        let directory = try TemporaryDirectory()
        // The real decoder, behind a script that crashes it (SIGSEGV) on uploads marked CRASH.
        let real = try Tool.built("voicemsg-decode")
        let wrapper = directory.file("crashing-decoder")
        try """
            #!/bin/sh
            if /usr/bin/head -c 64 | /usr/bin/grep -q CRASH; then kill -SEGV $$; fi
            exec "\(real)" "$@" < /proc/self/fd/0
            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let speech = directory.file("speech.wav")
        try Tool.run("espeak-ng", ["-w", speech, "Halfway there, keep going"])

        try await TestServer(workers: 1) {
            $0.pipeline.isolation.executablePath = wrapper
            $0.queue.retryBaseDelay = .milliseconds(200)
        }.live { server in
            let runInfo = try await server.createRun(title: "Crash test", planned: 10000)
            let auth = bearer(runInfo.inviteToken)
            func upload(_ file: String) async throws -> String {
                let answer = try await server.upload("/v1/runs/\(runInfo.id)/messages?marker=5km", file: file, headers: auth)
                return try JSONDecoder().decode(UploadResponse.self, from: answer.body).id
            }
            func settled(_ id: String) async throws -> MessageResponse {
                let deadline = Date().addingTimeInterval(90)
                while true {
                    let answer = try await server.request("/v1/messages/\(id)", headers: auth)
                    let status = try JSONDecoder().decode(MessageResponse.self, from: answer.body)
                    if status.status == .ready || status.status == .failed || Date() > deadline { return status }
                    try await Task.sleep(for: .milliseconds(200))
                }
            }

            // An AMR header passes the upload check; the marker inside makes the decoder crash.
            let crashing = directory.file("crash.amr")
            try Data(Array("#!AMR\nCRASH".utf8) + [UInt8](repeating: 0x3C, count: 2000)).write(to: URL(fileURLWithPath: crashing))
            let failed = try await settled(try await upload(crashing))
            print("crashing upload: \(failed.status), attempts \(failed.attempts): \(failed.error ?? "")")
            #expect(failed.status == .failed)
            #expect(failed.attempts == 1, "a crash on a file is the file's fault: no retry")
            #expect(failed.error?.contains("crashed") == true, "\(failed.error ?? "no reason")")
            #expect(try await server.request("/healthz").status == 200, "the server died with its decoder:\n\(server.log)")

            let good = try await settled(try await upload(speech))
            #expect(good.status == .ready, "\(good.error ?? "")\n\(server.log)")
            #expect(try await server.request("/healthz").status == 200)
        }
    }
}
