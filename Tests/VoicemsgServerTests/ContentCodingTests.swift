import Testing

@testable import VoicemsgServer

/// `Accept-Encoding` as RFC 9110 §12.5.3 reads it, against the three forms every web file is
/// embedded in.
struct ContentCodingTests {
    @Test(arguments: [
        // Nothing said: the file as it is.
        (nil, ContentCoding.identity),
        ("", .identity),
        // What browsers send: Brotli over https, gzip over http.
        ("gzip, deflate, br, zstd", .brotli),
        ("gzip, deflate", .gzip),
        ("GZIP", .gzip),
        ("x-gzip", .gzip),
        ("deflate, zstd", .identity),
        // Weights: the highest acceptable wins; equal weights take the smaller form.
        ("gzip;q=0.5", .gzip),
        ("gzip;q=0.5, br;q=0.8", .brotli),
        ("br;q=0.2, gzip;q=0.9", .gzip),
        ("gzip;q=0.5, identity", .identity),
        ("gzip; q=1.0, identity; q=0.5, *;q=0", .gzip),
        ("*", .brotli),
        ("*;q=0.5, gzip", .gzip),
        // q=0 refuses: the coding named, or every coding not named.
        ("gzip;q=0", .identity),
        ("br;q=0, gzip;q=0", .identity),
        ("br;q=0, *", .gzip),
        ("gzip, identity;q=0", .gzip),
        ("*;q=0, identity", .identity),
        ("*;q=0, br;q=0.1", .brotli),
        // Elements that are not a coding with a qvalue are passed over.
        ("gzip;q=2, br;q=abc", .identity),
        ("gzip;q=.5", .identity),
        ("gzip;q=0.0001", .identity),
        (",, gzip ,", .gzip),
        ("gzip;level=9", .gzip),
    ] as [(String?, ContentCoding)])
    func theHeaderPicksTheForm(header: String?, expected: ContentCoding) {
        #expect(ContentCoding.negotiate(header) == expected, "\(header ?? "no header")")
    }

    /// Identity refused, and nothing else acceptable: no form can be sent (406).
    @Test(arguments: ["identity;q=0", "*;q=0", "deflate, identity;q=0", "gzip;q=0, br;q=0, identity;q=0"])
    func nothingAcceptableIsNil(header: String) {
        #expect(ContentCoding.negotiate(header) == nil, "\(header)")
    }

    /// Only the forms a file has are chosen among.
    @Test func onlyAvailableFormsAreChosen() {
        #expect(ContentCoding.negotiate("br, gzip", available: [.gzip, .identity]) == .gzip)
        #expect(ContentCoding.negotiate("br", available: [.gzip, .identity]) == .identity)
        #expect(ContentCoding.negotiate("br, identity;q=0", available: [.gzip, .identity]) == nil)
    }
}
