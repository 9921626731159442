import Foundation

/// A file of the web pages, compiled into the binary so that the server needs no folder of
/// files beside it (see `scripts/embed-web.py`, which writes `WebAssets+Generated.swift` from
/// `web/`).
struct WebAsset: Sendable {
    let name: String
    let contentType: String
    let bytes: Data
    /// A strong validator: the first 128 bits of the SHA-256, quoted.
    let etag: String

    init(name: String, text: String) {
        self.name = name
        contentType = Self.contentType(of: name)
        bytes = Data(text.utf8)
        etag = "\"\(SecureIdentifier.hexSHA256(bytes).prefix(32))\""
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}

/// The embedded files by name, built once.
enum WebAssets {
    static let byName: [String: WebAsset] = Dictionary(
        uniqueKeysWithValues: sources.map { ($0.name, WebAsset(name: $0.name, text: $0.text)) })
}
