import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// The web pages as the server sends them: the embedded copy of web/, the headers, and the
/// rules a strict Content-Security-Policy and a screen reader need the files to keep.
@Suite struct WebPagesTests {
    /// The repository's web/ folder, found from this file's path.
    static let webFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("web")

    static func webFiles() throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: webFolder.path)
            .filter { [".html", ".css", ".js", ".svg", ".wasm"].contains(where: $0.hasSuffix) }
        return try Dictionary(uniqueKeysWithValues: names.map {
            ($0, try Data(contentsOf: webFolder.appendingPathComponent($0)))
        })
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try #require(WebAssets.byName[name]).bytes, as: UTF8.self)
    }

    static func htmlNames() -> [String] { WebAssets.byName.keys.filter { $0.hasSuffix(".html") }.sorted() }

    let server: TestServer

    init() throws {
        server = try TestServer()
    }

    @Test func theEmbeddedFilesAreTheFilesInWeb() throws {
        let files = try Self.webFiles()
        #expect(!files.isEmpty, "no files in \(Self.webFolder.path)")
        #expect(Set(files.keys) == Set(WebAssets.byName.keys), "run scripts/embed-web.py")
        for (name, bytes) in files {
            #expect(WebAssets.byName[name]?.bytes == bytes, "\(name) differs from web/\(name): run scripts/embed-web.py")
        }
    }

    /// The runner's page must come back offline: the service worker keeps, when it installs,
    /// every module the page imports, followed from runner.js through each `from "./…"`.
    @Test func theServiceWorkerKeepsEveryModuleTheRunnersPageLoads() throws {
        var loaded: Set<String> = []
        var waiting = ["runner.js"]
        while let name = waiting.popLast() {
            guard loaded.insert(name).inserted else { continue }
            for line in try Self.text(name).split(separator: "\n") {
                guard let from = line.range(of: "from \"./") else { continue }
                let rest = line[from.upperBound...]
                if let end = rest.firstIndex(of: "\"") { waiting.append(String(rest[..<end])) }
            }
        }
        let worker = try Self.text("service-worker.js")
        let missing = loaded.filter { !worker.contains("\"/static/\($0)\"") }.sorted()
        #expect(loaded.count > 5, "the page's modules were not found: \(loaded.sorted())")
        #expect(missing.isEmpty, "service-worker.js does not keep \(missing), which the runner's page loads")
    }

    @Test(arguments: ["/r/", "/runs/"])
    func pagesComeWithTheirSecurityHeadersAndAnETag(prefix: String) async throws {
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: prefix + SecureIdentifier.makeID(), method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'self'"))
            #expect(policy.contains("script-src 'self'"))
            #expect(policy.contains("media-src 'self' blob:"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("'unsafe-eval'"))
            // The runner's page compiles the tracker's WebAssembly and follows the runner's
            // position; the recording page does neither, and only it may use the microphone.
            let permissions = try #require(response.headers[HTTPField.Name("Permissions-Policy")!])
            let runner = prefix == "/runs/"
            #expect(policy.contains("'wasm-unsafe-eval'") == runner)
            #expect(permissions.contains("geolocation=(self)") == runner)
            #expect(permissions.contains("microphone=(self)") == !runner)
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
            #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(response.headers[.cacheControl] == "no-cache")
            let etag = try #require(response.headers[.eTag])
            let html = String(buffer: response.body)
            #expect(html.hasPrefix("<!doctype html>"))

            let again = try await client.execute(
                uri: prefix + SecureIdentifier.makeID(), method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
        }
    }

    /// The plan page is the site's front door: it may neither record nor follow the position.
    @Test func thePlanPageIsServedAtTheRootWithNoPowers() async throws {
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            #expect(Data(buffer: response.body) == WebAssets.byName["plan.html"]?.bytes)
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self';") && !policy.contains("wasm"))
            #expect(response.headers[HTTPField.Name("Permissions-Policy")!] == "microphone=(), camera=(), geolocation=()")
        }
    }

    /// The tracker's WebAssembly is served as WebAssembly, which streaming compilation needs,
    /// and the service worker may control the runner's pages and nothing wider.
    @Test func theTrackerAndTheServiceWorkerComeWithWhatTheBrowserNeeds() async throws {
        try await server.app.test(.router) { client in
            let wasm = try await client.execute(uri: "/static/run-tracking.wasm", method: .get)
            #expect(wasm.status == .ok)
            #expect(wasm.headers[.contentType] == "application/wasm")
            #expect(Array(Data(buffer: wasm.body).prefix(4)) == [0, 0x61, 0x73, 0x6D])
            let worker = try await client.execute(uri: "/static/service-worker.js", method: .get)
            #expect(worker.status == .ok)
            #expect(worker.headers[HTTPField.Name("Service-Worker-Allowed")!] == "/runs/")
            let other = try await client.execute(uri: "/static/runner.js", method: .get)
            #expect(other.headers[HTTPField.Name("Service-Worker-Allowed")!] == nil)
        }
    }

    @Test func staticFilesHaveTheirTypesAndNothingElseIsServed() async throws {
        try await server.app.test(.router) { client in
            let expected = [
                "record.js": "text/javascript; charset=utf-8", "tokens.css": "text/css; charset=utf-8",
                "icon.svg": "image/svg+xml",
            ]
            for (name, type) in expected {
                let response = try await client.execute(uri: "/static/\(name)", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == type)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(Data(buffer: response.body) == WebAssets.byName[name]?.bytes)
            }
            for uri in ["/static/record.html", "/static/nothing.js", "/static/..%2Fweb%2Frecord.js", "/r/..%2F..", "/runs/a%20b"] {
                #expect(try await client.execute(uri: uri, method: .get).status == .notFound, "\(uri)")
            }
        }
    }

    /// A strict CSP blocks inline script, inline style and event-handler attributes, and
    /// `eval`; none of the files may rely on them.
    @Test func noFileNeedsWhatTheCSPForbids() throws {
        for name in Self.htmlNames() {
            let html = try Self.text(name)
            for tag in html.matches(of: /<script\b[^>]*>/) {
                #expect(tag.output.contains("src=\"/static/"), "\(name): inline script \(tag.output)")
            }
            #expect(!html.contains(/<style\b/), "\(name) has a <style> element")
            #expect(!html.contains(/\sstyle\s*=/), "\(name) has a style attribute")
            if let handler = html.firstMatch(of: /\son[a-z]+\s*=/) {
                Issue.record("\(name) has an event-handler attribute: \(handler.output)")
            }
            #expect(!html.contains(/(src|href)="(https?:)?\/\//), "\(name) loads from another origin")
            // Every file a page loads is one the server has.
            for reference in html.matches(of: /(?:src|href)="\/static\/([^"?#]+)"/) {
                #expect(WebAssets.byName[String(reference.output.1)] != nil, "\(name) loads a missing \(reference.output.1)")
            }
        }
        for name in WebAssets.byName.keys.filter({ $0.hasSuffix(".js") }) {
            let script = try Self.text(name)
            #expect(!script.contains(/\beval\s*\(|new\s+Function\s*\(/), "\(name) evaluates strings")
            #expect(!script.contains("innerHTML"), "\(name) writes HTML from strings")
            #expect(!script.contains("setAttribute(\"style\""), "\(name) writes a style attribute")
            for module in script.matches(of: /from\s+"\.\/([^"]+)"/) {
                #expect(WebAssets.byName[String(module.output.1)] != nil, "\(name) imports a missing \(module.output.1)")
            }
        }
    }

    /// Every control in the pages has a name a screen reader can say: a `<label for>`, a
    /// `<label>` around it, or an `aria-label`.
    @Test func everyControlHasALabel() throws {
        for name in Self.htmlNames() {
            let html = try Self.text(name)
            let labelled = Set(html.matches(of: /<label\b[^>]*\bfor="([^"]+)"/).map { String($0.output.1) })
            let wrappingLabels = html.matches(of: /<label\b[^>]*>[\s\S]*?<\/label>/).map(\.range)
            for control in html.matches(of: /<(input|select|textarea)\b[^>]*>/) {
                let tag = String(control.output.0)
                if tag.contains("aria-label=") || tag.contains("aria-labelledby=") { continue }
                if wrappingLabels.contains(where: { $0.contains(control.range.lowerBound) }) { continue }
                let id = tag.firstMatch(of: /\bid="([^"]+)"/).map { String($0.output.1) }
                #expect(id.map(labelled.contains) == true, "\(name): \(tag) has no label")
            }
            for button in html.matches(of: /<button\b[^>]*>([\s\S]*?)<\/button>/) {
                let inner = String(button.output.1).replacing(/<[^>]+>/, with: "").trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(!inner.isEmpty || button.output.0.contains("aria-label="), "\(name): a button with no name")
            }
            #expect(html.contains("aria-live=\"polite\""), "\(name) has no live region for status")
            #expect(html.contains("<html lang=\"en\">"))
            #expect(html.contains("name=\"viewport\""))
        }
    }
}
