import Foundation
import Hummingbird

/// A file of the web pages, compiled into the binary so that the server needs no folder of
/// files beside it (see `scripts/embed-web.py`, which writes `WebAssets+Generated.swift` from
/// `web/`), in three forms: as it is, gzipped and in Brotli, compressed once by that script so
/// that no request spends CPU on it.
///
/// Neither of the packages' own ways fits. SwiftPM's `.embedInCode` writes every byte as an
/// element of an array literal, which the compiler checks one by one: with the tracker's
/// WebAssembly, each change of web/ would be slow to build and a debug binary would grow many
/// times the size of the files; a base64 string literal compiles at once.
/// Hummingbird's `FileMiddleware` reads files through a `FileProvider` from a folder, which a
/// copied binary does not have, and the pages need headers of their own at routes that are not
/// file paths. The validators are `EntityTag`'s, which compares tags weakly as RFC 9110 says;
/// Hummingbird's `ifNoneMatch` compares them exactly, so a `W/` tag would never match.
struct WebAsset: Sendable {
    /// One form of the file (a representation, in RFC 9110's words) with its own validator.
    struct Representation: Sendable {
        let coding: ContentCoding
        let bytes: Data
        /// A strong validator: the first 128 bits of these bytes' SHA-256, quoted. Each form
        /// has its own, as a strong validator must (RFC 9110 §8.8.1), and the file as it is
        /// keeps the tag it had before it had other forms.
        let etag: String

        init(_ coding: ContentCoding, bytes: Data) {
            self.coding = coding
            self.bytes = bytes
            etag = "\"\(SecureIdentifier.hexSHA256(bytes).prefix(32))\""
        }
    }

    let name: String
    let contentType: String
    let representations: [ContentCoding: Representation]

    init(name: String, bytes: Data, gzip: Data, brotli: Data) {
        self.name = name
        contentType = Self.contentType(of: name)
        representations = [
            .identity: Representation(.identity, bytes: bytes), .gzip: Representation(.gzip, bytes: gzip),
            .brotli: Representation(.brotli, bytes: brotli),
        ]
    }

    /// The file as it is in `web/`.
    var bytes: Data { representations[.identity]!.bytes }

    /// Hummingbird's type for the file's extension; text in web/ is UTF-8, which the type says
    /// so that the browser does not guess.
    static func contentType(of name: String) -> String {
        let fileExtension = name.split(separator: ".").last.map(String.init) ?? ""
        guard let type = MediaType.getMediaType(forExtension: fileExtension) else { return "application/octet-stream" }
        return (type.type == .text ? type.withParameter(name: "charset", value: "utf-8") : type).description
    }
}

/// The embedded files by name, decoded once.
enum WebAssets {
    static let byName: [String: WebAsset] = Dictionary(
        uniqueKeysWithValues: sources.map { source in
            // scripts/embed-web.py wrote this base64 itself; WebPagesTests compares the decoded
            // bytes with web/, and the live tests each compressed form decoded by curl, so a
            // bad literal fails there before it ships.
            func decoded(_ base64: String) -> Data {
                guard let bytes = Data(base64Encoded: base64) else {
                    fatalError("WebAssets+Generated.swift: \(source.name) is not valid base64; run scripts/embed-web.py")
                }
                return bytes
            }
            let asset = WebAsset(
                name: source.name, bytes: decoded(source.base64), gzip: decoded(source.gzip),
                brotli: decoded(source.brotli))
            return (source.name, asset)
        })
}
