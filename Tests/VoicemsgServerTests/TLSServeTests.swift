import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// `voicemsg serve --tls-cert --tls-key`: a real server with a self-signed certificate made by
/// openssl serves the recording page over HTTPS that curl verifies against that certificate;
/// wrong files stop it before it starts, with one line naming the option and the file.
@Suite(.serialized) struct TLSServeTests {
    /// A self-signed certificate for 127.0.0.1 and its key, as the README tells a user to make
    /// (with an EC key, which openssl makes in a moment even on a busy machine).
    static func makeCertificate(in directory: TemporaryDirectory, name: String) throws -> (cert: String, key: String) {
        let cert = directory.file("\(name).pem")
        let key = directory.file("\(name)-key.pem")
        try Tool.run(
            "openssl",
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
             "-subj", "/CN=voicemsg test", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        return (cert, key)
    }

    func curl(_ arguments: [String]) throws -> ProcessOutcome {
        try Tool.run("curl", ["--silent", "--show-error", "--max-time", "20"] + arguments, check: false, timeout: 30)
    }

    @Test func servesTheRecordingPageOverHTTPS() async throws {
        let directory = try TemporaryDirectory()
        let (cert, key) = try Self.makeCertificate(in: directory, name: "server")
        let started = try await ServerProcess.start(["--tls-cert", cert, "--tls-key", key], in: directory)
        let server = started.process
        defer { Task { await server.stop() } }
        let port = started.port
        #expect(server.log.contains("listening on https://127.0.0.1:\(port)"), "\(server.log)")
        let base = "https://127.0.0.1:\(port)"

        // curl trusts only this certificate: the handshake proves the server presents it.
        let created = try curl(["--fail", "--cacert", cert, "-X", "POST", "-H", "Content-Type: application/json",
                                "--data", #"{"title":"Phone test","plannedDistanceMeters":10000}"#, "\(base)/v1/runs"])
        try #require(created.status == 0, "\(created.standardError)\n\(server.log)")
        let run = try JSONDecoder().decode(CreateRunResponse.self, from: created.standardOutput)
        let page = try curl(["--fail", "--cacert", cert, "-D", "-", "\(base)/r/\(run.id)"])
        #expect(page.status == 0, "\(page.standardError)")
        #expect(page.text.hasPrefix("HTTP/1.1 200"), "\(page.text.prefix(300))")
        #expect(page.text.contains("<html") && page.text.contains("record.js"), "\(page.text.prefix(600))")
        let info = try curl(["--fail", "--cacert", cert, "-H", "Authorization: Bearer \(run.inviteToken)",
                             "\(base)/v1/runs/\(run.id)"])
        #expect(info.status == 0 && info.text.contains(#""title":"Phone test""#), "\(info.text) \(info.standardError)")

        // Another certificate is not trusted for it, and plain HTTP gets no answer.
        let (other, _) = try Self.makeCertificate(in: directory, name: "other")
        let untrusted = try curl(["--cacert", other, "\(base)/healthz"])
        #expect(untrusted.status == 60, "curl with the wrong CA: \(untrusted.status) \(untrusted.standardError)")
        let plain = try curl(["http://127.0.0.1:\(port)/healthz"])
        #expect(plain.status != 0 && !plain.text.contains("ok"), "plain HTTP answered: \(plain.text)")
        #expect(server.isRunning, "\(server.log)")
    }

    /// What a user gets wrong, and the one line each gets: (what, arguments, words).
    static let mistakes: [(String, @Sendable (String, String, String) -> [String], String)] = [
        ("missing certificate", { _, key, dir in ["--tls-cert", dir + "/nope.pem", "--tls-key", key] },
         "--tls-cert DIR/nope.pem: no such file"),
        ("missing key", { cert, _, dir in ["--tls-cert", cert, "--tls-key", dir + "/nope-key.pem"] },
         "--tls-key DIR/nope-key.pem: no such file"),
        ("key given as the certificate", { _, key, _ in ["--tls-cert", key, "--tls-key", key] },
         "--tls-cert KEY: not a PEM certificate"),
        ("certificate given as the key", { cert, _, _ in ["--tls-cert", cert, "--tls-key", cert] },
         "--tls-key CERT: not a PEM private key"),
        ("a folder", { _, key, dir in ["--tls-cert", dir, "--tls-key", key] }, "--tls-cert DIR: is a folder"),
        ("mismatched key", { cert, _, dir in ["--tls-cert", cert, "--tls-key", dir + "/other-key.pem"] },
         "--tls-key DIR/other-key.pem does not belong to the certificate in --tls-cert CERT"),
        ("certificate without key", { cert, _, _ in ["--tls-cert", cert] }, "HTTPS needs both --tls-cert and --tls-key"),
    ]

    @Test(arguments: 0..<mistakes.count)
    func badCertificateFilesStopTheServerWithOneLine(_ index: Int) throws {
        let (what, arguments, words) = Self.mistakes[index]
        let directory = try TemporaryDirectory()
        let (cert, key) = try Self.makeCertificate(in: directory, name: "server")
        _ = try Self.makeCertificate(in: directory, name: "other")
        let outcome = try Tool.run(
            try Tool.built("voicemsg-server"),
            ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", directory.file("data"), "--workers", "0"]
                + arguments(cert, key, directory.path),
            check: false, timeout: 120)
        let expected = words.replacingOccurrences(of: "DIR", with: directory.path)
            .replacingOccurrences(of: "CERT", with: cert).replacingOccurrences(of: "KEY", with: key)
        #expect(!outcome.timedOut, "\(what): the server started instead of refusing")
        #expect(outcome.status != 0, "\(what): exit status 0")
        #expect(outcome.standardError.contains(expected), "\(what): \(outcome.standardError)")
        // One line, before any log: the store was never opened.
        let lines = outcome.errorLines.filter { !$0.hasPrefix("Usage:") && !$0.contains("--help' for more") }
        #expect(lines.count == 1, "\(what): \(outcome.errorLines)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("data/voicemsg.sqlite")), "\(what)")
    }
}
