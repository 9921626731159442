import Foundation
import HTTPTypes
import Testing
import TestSupport

@testable import VoicemsgServer

/// The pages and their files in the form `Accept-Encoding` asks for, over real HTTP: curl, an
/// independent client with its own gzip and Brotli decoders, gets back every file of web/ byte
/// for byte from each compressed form, and the raw answers show the negotiation, the
/// validators, ranges on a compressed body and 304s as RFC 9110 has them (docs/api.md,
/// "Compression").
@Suite struct CompressedStaticFilesLiveTests {
    /// What curl received: the status, the header fields (names lower-case), the body as
    /// curl wrote it (decoded when `decode`), and the bytes that crossed the wire.
    struct Fetched {
        var status: Int
        var headers: [String: String]
        var body: Data
        var wireBytes: Int
    }

    /// GET (or another `method`) of `path` by curl; with `decode`, curl decodes what the
    /// server compressed. curl is waited for on a thread of its own: the server runs in this
    /// process, and a blocking wait on one of the few cooperative threads would starve it.
    static func curl(
        _ server: TestServer.Live, _ path: String, headers: [String] = [], decode: Bool = false, method: String = "GET"
    ) async throws -> Fetched {
        let port = server.port
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    try fetch(port: port, path, headers: headers, decode: decode, method: method)
                })
            }.start()
        }
    }

    private static func fetch(port: Int, _ path: String, headers: [String], decode: Bool, method: String) throws -> Fetched {
        let directory = try TemporaryDirectory()
        var arguments = ["--silent", "--show-error", "--max-time", "30", "-D", directory.file("head"),
                         "-o", directory.file("body"), "-w", "%{http_code} %{size_download}"]
        arguments += method == "HEAD" ? ["--head"] : ["-X", method]
        if decode { arguments.append("--compressed") }
        for header in headers { arguments += ["-H", header] }
        let outcome = try Tool.run("curl", arguments + ["http://localhost:\(port)\(path)"], check: false)
        try #require(outcome.status == 0, "curl \(path): \(outcome.standardError)")
        let figures = outcome.text.split(separator: " ").compactMap { Int($0) }
        try #require(figures.count == 2, "curl \(path): \(outcome.text)")
        var fields: [String: String] = [:]
        for line in try String(contentsOfFile: directory.file("head"), encoding: .utf8).split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = (try? Data(contentsOf: URL(fileURLWithPath: directory.file("body")))) ?? Data()
        return Fetched(status: figures[0], headers: fields, body: body, wireBytes: figures[1])
    }

    /// Every file of web/, gzipped and in Brotli: curl decodes each to the file itself, the form
    /// on the wire is smaller than the file, and the answer says what it is and that it varies.
    @Test func curlDecodesEveryCompressedFileToTheFileInWeb() async throws {
        let files = try WebPagesTests.webFiles()
        try await TestServer().live { server in
            for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
                let path = name.hasSuffix(".html") ? Self.pagePath(name) : "/static/\(name)"
                for coding in ["gzip", "br"] {
                    let fetched = try await Self.curl(server, path, headers: ["Accept-Encoding: \(coding)"], decode: true)
                    #expect(fetched.status == 200, "\(name) \(coding)")
                    #expect(fetched.headers["content-encoding"] == coding, "\(name) \(coding)")
                    #expect(fetched.headers["vary"] == "Accept-Encoding", "\(name) \(coding)")
                    #expect(fetched.body == bytes, "\(name): curl's \(coding) decoding differs from web/\(name)")
                    #expect(fetched.wireBytes < bytes.count, "\(name) \(coding): \(fetched.wireBytes) bytes for \(bytes.count)")
                }
            }
        }
    }

    /// The tracker's WebAssembly, the largest file, under 80 KB on the wire when the client
    /// asks for gzip; printed for docs/operations.md.
    @Test func theTrackerIsUnderEightyKilobytesGzipped() async throws {
        let file = try #require(try WebPagesTests.webFiles()["run-tracking.wasm"])
        try await TestServer().live { server in
            var sizes: [String] = []
            for coding in ["identity", "gzip", "br"] {
                let fetched = try await Self.curl(server, "/static/run-tracking.wasm", headers: ["Accept-Encoding: \(coding)"])
                sizes.append("\(coding) \(fetched.wireBytes) bytes")
                if coding == "gzip" { #expect(fetched.wireBytes < 80_000, "\(fetched.wireBytes) bytes gzipped") }
                if coding == "identity" { #expect(fetched.body == file && fetched.headers["content-encoding"] == nil) }
            }
            print("run-tracking.wasm on the wire: " + sizes.joined(separator: ", "))
        }
    }

    /// The header's rules: nothing asked, nothing compressed; q=0 refuses; identity refused
    /// with nothing else acceptable is 406.
    @Test func theHeaderChoosesTheForm() async throws {
        let file = try #require(try WebPagesTests.webFiles()["app.css"])
        try await TestServer().live { server in
            let cases: [(header: String?, coding: String?)] = [
                (nil, nil), ("gzip;q=0", nil), ("gzip, br;q=0", "gzip"), ("br;q=0.5, gzip", "gzip"),
                ("*;q=0, identity", nil), ("deflate, zstd", nil), ("*", "br"), ("gzip;q=0.5, identity", nil),
            ]
            for (header, coding) in cases {
                let fetched = try await Self.curl(server, "/static/app.css", headers: header.map { ["Accept-Encoding: \($0)"] } ?? [])
                #expect(fetched.status == 200, "\(header ?? "no header")")
                #expect(fetched.headers["content-encoding"] == coding, "\(header ?? "no header")")
                #expect(fetched.headers["vary"] == "Accept-Encoding", "\(header ?? "no header")")
                if coding == nil { #expect(fetched.body == file, "\(header ?? "no header")") }
            }
            for header in ["identity;q=0", "*;q=0"] {
                let refused = try await Self.curl(server, "/static/app.css", headers: ["Accept-Encoding: \(header)"])
                #expect(refused.status == 406, "\(header): \(refused.status)")
                #expect(String(decoding: refused.body, as: UTF8.self).contains("Accept-Encoding"), "\(header)")
            }
        }
    }

    /// Each form has its own ETag: the file as it is keeps its tag, a gzip answer's tag gets
    /// 304 for gzip again (weakly compared too) and the whole file for a request that gets
    /// another form. HEAD gives the form's length.
    @Test func eachFormRevalidatesWithItsOwnTag() async throws {
        let file = try #require(try WebPagesTests.webFiles()["common.js"])
        try await TestServer().live { server in
            let plain = try await server.request("/static/common.js")
            let gzipped = try await server.request("/static/common.js", headers: [.acceptEncoding: "gzip"])
            let plainTag = try #require(plain.headers["etag"])
            let gzipTag = try #require(gzipped.headers["etag"])
            #expect(plainTag == "\"\(SecureIdentifier.hexSHA256(file).prefix(32))\"")
            #expect(gzipTag == "\"\(SecureIdentifier.hexSHA256(gzipped.body).prefix(32))\"" && gzipTag != plainTag)

            for tag in [gzipTag, "W/" + gzipTag, "\"other\", " + gzipTag] {
                let again = try await server.request(
                    "/static/common.js", headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
                #expect(again.status == 304 && again.body.isEmpty, "\(tag): \(again.status)")
                #expect(again.headers["etag"] == gzipTag && again.headers["vary"] == "Accept-Encoding")
            }
            let otherForm = try await server.request("/static/common.js", headers: [.ifNoneMatch: gzipTag])
            #expect(otherForm.status == 200 && otherForm.body == file && otherForm.headers["etag"] == plainTag)
            let brotli = try await server.request(
                "/static/common.js", headers: [.acceptEncoding: "br", .ifNoneMatch: plainTag])
            #expect(brotli.status == 200 && brotli.headers["content-encoding"] == "br")

            let head = try await Self.curl(server, "/static/common.js", headers: ["Accept-Encoding: gzip"], method: "HEAD")
            #expect(head.status == 200 && head.headers["content-length"] == "\(gzipped.body.count)")
            #expect(head.headers["content-encoding"] == "gzip" && head.headers["etag"] == gzipTag)
        }
    }

    /// A range counts bytes of the form chosen: two ranges of the gzip form put together are
    /// the whole gzip body, which curl decodes to the file; If-Range with another form's tag
    /// gets the whole body; past the end is 416.
    @Test func rangesCountBytesOfTheChosenForm() async throws {
        let file = try #require(try WebPagesTests.webFiles()["run-tracking.wasm"])
        try await TestServer().live { server in
            let whole = try await server.request("/static/run-tracking.wasm", headers: [.acceptEncoding: "gzip"])
            let tag = try #require(whole.headers["etag"])
            #expect(whole.headers["accept-ranges"] == "bytes")
            let length = whole.body.count

            let head = try await server.request(
                "/static/run-tracking.wasm", headers: [.acceptEncoding: "gzip", .range: "bytes=0-999"])
            #expect(head.status == 206 && head.headers["content-range"] == "bytes 0-999/\(length)")
            #expect(head.headers["content-encoding"] == "gzip" && head.headers["etag"] == tag)
            let rest = try await server.request(
                "/static/run-tracking.wasm", headers: [.acceptEncoding: "gzip", .range: "bytes=1000-", .ifRange: tag])
            #expect(rest.status == 206 && rest.headers["content-range"] == "bytes 1000-\(length - 1)/\(length)")
            #expect(head.body + rest.body == whole.body)

            // The two parts, put together, are a gzip stream of the file.
            let directory = try TemporaryDirectory()
            try (head.body + rest.body).write(to: URL(fileURLWithPath: directory.file("joined.gz")))
            let gunzipped = try Tool.run("gzip", ["-dc", directory.file("joined.gz")])
            #expect(gunzipped.standardOutput == file)

            let stale = try await server.request(
                "/static/run-tracking.wasm",
                headers: [.acceptEncoding: "gzip", .range: "bytes=0-9", .ifRange: "\"\(SecureIdentifier.hexSHA256(file).prefix(32))\""])
            #expect(stale.status == 200 && stale.body == whole.body)
            let plain = try await server.request("/static/run-tracking.wasm", headers: [.range: "bytes=-16"])
            #expect(plain.status == 206 && plain.body == file.suffix(16) && plain.headers["content-encoding"] == nil)
            let past = try await server.request(
                "/static/run-tracking.wasm", headers: [.acceptEncoding: "gzip", .range: "bytes=\(length)-"])
            #expect(past.status == 416 && past.headers["content-range"] == "bytes */\(length)")
            #expect(past.headers["vary"] == "Accept-Encoding")
        }
    }

    static func pagePath(_ name: String) -> String {
        switch name {
        case "plan.html": "/"
        case "record.html": "/r/\(SecureIdentifier.makeID())"
        default: "/runs/\(SecureIdentifier.makeID())"
        }
    }
}
