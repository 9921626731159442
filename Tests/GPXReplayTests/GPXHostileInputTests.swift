import Foundation
import Testing
@testable import GPXReplay

/// Files made to hurt a parser, and real files cut short or with bytes flipped: each ends in a
/// one-line error (or, for harmless flips, a track), never a crash, a hang or unbounded memory.
/// The time limits only stop a runaway run; no test asserts a timing.
struct GPXHostileInputTests {
    static func error(_ text: String, name: String = "test.gpx") throws -> GPXError {
        try #require(throws: GPXError.self) { try GPXReader.read(data: Data(text.utf8), name: name) }
    }

    /// Ten entities, each ten of the one before: 10^9 "lol"s, 3 GB, from under 1 KB.
    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE gpx [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>&lol9;</name><trkseg>
        <trkpt lat="1" lon="2"/></trkseg></trk></gpx>
        """

    @Test(.timeLimit(.minutes(1)))
    func billionLaughsIsRefusedAtTheFirstEntity() throws {
        let error = try Self.error(Self.billionLaughs)
        #expect(error.code == .malformed)
        // Line 3 is the first declaration: nothing was expanded, or even declared.
        #expect(error.description == """
            test.gpx: line 3: the DOCTYPE declares the entity 'lol'; GPX needs no entities and they can expand a small file without bound ("billion laughs"), so the file is refused
            """)
    }

    @Test(arguments: [
        // (DOCTYPE, the entity named in the error)
        ("<!DOCTYPE gpx [\n<!ENTITY % pe \"<!ENTITY x 'y'>\"> %pe; ]>", "'%pe'"),
        ("<!DOCTYPE gpx [\n<!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]>", "'xxe'"),
        ("<!DOCTYPE gpx [\n<!ENTITY big \"\(String(repeating: "x", count: 100_000))\"> ]>", "'big'"),
    ])
    func everyEntityDeclarationIsRefused(doctype: String, name: String) throws {
        let text = doctype + "\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        let error = try Self.error(text)
        #expect(error.description.hasPrefix("test.gpx: line 2: the DOCTYPE declares the entity \(name); "), "\(error)")
    }

    /// 100,000 elements, one in the other, each on its own line: refused on the line of the first
    /// one too deep, so the rest of the file is never read.
    @Test(.timeLimit(.minutes(1)))
    func deepNestingIsRefusedWhereItPassesTheLimit() throws {
        let depth = 100_000
        let text = "<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
            + String(repeating: "\n<extensions>", count: depth) + String(repeating: "</extensions>", count: depth) + "</gpx>"
        let error = try Self.error(text)
        let limit = ExpatParser.maximumDepth
        #expect(limit == 256)
        #expect(error.description == """
            test.gpx: line \(limit + 1): elements are nested more than \(limit) deep (a GPX file needs about 8); the file is refused
            """)
        // The same nesting on one line.
        let flat = try Self.error(text.replacingOccurrences(of: "\n", with: ""))
        #expect(flat.description.hasPrefix("test.gpx: line 1: elements are nested more than \(limit) deep"))
    }

    @Test func nestingUpToTheLimitIsRead() throws {
        // gpx, trk, trkseg, trkpt and the extensions inside it make up the depth.
        func document(depth: Int) -> String {
            let inner = depth - 4
            return "<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\">"
                + String(repeating: "<extensions>", count: inner) + String(repeating: "</extensions>", count: inner)
                + "<ele>5</ele></trkpt></trkseg></trk></gpx>"
        }
        #expect(try GPXReader.read(data: Data(document(depth: ExpatParser.maximumDepth).utf8), name: "deep.gpx").points[0].elevation == 5)
        let error = try Self.error(document(depth: ExpatParser.maximumDepth + 1))
        #expect(error.description.hasPrefix("test.gpx: line 1: elements are nested more than \(ExpatParser.maximumDepth) deep"))
    }

    /// A real GPX cut at many places: any cut before the root's end tag leaves an element open,
    /// so it is an error with a line, never a shorter track.
    @Test func truncatedRealFilesFailCleanly() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: PlaybackFixtures.gpxPath("garmin-standing-jitter.gpx"))))
        #expect(throws: Never.self) { try GPXReader.read(data: Data(bytes), name: "whole.gpx") }
        let rootEnd = try #require(bytes.lastIndex(of: UInt8(ascii: ">")))
        let firstElement = try #require(bytes.indices.first { bytes[$0] == UInt8(ascii: "<") && bytes[$0 + 1] != UInt8(ascii: "?") })
        for cut in stride(from: 0, to: rootEnd, by: 7) {
            let error = try #require(throws: GPXError.self, "cut at \(cut)") {
                try GPXReader.read(data: Data(bytes[..<cut]), name: "cut.gpx")
            }
            #expect(error.code == .malformed, "cut at \(cut): \(error)")
            if cut > firstElement + 1 {
                #expect(error.description.firstMatch(of: /^cut\.gpx: line \d+: malformed XML: the file ends/) != nil, "cut at \(cut): \(error)")
            } else {
                #expect(error.description.hasPrefix("cut.gpx: "), "cut at \(cut): \(error)")
            }
        }
    }

    /// A real GPX with bytes flipped, overwritten or replaced by markup: an error that names a
    /// line, or a track when the damage lands in a harmless place.
    @Test func corruptedRealFilesFailCleanly() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: PlaybackFixtures.gpxPath("garmin-standing-jitter.gpx"))))
        var random = UInt64(0x5EED)
        func nextRandom(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int((random >> 33) % UInt64(bound))
        }
        let markup = Array("<>&'\"/=!?-[]:".utf8)
        var failures = 0
        for _ in 0..<400 {
            var corrupted = bytes
            for _ in 0..<(1 + nextRandom(4)) {
                let index = nextRandom(corrupted.count)
                switch nextRandom(3) {
                case 0: corrupted[index] ^= UInt8(1 << nextRandom(8))
                case 1: corrupted[index] = UInt8(nextRandom(256))
                default: corrupted[index] = markup[nextRandom(markup.count)]
                }
            }
            do {
                _ = try GPXReader.read(data: Data(corrupted), name: "corrupt.gpx")
            } catch let error as GPXError {
                failures += 1
                #expect(error.code == .malformed, "\(error)")
                #expect(error.description.firstMatch(of: /^corrupt\.gpx: line \d+: [a-z']/) != nil, "\(error)")
                #expect(!error.description.contains("\n"), "\(error)")
            }
        }
        // Most changes in markup break the file; some land in text or numbers and do not.
        #expect(failures > 50)
    }
}
