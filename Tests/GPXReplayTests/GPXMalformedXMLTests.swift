import Foundation
import Testing
import GPXReplay

/// XML that is not well-formed, inside a GPX file or around it: each is refused with the line
/// expat found it on and the problem in words. (These were XMLScanner's own cases; the reader
/// is libexpat now, and the GPX reader is what is judged.)
struct GPXMalformedXMLTests {
    /// `body` on line 3 of a GPX 1.1 file, inside a track segment.
    static func inTrack(_ body: String) -> String {
        "<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n\(body)\n</trkseg></trk></gpx>\n"
    }

    static func error(_ text: String) throws -> GPXError {
        try #require(throws: GPXError.self) { try GPXReader.read(data: Data(text.utf8), name: "test.gpx") }
    }

    static func error(bytes: [UInt8]) throws -> GPXError {
        try #require(throws: GPXError.self) { try GPXReader.read(data: Data(bytes), name: "test.gpx") }
    }

    static func check(_ error: GPXError, line: Int, words: String, _ input: String) {
        #expect(error.code == .malformed, "\(input.debugDescription): \(error)")
        #expect(error.description.hasPrefix("test.gpx: line \(line): "), "\(input.debugDescription): \(error)")
        #expect(error.description.contains(words), "\(input.debugDescription): \(error)")
        #expect(!error.description.contains("\n"), "one line: \(error)")
    }

    /// (the file, the line of the error, words in it). Most are a body on line 3 of a GPX 1.1
    /// file, inside a track segment (`inTrack`); the rest are whole documents.
    static let malformed: [(String, Int, String)] = [
        (inTrack("<trkpt lat=\"1\" lon=\"2\"></trkseg>"), 3, "the end tag '</trkseg>' does not match <trkpt> from line 3"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\">\n<ele>\n</time>\n</trkpt>"), 5, "the end tag '</time>' does not match <ele> from line 4"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\""), 4, "a tag before it not closed with '>'"),
        (inTrack("<trkpt lat=\"1\" lon=\"2"), 4, "a tag before it not closed with '>'"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"></trkpt"), 4, "a tag before it not closed with '>'"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"></trkpt x>"), 3, "a tag that is not well-formed"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\" <ele/></trkpt>"), 3, "a tag that is not well-formed"),
        (inTrack("<trkpt lat=\"1\"lon=\"2\"/>"), 3, "attributes no space between them) at '<trkpt lat=\"1\"lon="),
        (inTrack("<trkpt lat lon=\"2\"/>"), 3, "a tag that is not well-formed"),
        (inTrack("<trkpt lat=1 lon=\"2\"/>"), 3, "an attribute value has no quotes"),
        (inTrack("<trkpt lat=\"<\" lon=\"2\"/>"), 3, "a tag that is not well-formed"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\" lat=\"3\"/>"), 3, "an attribute appears twice in one tag"),
        (inTrack("<trkpt xmlns:p='u' xmlns:q='u' p:x='1' q:x='2' lat=\"1\" lon=\"2\"/>"), 3, "an attribute appears twice"),
        (inTrack("</trkseg></trk></gpx>\n<gpx/>"), 4, "there is content after the root element at '<gpx/>'"),
        (inTrack("</trkseg></trk></gpx>text"), 3, "there is content after the root element at 'text'"),
        (inTrack("</trkseg></trk></gpx><!DOCTYPE gpx>"), 3, "there is content after the root element"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>\n&nbsp;</ele></trkpt>"), 4, "an entity is not defined at '&nbsp;"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>& b</ele></trkpt>"), 3, "'&' starts neither an entity"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>&amp</ele></trkpt>"), 3, "'&' starts neither an entity"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>&#;</ele></trkpt>"), 3, "nor a character reference"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>&#xZZ;</ele></trkpt>"), 3, "nor a character reference"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>&#0;</ele></trkpt>"), 3, "a character reference names a character XML does not allow"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>&#xD800;</ele></trkpt>"), 3, "a character XML does not allow"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>&#99999999999999999999;</ele></trkpt>"), 3, "a character XML does not allow"),
        // U+0001 is what expat joins namespace and name with: it cannot be smuggled in.
        (inTrack("<trkpt lat=\"1\" lon=\"2\" xmlns:p=\"a&#1;b\"/>"), 3, "a character XML does not allow"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><ele>x]]>y</ele></trkpt>"), 3, "']]>' is not allowed in text"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><!-- a -- b --></trkpt>"), 3, "'--' is not allowed inside a comment"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><!-- open"), 3, "the file ends in the middle of a tag, comment or declaration inside <trkpt> from line 3"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><![CDATA[ open"), 5, "the file ends inside a CDATA section inside <trkpt> from line 3"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><!ELEMENT a></trkpt>"), 3, "'<!' starts neither a comment nor a CDATA section"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"><?pi"), 3, "the file ends in the middle of a tag, comment or declaration"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"/>\n<?xml version='1.0'?>"), 4, "only allowed at the very start"),
        (inTrack("<p:trkpt lat=\"1\" lon=\"2\"/>"), 3, "a namespace prefix is used that no xmlns attribute declares at '<p:trkpt"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\" p:x=\"1\"/>"), 3, "a namespace prefix is used that no xmlns attribute declares"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\" xmlns:p=\"\"/>"), 3, "a namespace prefix is declared empty"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\" xmlns:xmlns=\"u\"/>"), 3, "the reserved prefix xml or xmlns"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\" xmlns:xml=\"u\"/>"), 3, "the reserved prefix xml or xmlns"),
        (inTrack("<a:b:c xmlns:a='u'/>"), 3, "a name is missing or wrong"),
        (inTrack("<a: xmlns:a='u'/>"), 3, "a name is missing or wrong"),
        (inTrack("< trkpt/>"), 3, "a tag that is not well-formed"),
        (inTrack("<trkpt lat=\"1\" lon=\"2\"></ trkpt>"), 3, "a tag that is not well-formed"),
        ("hello", 1, "markup that is neither an element, a comment nor a declaration at 'hello'"),
        ("<![CDATA[x]]><gpx/>", 1, "markup that is neither an element"),
        ("\n\ntext<gpx/>", 3, "malformed XML"),
        ("</gpx>", 1, "a tag that is not well-formed"),
        (" <?xml version='1.0'?><gpx/>", 1, "only allowed at the very start"),
        ("<?xml encoding='UTF-8'?><gpx/>", 1, "the XML declaration (<?xml …?>) is not well-formed"),
        ("<?xml version='1.0' standalone='maybe'?><gpx/>", 1, "the XML declaration (<?xml …?>) is not well-formed"),
        ("<?xml version='1.0'", 1, "the file ends in the middle of a tag, comment or declaration"),
        ("<!DOCTYPE gpx><!DOCTYPE gpx><gpx/>", 1, "markup that is neither an element"),
        ("<?xml version='1.0' encoding='EBCDIC-XYZ'?><gpx/>", 1, "names an encoding expat cannot read"),
        // A DTD that expat does not read cannot define &nbsp; either.
        ("<!DOCTYPE gpx SYSTEM \"gpx.dtd\">\n<gpx version='1.1'><trk><trkseg><trkpt lat='1' lon='2'><ele>&nbsp;</ele></trkpt></trkseg></trk></gpx>",
         2, "the entity '&nbsp;' is not defined"),
        ("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">", 3,
         "malformed XML: the file ends before <trkpt> from line 3 is closed"),
    ]

    @Test(arguments: malformed)
    func malformedXML(text: String, line: Int, words: String) throws {
        Self.check(try Self.error(text), line: line, words: words, text)
    }

    @Test(arguments: [
        // (bytes on line 3, words)
        ([0x3C, 0x61, 0x3E, 0xC3, 0x28], "bytes that are not valid UTF-8"),  // a bad continuation byte
        ([0x3C, 0x61, 0x3E, 0xED, 0xA0, 0x80], "bytes that are not valid UTF-8"),  // a surrogate
        ([0x3C, 0x61, 0x3E, 0xF4, 0x90, 0x80, 0x80], "bytes that are not valid UTF-8"),  // above U+10FFFF
        ([0x3C, 0x61, 0x3E, 0xC0, 0xAF], "bytes that are not valid UTF-8"),  // overlong
        ([0x3C, 0x61, 0x3E, 0xE2, 0x82], "bytes that are not valid UTF-8"),  // a character cut short
        ([0x3C, 0x61, 0x3E, 0xEF, 0xBF, 0xBF], "or a character XML does not allow at '\\xEF\\xBF\\xBF'"),  // U+FFFF
        ([0x3C, 0x61, 0x3E, 0x00], "the control character 0x0, which XML does not allow"),
        ([0x3C, 0x61, 0x20, 0x0B, 0x2F, 0x3E], "the control character 0xB, which XML does not allow"),
    ] as [([UInt8], String)])
    func badBytes(bytes: [UInt8], words: String) throws {
        let head = Array(Self.inTrack("").utf8)
        let document = Array(head[..<(head.count - "\n</trkseg></trk></gpx>\n".utf8.count)])
            + bytes + Array("\n</trkseg></trk></gpx>\n".utf8)
        Self.check(try Self.error(bytes: document), line: 3, words: words, String(decoding: document, as: UTF8.self))
    }

    @Test(arguments: [
        ("", "not a GPX file (no <gpx> root element)"),
        ("  \n <!-- only a comment -->\n<?pi?>\n", "not a GPX file (no <gpx> root element)"),
        ("<?xml version='1.0'?>", "not a GPX file (no <gpx> root element)"),
        ("<kml/>", "line 1: not a GPX file: the root element is <kml>, not <gpx>"),
        ("<gpx xmlns='urn:wrong'/>",
         "line 1: not a GPX file: the root element <gpx> is in the namespace 'urn:wrong', not GPX 1.0's or 1.1's"),
    ])
    func notGPX(text: String, message: String) throws {
        let error = try Self.error(text)
        #expect(error.code == .malformed)
        #expect(error.description == "test.gpx: \(message)")
    }

    /// A document larger than one chunk fed to expat: the line and the quoted bytes are those of
    /// the whole file, not of the chunk.
    @Test func errorsPastTheFirstChunkNameTheirLine() throws {
        var lines = ["<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>"]
        for index in 0..<3000 {
            let time = index == 2500 ? "soon" : "2020-01-01T10:00:00Z"
            lines.append("<trkpt lat=\"48.\(index)\" lon=\"11.0\"><ele>500.25</ele><time>\(time)</time></trkpt>")
        }
        lines[1800] = "<trkpt lat=\"48.1\" lon=\"11.0\"><ele>5 & 6</ele></trkpt>"
        lines.append("</trkseg></trk></gpx>")
        let document = lines.joined(separator: "\n")
        #expect(document.utf8.count > 3 * (1 << 16))
        let error = try Self.error(document)
        Self.check(error, line: 1801, words: "at '& 6</ele></trkpt>'", "(3000 points)")

        lines[1800] = lines[1799]
        let timeError = try Self.error(lines.joined(separator: "\n"))
        Self.check(timeError, line: 2502, words: "'soon' is not a date-time", "(3000 points)")
    }
}
