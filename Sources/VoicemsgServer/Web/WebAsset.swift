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

    init(name: String, bytes: Data) {
        self.name = name
        contentType = Self.contentType(of: name)
        self.bytes = bytes
        etag = "\"\(SecureIdentifier.hexSHA256(bytes).prefix(32))\""
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        case "wasm": "application/wasm"
        default: "application/octet-stream"
        }
    }
}

/// The embedded files by name, decoded once.
enum WebAssets {
    static let byName: [String: WebAsset] = Dictionary(
        uniqueKeysWithValues: sources.map { source in
            // scripts/embed-web.py wrote this base64 itself; WebPagesTests compares the decoded
            // bytes with web/, so a bad literal fails there before it ships.
            guard let bytes = Data(base64Encoded: source.base64) else {
                fatalError("WebAssets+Generated.swift: \(source.name) is not valid base64; run scripts/embed-web.py")
            }
            return (source.name, WebAsset(name: source.name, bytes: bytes))
        })
}
