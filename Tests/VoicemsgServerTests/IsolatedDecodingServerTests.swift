import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// Acceptance, uploads through the isolated decoder: a JPEG or an HTML page is refused with 415
/// and a reason at once; and a real `voicemsg serve` whose decoder crashes on one upload fails
/// that message after one attempt with a reason, stays up, and processes the next upload.
@Suite(.serialized) struct IsolatedDecodingServerTests {
    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    @Test func nonAudioUploadsGet415WithAReason() async throws {
        let directory = try TemporaryDirectory()
        let store = try StoreLocation.sqlite(dataDirectory: directory.file("data")).open(logger: testLogger)
        try await store.migrate()
        let (runRecord, _, invite) = try await makeRun(in: store)
        let app = Application(
            router: VoicemsgAPI(store: store, metrics: ServerMetrics()).makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let webm = directory.file("chrome.webm")
        try #require(run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libopus", "-f", "webm", webm]).status == 0)
        let bodies: [(String, [UInt8], HTTPResponse.Status, String?)] = [
            ("JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 500), .unsupportedMediaType, "a JPEG image"),
            ("HTML", Array("<!DOCTYPE html>\n<html><head><title>Sign in</title></head></html>".utf8), .unsupportedMediaType, "an HTML page"),
            ("WebM", [UInt8](try Data(contentsOf: URL(fileURLWithPath: webm))), .accepted, nil),
        ]
        try await app.test(.router) { client in
            for (name, bytes, status, words) in bodies {
                let response = try await client.execute(
                    uri: "/v1/runs/\(runRecord.id)/messages?marker=5km", method: .post,
                    headers: Self.bearer(invite), body: ByteBuffer(bytes: bytes))
                let text = String(buffer: response.body)
                print("\(name) upload: \(response.status.code) \(text)")
                #expect(response.status == status, "\(name): \(text)")
                if let words { #expect(text.contains(words), "\(name): \(text)") }
            }
        }
        // Only the recording was queued.
        #expect(try await store.messages(runID: runRecord.id).count == 1)
    }

    @Test func crashingDecoderFailsOneMessageAndTheWorkerGoesOn() async throws {
        let directory = try TemporaryDirectory()
        // The real decoder, behind a script that crashes it (SIGSEGV) on uploads marked CRASH.
        let real = try builtExecutable("voicemsg-decode")
        let wrapper = directory.file("crashing-decoder")
        try """
            #!/bin/sh
            if /usr/bin/head -c 64 | /usr/bin/grep -q CRASH; then kill -SEGV $$; fi
            exec "\(real)" "$@" < /proc/self/fd/0
            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let speech = directory.file("speech.wav")
        try #require(run("espeak-ng", ["-w", speech, "Halfway there, keep going"]).status == 0)

        let server = try ChildProcess(
            executable: "voicemsg-server",
            arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", directory.file("data"),
                        "--workers", "1", "--poll-seconds", "0.2", "--retry-base-seconds", "0.2"],
            environment: ["VOICEMSG_DECODE": wrapper], logPath: directory.file("server.log"))
        defer { Task { await server.stop() } }
        let base = "http://127.0.0.1:\(try await server.waitForPort())"

        let created = try curl(["-X", "POST", "-H", "Content-Type: application/json",
                                "--data", #"{"title":"Crash test","plannedDistanceMeters":10000}"#, "\(base)/v1/runs"])
        let runInfo = try JSONDecoder().decode(CreateRunResponse.self, from: created)
        let auth = "Authorization: Bearer \(runInfo.inviteToken)"
        func upload(_ file: String) throws -> String {
            let body = try curl(["-X", "POST", "-H", auth, "--data-binary", "@\(file)", "\(base)/v1/runs/\(runInfo.id)/messages?marker=5km"])
            return try JSONDecoder().decode(UploadResponse.self, from: body).id
        }
        func settled(_ id: String) async throws -> MessageResponse {
            let deadline = Date().addingTimeInterval(90)
            while true {
                let status = try JSONDecoder().decode(MessageResponse.self, from: try curl(["-H", auth, "\(base)/v1/messages/\(id)"]))
                if status.status == .ready || status.status == .failed || Date() > deadline { return status }
                try await Task.sleep(for: .milliseconds(200))
            }
        }

        // An AMR header passes the upload check; the marker inside makes the decoder crash.
        let crashing = directory.file("crash.amr")
        try Data(Array("#!AMR\nCRASH".utf8) + [UInt8](repeating: 0x3C, count: 2000)).write(to: URL(fileURLWithPath: crashing))
        let failed = try await settled(try upload(crashing))
        print("crashing upload: \(failed.status), attempts \(failed.attempts): \(failed.error ?? "")")
        #expect(failed.status == .failed)
        #expect(failed.attempts == 1, "a crash on a file is the file's fault: no retry")
        #expect(failed.error?.contains("crashed") == true, "\(failed.error ?? "no reason")")
        #expect(server.isRunning, "the server died with its decoder:\n\(server.log)")

        let good = try await settled(try upload(speech))
        #expect(good.status == .ready, "\(good.error ?? "")\n\(server.log)")
        #expect(server.isRunning)
    }

    /// curl's response body; throws unless the request succeeds.
    func curl(_ arguments: [String]) throws -> Data {
        let outcome = try ExternalProcess.tool("curl", ["--silent", "--show-error", "--fail"] + arguments, check: false, timeout: 60)
        guard outcome.status == 0 else { throw TestFailure("curl \(arguments) failed: \(outcome.standardError)") }
        return outcome.standardOutput
    }
}
