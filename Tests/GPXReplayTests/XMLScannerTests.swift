import Foundation
import Testing
@testable import GPXReplay

struct XMLScannerTests {
    typealias Event = XMLScanner.Event

    /// Every event of `text`, or the syntax error.
    static func events(_ text: String) throws(XMLSyntaxError) -> [Event] {
        var scanner = XMLScanner(Array(text.utf8))
        var events: [Event] = []
        while let event = try scanner.next() { events.append(event) }
        return events
    }

    static func events(bytes: [UInt8]) throws(XMLSyntaxError) -> [Event] {
        var scanner = XMLScanner(bytes)
        var events: [Event] = []
        while let event = try scanner.next() { events.append(event) }
        return events
    }

    static func error(_ text: String) -> XMLSyntaxError? {
        do {
            _ = try events(text)
            return nil
        } catch {
            return error
        }
    }

    /// Starts as "name{uri}" (or "name{}" for none), ends as "/name", text as "'text'".
    static func summary(_ events: [Event]) -> [String] {
        events.map {
            switch $0 {
            case .startElement(let name, _): "\(name.localName){\(name.namespaceURI ?? "")}"
            case .endElement(let name): "/\(name.localName)"
            case .text(let text): "'\(text)'"
            }
        }
    }

    static func attributes(_ events: [Event], of localName: String) -> [XMLScanner.Attribute] {
        for case .startElement(let name, let attributes) in events where name.localName == localName {
            return attributes
        }
        return []
    }

    @Test func elementsTextAndSelfClosingTags() throws {
        let events = try Self.events("<?xml version=\"1.0\"?>\n<a><b x='1'/>hi<c></c></a>\n")
        #expect(Self.summary(events) == ["a{}", "b{}", "/b", "'hi'", "c{}", "/c", "/a"])
        #expect(Self.attributes(events, of: "b").value(of: "x") == "1")
    }

    @Test func namespacesAreResolvedAndScoped() throws {
        let events = try Self.events("""
            <root xmlns="urn:default" xmlns:p="urn:p">
              <p:one xmlns:p="urn:inner"><p:two/></p:one>
              <p:three/>
              <plain xmlns=""><deeper/></plain>
              <again/>
              <x:y xmlns:x="urn:x" x:attr="1" attr="2"/>
            </root>
            """)
        let starts = Self.summary(events).filter { !$0.hasPrefix("'") && !$0.hasPrefix("/") }
        #expect(starts == [
            "root{urn:default}", "one{urn:inner}", "two{urn:inner}", "three{urn:p}", "plain{}",
            "deeper{}", "again{urn:default}", "y{urn:x}",
        ])
        let attributes = Self.attributes(events, of: "y")
        // xmlns declarations are not attributes; unprefixed attributes have no namespace.
        #expect(attributes.count == 2)
        #expect(attributes.value(of: "attr") == "2")
        #expect(attributes.first { $0.name.namespaceURI == "urn:x" }?.value == "1")
        if case .endElement(let name) = events.last {
            #expect(name == XMLScanner.Name(qualifiedName: "root", localName: "root", namespaceURI: "urn:default"))
        } else {
            Issue.record("the last event is not the root's end")
        }
    }

    @Test func theXMLPrefixIsPredefined() throws {
        let events = try Self.events("<a xml:lang='en'><xml:b/></a>")
        #expect(Self.attributes(events, of: "a").first?.name.namespaceURI == XMLScanner.xmlNamespace)
        #expect(Self.summary(events)[1] == "b{\(XMLScanner.xmlNamespace)}")
    }

    @Test func entitiesAndCharacterReferences() throws {
        let events = try Self.events(
            "<a v=\"&lt;&amp;&quot;&apos;&gt; &#65;&#x42;\">&lt;b&gt; &amp; &#x1F600; &#233;&apos;&quot;</a>")
        #expect(Self.summary(events) == ["a{}", "'<b> & 😀 é'\"'", "/a"])
        #expect(Self.attributes(events, of: "a").value(of: "v") == "<&\"'> AB")
    }

    @Test func attributeValuesAreNormalised() throws {
        let events = try Self.events("<a v='x\ty\r\nz\nw&#10;'/>")
        #expect(Self.attributes(events, of: "a").value(of: "v") == "x y z w\n")
    }

    @Test func cdataAndCommentsJoinTheSurroundingText() throws {
        let events = try Self.events("<a>one <![CDATA[<two> & ]] three]]><!-- not <text> - here --> four<?pi data?>!</a>")
        #expect(Self.summary(events) == ["a{}", "'one <two> & ]] three four!'", "/a"])
    }

    @Test func prologAndEpilogMayHoldCommentsPIsAndADoctype() throws {
        let events = try Self.events("""
            \u{FEFF}<?xml version='1.0' encoding='utf-8' standalone="yes" ?>
            <!-- before -->
            <?xml-stylesheet href="s.xsl"?>
            <!DOCTYPE gpx SYSTEM "http://example.com/never-fetched.dtd" [
              <!ENTITY boom "]>'">
              <!-- ]> -->
            ]>
            <gpx/>
            <!-- after -->
            <?after?>

            """)
        #expect(Self.summary(events) == ["gpx{}", "/gpx"])
    }

    @Test func lineEndingsAreNormalisedAndCounted() throws {
        var scanner = XMLScanner(Array("<a>\r\n<b>x\ry</b>\r<c/></a>".utf8))
        var lines: [Int] = []
        var texts: [String] = []
        while let event = try scanner.next() {
            lines.append(scanner.line)
            if case .text(let text) = event { texts.append(text) }
        }
        #expect(texts == ["\n", "x\ny", "\n"])
        // a, text, b, text, /b, text, c, /c, /a
        #expect(lines == [1, 1, 2, 2, 3, 3, 4, 4, 4])
    }

    @Test func declaredASCIICompatibleEncodingIsFineForASCIIBytes() throws {
        #expect(throws: Never.self) { try Self.events("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>") }
        let error = Self.error("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>é</a>")
        #expect(error?.reason.contains("only UTF-8") == true)
    }

    @Test(arguments: [
        // (document, line, words in the reason)
        ("<a><b></a>", 1, "an end tag does not match its start tag"),
        ("<a>\n<b>\n</c>\n</a>", 3, "an end tag does not match its start tag"),
        ("<a>\n<b>", 2, "the file ends inside <b>"),
        ("<a", 1, "the file ends inside"),
        ("<a x='1'", 1, "the file ends inside the tag <a"),
        ("<a x='1", 1, "the file ends inside the value of attribute 'x'"),
        ("<a></a", 1, "the file ends inside the end tag </a"),
        ("<a></a x>", 1, "a tag is not closed with '>'"),
        ("<a x='1' <b/></a>", 1, "a tag is not closed with '>'"),
        ("<a x='1'y='2'/>", 1, "attributes must be separated by whitespace"),
        ("<a x/>", 1, "has no '=' and value"),
        ("<a x=1/>", 1, "not in quotes"),
        ("<a x='<'/>", 1, "'<' is not allowed in an attribute value"),
        ("<a x='1' x='2'/>", 1, "appears twice"),
        ("<a xmlns:p='u' xmlns:q='u' p:x='1' q:x='2'/>", 1, "appears twice"),
        ("hello", 1, "there is no XML element where the document should start"),
        ("\n\ntext<a/>", 3, "there is no XML element where the document should start"),
        ("<a/>\n<b/>", 2, "content after the root element"),
        ("<a/>text", 1, "content after the root element"),
        ("<a/><!DOCTYPE a>", 1, "content after the root element"),
        ("</a>", 1, "an end tag comes before any start tag"),
        ("<a>\n&nbsp;</a>", 2, "the entity '&nbsp;' is not defined"),
        ("<a>& b</a>", 1, "'&' does not start an entity"),
        ("<a>&amp</a>", 1, "'&' does not start an entity"),
        ("<a>&#;</a>", 1, "character reference"),
        ("<a>&#xZZ;</a>", 1, "character reference"),
        ("<a>&#0;</a>", 1, "is not a character XML allows"),
        ("<a>&#xD800;</a>", 1, "is not a character XML allows"),
        ("<a>&#99999999999999999999;</a>", 1, "is not a character XML allows"),
        ("<a>x]]>y</a>", 1, "']]>' is not allowed"),
        ("<a><!-- a -- b --></a>", 1, "'--' is not allowed inside a comment"),
        ("<a><!-- open", 1, "the file ends inside a comment"),
        ("<a><![CDATA[ open", 1, "the file ends inside a CDATA section"),
        ("<a><!ELEMENT a></a>", 1, "neither a comment nor a CDATA section"),
        ("<![CDATA[x]]><a/>", 1, "there is no XML element where the document should start"),
        ("<a><?pi", 1, "the file ends inside a processing instruction"),
        ("<a/>\n<?xml version='1.0'?>", 2, "only allowed at the very start"),
        (" <?xml version='1.0'?><a/>", 1, "only allowed at the very start"),
        ("<?xml encoding='UTF-8'?><a/>", 1, "does not start with its version"),
        ("<?xml version='2.0'?><a/>", 1, "XML version '2.0' is not supported"),
        ("<?xml version='1.0' standalone='maybe'?><a/>", 1, "standalone"),
        ("<?xml version='1.0'", 1, "the file ends inside the XML declaration"),
        ("<!DOCTYPE a [ <!ENTITY x 'y'>", 1, "the file ends inside the DOCTYPE"),
        ("<!DOCTYPE a><!DOCTYPE a><a/>", 1, "a second DOCTYPE"),
        ("<p:a/>", 1, "the prefix 'p' of <p:a> is not declared"),
        ("<a xmlns:p='u'/>\n", 1, ""),
        ("<a xmlns:p='u'></a><!-- --><p:b/>", 1, "content after the root element"),
        ("<a><b xmlns:p='u'/><p:c/></a>", 1, "the prefix 'p' of <p:c> is not declared"),
        ("<a p:x='1'/>", 1, "the prefix 'p' of attribute 'p:x' is not declared"),
        ("<a xmlns:p=''/>", 1, "empty namespace"),
        ("<a xmlns:xmlns='u'/>", 1, "the prefix 'xmlns' cannot be declared"),
        ("<a xmlns:xml='u'/>", 1, "the prefix 'xml' cannot be bound"),
        ("<a:b:c/>", 1, "is not a valid name"),
        ("<a: xmlns:a='u'/>", 1, "is not a valid name"),
        ("< a/>", 1, "'<' is not followed by a tag name"),
        ("<a>< b/></a>", 1, "'<' is not followed by a name"),
        ("<a></ a></a>", 1, "'</' is not followed by a name"),
        ("", 1, "the file ends before its root element"),
        ("  \n <!-- only a comment -->\n", 3, "the file ends before its root element"),
    ])
    func malformedDocuments(text: String, line: Int, reason: String) throws {
        guard let error = Self.error(text) else {
            #expect(reason.isEmpty, "\(text.debugDescription) was accepted")
            return
        }
        #expect(!reason.isEmpty, "\(text.debugDescription): \(error)")
        #expect(error.line == line, "\(text.debugDescription): \(error)")
        #expect(error.reason.contains(reason), "\(text.debugDescription): \(error)")
        #expect(error.description.hasPrefix("malformed XML at line \(line): "))
    }

    @Test func anErrorIsFinal() throws {
        var scanner = XMLScanner(Array("<a><b x='1'y='2'/></b></a>".utf8))
        #expect(try scanner.next() == .startElement(
            XMLScanner.Name(qualifiedName: "a", localName: "a", namespaceURI: nil), attributes: []))
        let first = #expect(throws: XMLSyntaxError.self) { try scanner.next() }
        let second = #expect(throws: XMLSyntaxError.self) { try scanner.next() }
        #expect(first != nil && first == second)
    }

    @Test func missingRootIsFlagged() {
        #expect(Self.error("")?.isMissingRootElement == true)
        #expect(Self.error("<!-- x -->")?.isMissingRootElement == true)
        #expect(Self.error("x")?.isMissingRootElement == false)
    }

    @Test(arguments: [
        ([0xFF, 0xFE, 0x3C, 0x00], "UTF-16"),
        ([0x3C, 0x61, 0x3E, 0xC3, 0x28, 0x3C, 0x2F, 0x61, 0x3E], "not valid UTF-8"),  // bad continuation
        ([0x3C, 0x61, 0x3E, 0xED, 0xA0, 0x80, 0x3C, 0x2F, 0x61, 0x3E], "not valid UTF-8"),  // a surrogate
        ([0x3C, 0x61, 0x3E, 0xF4, 0x90, 0x80, 0x80, 0x3C, 0x2F, 0x61, 0x3E], "not valid UTF-8"),  // above U+10FFFF
        ([0x3C, 0x61, 0x3E, 0xC0, 0xAF, 0x3C, 0x2F, 0x61, 0x3E], "not valid UTF-8"),  // overlong
        ([0x3C, 0x61, 0x3E, 0xE2, 0x82], "not valid UTF-8"),  // cut off at the end
        ([0x3C, 0x61, 0x3E, 0xEF, 0xBF, 0xBF, 0x3C, 0x2F, 0x61, 0x3E], "U+FFFE and U+FFFF"),
        ([0x3C, 0x61, 0x3E, 0x00, 0x3C, 0x2F, 0x61, 0x3E], "control character 0x0"),
        ([0x3C, 0x61, 0x0A, 0x0B, 0x2F, 0x3E], "control character 0xB"),
    ] as [([UInt8], String)])
    func badBytes(bytes: [UInt8], reason: String) {
        let error = #expect(throws: XMLSyntaxError.self) { try Self.events(bytes: bytes) }
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func deepNestingAndManyAttributesStayCheap() throws {
        let depth = 100_000
        let deep = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(try Self.events(deep).count == 2 * depth)
        let attributes = (0..<5000).map { " a\($0)='\($0)'" }.joined()
        #expect(Self.attributes(try Self.events("<a\(attributes)/>"), of: "a").count == 5000)
        #expect(Self.error("<a\(attributes) a17='x'/>")?.reason.contains("appears twice") == true)
    }

    /// A real GPX cut at many places and with bytes flipped: an error or a result, never a
    /// crash or a hang; and a cut file is never accepted as XML.
    @Test func truncatedAndCorruptedRealFilesFailCleanly() throws {
        let path = PlaybackFixtures.gpxPath("garmin-standing-jitter.gpx")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(throws: Never.self) { try Self.events(bytes: bytes) }
        #expect(throws: Never.self) { try GPXReader.read(data: Data(bytes), name: "whole.gpx") }

        // The last '>' of the root's end tag: any cut before it leaves an element open.
        let rootEnd = try #require(bytes.lastIndex(of: UInt8(ascii: ">")))
        for cut in stride(from: 0, to: rootEnd, by: 7) {
            #expect(throws: XMLSyntaxError.self, "cut at \(cut)") { try Self.events(bytes: Array(bytes[..<cut])) }
            #expect(throws: GPXError.self, "cut at \(cut)") {
                try GPXReader.read(data: Data(bytes[..<cut]), name: "cut.gpx")
            }
        }

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
                #expect(error.code == .malformed)
                #expect(error.description.hasPrefix("corrupt.gpx: "))
            }
        }
        // Most flips in markup break the file; some land in text or numbers and do not.
        #expect(failures > 50)
    }
}
