import Foundation
import HTTPTypes
import Hummingbird

/// The recording page (`/r/{runID}#invite=…`), the runner's page (`/runs/{runID}#owner=…`) and
/// the files they load from `/static/`. The tokens stay in the fragment, which browsers never
/// send, so they reach neither this server's log nor a Referer header.
extension VoicemsgAPI {
    /// No inline script or style, nothing from another origin, recordings previewed from
    /// `blob:` URLs, and no framing.
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
        "media-src 'self' blob:", "connect-src 'self'", "object-src 'none'", "base-uri 'none'",
        "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func recordingPage(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        _ = try Self.pageRunID(context)
        return Self.serve(asset: "record.html", request)
    }

    func runnerPage(_ request: Request, _ context: VoicemsgRequestContext) throws -> Response {
        _ = try Self.pageRunID(context)
        return Self.serve(asset: "runner.html", request)
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
    static func serve(asset name: String, _ request: Request) -> Response {
        let asset = WebAssets.byName[name]!
        var headers: HTTPFields = [
            .eTag: asset.etag,
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("Permissions-Policy")!: "microphone=(self), camera=(), geolocation=()",
        ]
        if EntityTag.ifNoneMatch(request.headers[.ifNoneMatch], matches: asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        headers[.contentLength] = "\(asset.bytes.count)"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
