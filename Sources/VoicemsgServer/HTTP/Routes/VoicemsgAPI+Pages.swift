import Foundation
import HTTPTypes
import Hummingbird

/// The plan-a-run page (`/`), the recording page (`/r/{runID}#invite=…`), the runner's page
/// (`/runs/{runID}#owner=…`) and the files they load from `/static/`. The tokens stay in the
/// fragment, which browsers never send, so they reach neither this server's log nor a Referer
/// header.
extension VoicemsgAPI {
    /// What a page may do beyond what every page may: each is allowed on the one page that
    /// needs it, and nowhere else.
    struct PagePowers: OptionSet, Sendable {
        let rawValue: Int
        /// Record from the microphone (the recording page).
        static let microphone = PagePowers(rawValue: 1 << 0)
        /// Follow the runner's position and compile the tracker's WebAssembly (the runner's page).
        static let runTracking = PagePowers(rawValue: 1 << 1)
    }

    /// No inline script or style, nothing from another origin, recordings played from `blob:`
    /// URLs, and no framing. The runner's page may also compile WebAssembly, which a script
    /// source of `'self'` alone refuses; it still evaluates no JavaScript from strings.
    static func contentSecurityPolicy(_ powers: PagePowers) -> String {
        [
            "default-src 'self'", powers.contains(.runTracking) ? "script-src 'self' 'wasm-unsafe-eval'" : "script-src 'self'",
            "style-src 'self'", "img-src 'self'", "media-src 'self' blob:", "connect-src 'self'", "object-src 'none'",
            "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    static func permissionsPolicy(_ powers: PagePowers) -> String {
        "microphone=\(powers.contains(.microphone) ? "(self)" : "()"), camera=(), "
            + "geolocation=\(powers.contains(.runTracking) ? "(self)" : "()")"
    }

    func planPage(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        Self.serve(asset: "plan.html", request)
    }

    func recordingPage(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        _ = try Self.pageRunID(context)
        return Self.serve(asset: "record.html", request, powers: .microphone)
    }

    func runnerPage(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        _ = try Self.pageRunID(context)
        return Self.serve(asset: "runner.html", request, powers: .runTracking)
    }

    func staticFile(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        // Only the embedded names exist; a page is not a static file.
        guard let name = context.parameters.get("name"), WebAssets.byName[name] != nil, !name.hasSuffix(".html")
        else {
            throw HTTPError(.notFound, message: "no such file")
        }
        return Self.serve(asset: name, request)
    }

    /// A page for a run id that could exist; anything path-like is 404 before a page is sent.
    static func pageRunID(_ context: VoicemsgRequestContext) throws -> String {
        guard let id = context.parameters.get("runID"), SecureIdentifier.isValid(id) else {
            throw HTTPError(.notFound, message: "no such page")
        }
        return id
    }

    /// The file with its ETag; browsers revalidate each time (`no-cache`) and get 304 while
    /// the binary is the same, so a new release is never hidden behind a stale copy.
    static func serve(asset name: String, _ request: Request, powers: PagePowers = []) -> Response {
        let asset = WebAssets.byName[name]!
        var headers: HTTPFields = [
            .eTag: asset.etag,
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy(powers),
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("Permissions-Policy")!: permissionsPolicy(powers),
        ]
        // The runner's page keeps itself, its files and the run's messages for offline use
        // through this worker. Served from /static/, it may control the runner's pages and no
        // other: not the recording page, nor the plan page.
        if name == serviceWorkerName { headers[HTTPField.Name("Service-Worker-Allowed")!] = serviceWorkerScope }
        if EntityTag.ifNoneMatch(request.headers[.ifNoneMatch], matches: asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        headers[.contentLength] = "\(asset.bytes.count)"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}

extension VoicemsgAPI {
    static let serviceWorkerName = "service-worker.js"
    static let serviceWorkerScope = "/runs/"
}
