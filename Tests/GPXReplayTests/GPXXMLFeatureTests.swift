import Foundation
import Testing
import GPXReplay

/// What XML lets a GPX file do that the reader must follow: namespaces and their scopes,
/// entities and character references, CDATA and comments inside values, prologs, line ends and
/// encodings.
struct GPXXMLFeatureTests {
    static func read(_ text: String) throws -> GPXTrack {
        try GPXReader.read(data: Data(text.utf8), name: "test.gpx")
    }

    @Test func namespacesAreResolvedAndScoped() throws {
        let track = try Self.read("""
            <g:gpx version="1.1" xmlns:g="http://www.topografix.com/GPX/1/1" xmlns:ot="urn:not-opentracks">
            <g:trk><g:trkseg>
            <g:trkpt lat="1" lon="2"><g:extensions xmlns:ot="http://opentracksapp.com/xmlschemas/v1">
              <ot:speed>2.5</ot:speed></g:extensions></g:trkpt>
            <g:trkpt lat="1" lon="2.0001"><g:extensions><ot:speed>9</ot:speed></g:extensions></g:trkpt>
            <g:trkpt lat="1" lon="2.0002"><ele xmlns="urn:other">7</ele><e:ele xmlns:e="http://www.topografix.com/GPX/1/1">8</e:ele></g:trkpt>
            </g:trkseg></g:trk></g:gpx>
            """)
        #expect(track.version == "1.1")
        #expect(track.points.count == 3)
        // Inside the first extensions block `ot` is OpenTracks; outside it is another namespace.
        #expect(track.points[0].speed == 2.5)
        #expect(track.points[1].speed == nil)
        // <ele> in another namespace is not the GPX elevation, whatever its name.
        #expect(track.points[2].elevation == 8)
    }

    @Test func entitiesAndCharacterReferencesAreDecoded() throws {
        let track = try Self.read("""
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>&lt;Run&gt; &amp; &quot;walk&quot; &apos;n&apos; &#233;</name><trkseg>
            <trkpt lat="&#52;8.5" lon="1&#x31;.25"><ele>1&#48;0</ele><time>2020-01-01T10:00:00&#x5A;</time></trkpt>
            </trkseg></trk></gpx>
            """)
        #expect(track.points[0].latitude == 48.5)
        #expect(track.points[0].longitude == 11.25)
        #expect(track.points[0].elevation == 100)
        #expect(track.points[0].time == 1_577_872_800)
    }

    @Test func attributeWhitespaceIsNormalisedAndTrimmed() throws {
        let track = try Self.read(
            "<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg><trkpt lat=\"\t48.5\r\n\" lon=\" 11 \"/></trkseg></trk></gpx>")
        #expect(track.points[0].latitude == 48.5)
        #expect(track.points[0].longitude == 11)
    }

    @Test func cdataCommentsAndProcessingInstructionsJoinTheText() throws {
        let track = try Self.read("""
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="1" lon="2"><ele>1<!-- c -->2<![CDATA[3]]><?pi data?>4</ele><time><![CDATA[2020-01-01T10:00:00Z]]></time></trkpt>
            </trkseg></trk></gpx>
            """)
        #expect(track.points[0].elevation == 1234)
        #expect(track.points[0].time == 1_577_872_800)
    }

    @Test func prologAndEpilogMayHoldCommentsPIsAndADoctype() throws {
        let track = try Self.read("""
            \u{FEFF}<?xml version='1.0' encoding='utf-8' standalone="no" ?>
            <!-- before -->
            <?xml-stylesheet href="s.xsl"?>
            <!DOCTYPE gpx SYSTEM "http://example.com/never-fetched.dtd">
            <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><rte><rtept lat="1" lon="2"/></rte></gpx>
            <!-- after -->
            <?after?>

            """)
        #expect(track.version == "1.0")
        #expect(track.points.map(\.kind) == [.route])
    }

    @Test(arguments: ["\r\n", "\r", "\n"])
    func lineEndingsAreCounted(newline: String) throws {
        let lines = [
            "<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>",
            "<trkpt lat=\"1\" lon=\"2\"><time>2020-01-01T10:00:00Z</time></trkpt>",
            "<trkpt lat=\"1\" lon=\"2.0001\"><time>2020-01-01T10:00:01Z</time></trkpt>",
            "</trkseg></trk></gpx>",
        ]
        #expect(try Self.read(lines.joined(separator: newline)).points.map(\.line) == [2, 3])
        var broken = lines
        broken[2] = "<trkpt lat=\"1\" lon=\"2.0001\">\(newline)<time>noon</time></trkpt>"
        let error = try #require(throws: GPXError.self) { try Self.read(broken.joined(separator: newline)) }
        #expect(error.description.hasPrefix("test.gpx: line 4: "), "\(error)")
    }

    /// expat reads the encodings XML requires every parser to read, and ISO-8859-1; what the
    /// reader sees is always text.
    @Test func latin1AndUTF16FilesAreRead() throws {
        let text = """
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Café</name><trkseg>
            <trkpt lat="1" lon="2"><ele>3</ele></trkpt></trkseg></trk></gpx>
            """
        var latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n".utf8)
        latin1.append(try #require(text.data(using: .isoLatin1)))
        #expect(latin1.contains(0xE9))
        #expect(try GPXReader.read(data: latin1, name: "latin1.gpx").points[0].elevation == 3)

        let utf16 = Data([0xFF, 0xFE]) + (try #require(text.data(using: .utf16LittleEndian)))
        #expect(try GPXReader.read(data: utf16, name: "utf16.gpx").points[0].elevation == 3)
    }

    /// Bytes that are not UTF-8 in a file that says it is: refused, not guessed at.
    @Test func latin1BytesInAUTF8FileAreAnError() throws {
        var data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>Caf".utf8)
        data.append(0xE9)
        data.append(contentsOf: Array("</name><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>".utf8))
        let error = try #require(throws: GPXError.self) { try GPXReader.read(data: data, name: "test.gpx") }
        #expect(error.description.hasPrefix("test.gpx: line 2: malformed XML: bytes that are not valid UTF-8"), "\(error)")
    }

    @Test func manyAttributesAreCheapAndADuplicateAmongThemIsFound() throws {
        let attributes = (0..<5000).map { " a\($0)='\($0)'" }.joined()
        let point = "<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg><trkpt\(attributes) lat='1' lon='2'"
        let track = try Self.read(point + "/></trkseg></trk></gpx>")
        #expect(track.points.map(\.longitude) == [2])
        let error = try #require(throws: GPXError.self) { try Self.read(point + " a17='x'/></trkseg></trk></gpx>") }
        #expect(error.description.contains("line 1: malformed XML: an attribute appears twice"), "\(error)")
    }
}
