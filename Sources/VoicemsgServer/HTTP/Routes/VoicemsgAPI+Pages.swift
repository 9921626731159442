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
        try Self.serve(asset: "plan.html", request)
    }

    func recordingPage(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        _ = try Self.pageRunID(context)
        return try Self.serve(asset: "record.html", request, powers: .microphone)
    }

    func runnerPage(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        _ = try Self.pageRunID(context)
        return try Self.serve(asset: "runner.html", request, powers: .runTracking)
    }

    func staticFile(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        // Only the embedded names exist; a page is not a static file.
        guard let name = context.parameters.get("name"), WebAssets.byName[name] != nil, !name.hasSuffix(".html")
        else {
            throw HTTPError(.notFound, message: "no such file")
        }
        return try Self.serve(asset: name, request)
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
    ///
    /// The form sent is the one `Accept-Encoding` asks for (`ContentCoding.negotiate`): the
    /// file as it is, gzipped or in Brotli, each embedded once. Every answer says that it varies
    /// with that header, and the validators, `If-None-Match` and `If-Range` alike, are those of
    /// the form this request gets; a range counts bytes of that form, compressed or not.
    static func serve(asset name: String, _ request: Request, powers: PagePowers = []) throws -> Response {
        let asset = WebAssets.byName[name]!
        var headers: HTTPFields = [
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy(powers),
            .xContentTypeOptions: "nosniff",
            .vary: "Accept-Encoding",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("Permissions-Policy")!: permissionsPolicy(powers),
        ]
        // The runner's page keeps itself, its files and the run's messages for offline use
        // through this worker. Served from /static/, it may control the runner's pages and no
        // other: not the recording page, nor the plan page.
        if name == serviceWorkerName { headers[HTTPField.Name("Service-Worker-Allowed")!] = serviceWorkerScope }
        guard
            let coding = ContentCoding.negotiate(
                request.headers[.acceptEncoding], available: Array(asset.representations.keys))
        else {
            throw HTTPError(
                .notAcceptable, headers: headers,
                message: "Accept-Encoding refuses every form of \(name): it is sent as it is, gzip or br")
        }
        let form = asset.representations[coding]!
        headers[.eTag] = form.etag
        headers[.acceptRanges] = "bytes"
        if EntityTag.ifNoneMatch(request.headers[.ifNoneMatch], matches: form.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        if coding != .identity { headers[.contentEncoding] = coding.rawValue }
        return ByteRange.response(to: request, bytes: form.bytes, etag: form.etag, headers: headers)
    }
}

extension VoicemsgAPI {
    static let serviceWorkerName = "service-worker.js"
    static let serviceWorkerScope = "/runs/"
}
