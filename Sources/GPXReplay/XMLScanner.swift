/// Where a document stops being well-formed XML, with the line and the reason in words.
struct XMLSyntaxError: Error, Equatable, CustomStringConvertible {
    /// 1-based line of the offending byte (CR, LF and CRLF each end a line).
    var line: Int
    var reason: String
    /// True when the document holds no element at all (empty, only whitespace, comments or a
    /// declaration): a caller may prefer "not a GPX file" to "malformed XML" then.
    var isMissingRootElement = false

    var description: String { "malformed XML at line \(line): \(reason)" }
}

/// A small, strict, non-validating XML 1.0 pull reader for UTF-8 documents, with namespaces.
///
/// It reads what GPX files need and rejects the rest with a line number: no DOM is built,
/// `next()` hands out one start tag, end tag or run of character data at a time.
///
/// - Input is UTF-8 (a BOM is skipped); invalid UTF-8, control characters and UTF-16 are
///   errors. A declared encoding other than UTF-8 is accepted only for pure ASCII bytes.
/// - The XML declaration, processing instructions, comments and a DOCTYPE are checked and
///   skipped. The DOCTYPE is never interpreted: no external entity is resolved, and entities it
///   declares are undefined here, so entity expansion attacks have nothing to expand.
/// - Character data has the five predefined entities and `&#NN;` / `&#xHH;` decoded, CDATA
///   sections merged in, and line ends normalised to LF; comments and processing instructions
///   inside an element do not split a run of text.
/// - Names are resolved against `xmlns` / `xmlns:prefix` declarations with proper scoping;
///   `xmlns` attributes themselves are not reported. Unprefixed attributes have no namespace.
/// - Non-ASCII characters are accepted in names without checking their Unicode class.
///
/// Nothing recurses, so deep nesting costs an array entry per level and never the stack.
struct XMLScanner {
    struct Name: Hashable, Sendable {
        /// The name as written, `prefix:local` or `local`.
        var qualifiedName: String
        var localName: String
        /// The namespace URI the prefix (or the default namespace) resolves to; nil for none.
        var namespaceURI: String?
    }

    struct Attribute: Hashable, Sendable {
        var name: Name
        var value: String
    }

    enum Event: Hashable, Sendable {
        /// A start tag; a self-closing tag is reported as a start followed by an end.
        case startElement(Name, attributes: [Attribute])
        case endElement(Name)
        /// Character data between tags, decoded; may be whitespace only.
        case text(String)
    }

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    /// 1-based line where the event last returned by `next()` starts.
    private(set) var line = 1

    /// The document followed by one 0 byte. NUL is not allowed in XML (the check in `begin()`
    /// rejects it), so a 0 read anywhere is the end of the input and loops need no bounds test.
    private let bytes: [UInt8]
    private let count: Int
    private var position = 0

    private enum Stage {
        case start, prolog, element, epilog, finished
    }
    private var stage = Stage.start
    private var failure: XMLSyntaxError?
    private var sawDoctype = false
    private var hasCarriageReturns = false
    private var isASCII = true

    private struct OpenElement {
        var nameStart: Int
        var nameEnd: Int
        var bindingMark: Int
        var name: Name
    }
    private var open: [OpenElement] = []
    /// The end of a self-closing tag, reported by the next call.
    private var pendingEnd: Name?

    private struct Binding {
        /// Empty for the default namespace.
        var prefix: [UInt8]
        /// nil for `xmlns=""`, which takes the default namespace away again.
        var uri: String?
    }
    private var bindings = [Binding(prefix: Array("xml".utf8), uri: XMLScanner.xmlNamespace)]

    private struct RawAttribute {
        var nameStart: Int
        var nameEnd: Int
        /// Offset of the ':' in the name, or -1.
        var colon: Int
        var value: String
    }
    private var rawAttributes: [RawAttribute] = []

    /// The run of character data being collected, and where it started (-1: none yet).
    private var text: [UInt8] = []
    private var textStart = -1
    private var scratch: [UInt8] = []

    /// Lines counted so far: `countedLines` is the line number at offset `countedTo`.
    private var countedTo = 0
    private var countedLines = 1

    init(_ source: some Collection<UInt8>) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count + 1)
        bytes.append(contentsOf: source)
        count = bytes.count
        bytes.append(0)
        self.bytes = bytes
    }

    // MARK: - Events

    /// The next event, or nil after the root element has ended and only whitespace, comments
    /// and processing instructions followed it. After an error, every call throws it again.
    mutating func next() throws(XMLSyntaxError) -> Event? {
        if let failure { throw failure }
        do {
            return try step()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func step() throws(XMLSyntaxError) -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            closeElement()
            return .endElement(name)
        }
        if stage == .start { try begin() }
        while true {
            switch stage {
            case .finished:
                return nil
            case .element:
                if let event = try contentEvent() { return event }
            case .start, .prolog, .epilog:
                if let event = try eventOutsideRoot() { return event }
            }
        }
    }

    /// Checks the encoding and every byte once, and reads the XML declaration.
    private mutating func begin() throws(XMLSyntaxError) {
        if count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)
            || (bytes[0] == 0 && bytes[1] == 0x3C) || (bytes[0] == 0x3C && bytes[1] == 0) {
            throw XMLSyntaxError(line: 1, reason: "the file is UTF-16; only UTF-8 is read")
        }
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        try checkCharacters()
        stage = .prolog
        if matches("<?xml"), isWhitespace(bytes[position + 5]) || bytes[position + 5] == .questionMark {
            try readXMLDeclaration()
        }
    }

    /// Outside the root element: whitespace, comments, processing instructions, one DOCTYPE
    /// before the root, and the root's start tag.
    private mutating func eventOutsideRoot() throws(XMLSyntaxError) -> Event? {
        skipWhitespace()
        let beforeRoot = stage == .prolog
        let misplaced = beforeRoot ? "there is no XML element where the document should start" : "content after the root element"
        guard position < count else {
            if beforeRoot {
                throw XMLSyntaxError(
                    line: lineNumber(at: count), reason: "the file ends before its root element",
                    isMissingRootElement: true)
            }
            stage = .finished
            return nil
        }
        guard bytes[position] == .lessThan else { throw error(at: position, misplaced) }
        let next = bytes[position + 1]
        if next == .questionMark {
            try skipProcessingInstruction()
            return nil
        }
        if next == .exclamation {
            if matches("<!--") {
                position = try endOfComment(from: position)
                return nil
            }
            if matches("<!DOCTYPE") {
                guard beforeRoot else { throw error(at: position, "content after the root element (a DOCTYPE)") }
                guard !sawDoctype else { throw error(at: position, "a second DOCTYPE") }
                try skipDoctype()
                sawDoctype = true
                return nil
            }
            throw error(at: position, misplaced)
        }
        guard beforeRoot else { throw error(at: position, "content after the root element") }
        guard next != .slash else { throw error(at: position, "an end tag comes before any start tag") }
        guard isNameStart(next) else { throw error(at: position + 1, "'<' is not followed by a tag name") }
        stage = .element
        return try startTag()
    }

    /// Inside the root element: character data, comments, PIs, CDATA and tags.
    private mutating func contentEvent() throws(XMLSyntaxError) -> Event? {
        while true {
            let byte = bytes[position]
            if byte == .lessThan {
                let next = bytes[position + 1]
                if next == .exclamation {
                    if matches("<!--") {
                        position = try endOfComment(from: position)
                        continue
                    }
                    if matches("<![CDATA[") {
                        try appendCDATA()
                        continue
                    }
                    throw error(at: position, "'<!' inside an element starts neither a comment nor a CDATA section")
                }
                if next == .questionMark {
                    try skipProcessingInstruction()
                    continue
                }
                if textStart >= 0 {
                    let start = textStart
                    textStart = -1
                    if !text.isEmpty {
                        line = lineNumber(at: start)
                        let string = String(decoding: text, as: UTF8.self)
                        text.removeAll(keepingCapacity: true)
                        return .text(string)
                    }
                }
                return next == .slash ? try endTag() : try startTag()
            }
            if position >= count {
                throw error(at: count, "the file ends inside <\(open.last?.name.qualifiedName ?? "")>")
            }
            if textStart < 0 { textStart = position }
            if byte == .ampersand {
                let (scalar, end) = try entity(at: position)
                Self.appendUTF8(scalar, to: &text)
                position = end
                continue
            }
            let start = position
            while true {
                let byte = bytes[position]
                if byte == .lessThan || byte == .ampersand || byte == 0 { break }
                if byte == .closeBracket, bytes[position + 1] == .closeBracket, bytes[position + 2] == .greaterThan {
                    throw error(at: position, "']]>' is not allowed in text outside a CDATA section")
                }
                position += 1
            }
            appendText(start..<position)
        }
    }

    // MARK: - Tags

    private mutating func startTag() throws(XMLSyntaxError) -> Event {
        let tagStart = position
        position += 1
        let (nameStart, nameEnd, colon) = try qualifiedName(what: "'<'")
        rawAttributes.removeAll(keepingCapacity: true)
        var selfClosing = false
        while true {
            let spaced = skipWhitespace()
            let byte = bytes[position]
            if byte == .greaterThan {
                position += 1
                break
            }
            if byte == .slash, bytes[position + 1] == .greaterThan {
                position += 2
                selfClosing = true
                break
            }
            if position >= count {
                throw error(at: count, "the file ends inside the tag <\(string(nameStart..<nameEnd))")
            }
            guard isNameStart(byte) else { throw error(at: position, "a tag is not closed with '>'") }
            guard spaced else { throw error(at: position, "attributes must be separated by whitespace") }
            try attribute()
        }
        line = lineNumber(at: tagStart)
        let name = try resolveElement(nameStart: nameStart, nameEnd: nameEnd, colon: colon, tagStart: tagStart)
        open.append(OpenElement(nameStart: nameStart, nameEnd: nameEnd, bindingMark: name.mark, name: name.name))
        if selfClosing { pendingEnd = name.name }
        return .startElement(name.name, attributes: name.attributes)
    }

    private mutating func endTag() throws(XMLSyntaxError) -> Event {
        let tagStart = position
        position += 2
        let (nameStart, nameEnd, _) = try qualifiedName(what: "'</'")
        skipWhitespace()
        guard bytes[position] == .greaterThan else {
            if position >= count { throw error(at: count, "the file ends inside the end tag </\(string(nameStart..<nameEnd))") }
            throw error(at: position, "a tag is not closed with '>'")
        }
        position += 1
        let top = open[open.count - 1]
        guard sameBytes(top.nameStart..<top.nameEnd, nameStart..<nameEnd) else {
            throw error(
                at: tagStart,
                "an end tag does not match its start tag (</\(string(nameStart..<nameEnd))> closes <\(top.name.qualifiedName)>)")
        }
        line = lineNumber(at: tagStart)
        closeElement()
        return .endElement(top.name)
    }

    private mutating func closeElement() {
        let top = open.removeLast()
        if bindings.count > top.bindingMark { bindings.removeSubrange(top.bindingMark...) }
        if open.isEmpty { stage = .epilog }
    }

    /// One `name = "value"` of a start tag, into `rawAttributes`.
    private mutating func attribute() throws(XMLSyntaxError) {
        let (nameStart, nameEnd, colon) = try qualifiedName(what: "an attribute")
        skipWhitespace()
        guard bytes[position] == .equals else {
            throw error(at: position, "the attribute '\(string(nameStart..<nameEnd))' has no '=' and value")
        }
        position += 1
        skipWhitespace()
        let quote = bytes[position]
        guard quote == .doubleQuote || quote == .singleQuote else {
            throw error(at: position, "the value of attribute '\(string(nameStart..<nameEnd))' is not in quotes")
        }
        position += 1
        let valueStart = position
        var plain = true
        while true {
            let byte = bytes[position]
            if byte == quote { break }
            switch byte {
            case 0: throw error(at: count, "the file ends inside the value of attribute '\(string(nameStart..<nameEnd))'")
            case .lessThan: throw error(at: position, "'<' is not allowed in an attribute value")
            case .ampersand, .tab, .lineFeed, .carriageReturn: plain = false
            default: break
            }
            position += 1
        }
        let valueEnd = position
        position += 1
        let value = plain ? string(valueStart..<valueEnd) : try normalizedValue(valueStart..<valueEnd)
        rawAttributes.append(RawAttribute(nameStart: nameStart, nameEnd: nameEnd, colon: colon, value: value))
    }

    /// An attribute value with entities decoded and each tab, LF, CR or CRLF made one space.
    private mutating func normalizedValue(_ range: Range<Int>) throws(XMLSyntaxError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            switch byte {
            case .ampersand:
                let (scalar, end) = try entity(at: index)
                Self.appendUTF8(scalar, to: &scratch)
                index = end
                continue
            case .carriageReturn:
                if bytes[index + 1] == .lineFeed { index += 1 }
                scratch.append(.space)
            case .tab, .lineFeed:
                scratch.append(.space)
            default:
                scratch.append(byte)
            }
            index += 1
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    // MARK: - Namespaces

    /// Applies the tag's `xmlns` declarations, then resolves its name and attributes.
    private mutating func resolveElement(
        nameStart: Int, nameEnd: Int, colon: Int, tagStart: Int
    ) throws(XMLSyntaxError) -> (name: Name, attributes: [Attribute], mark: Int) {
        let mark = bindings.count
        if rawAttributes.count > 1 { try checkDuplicateNames(tagStart: tagStart) }
        for raw in rawAttributes {
            if raw.colon < 0, sameBytes(raw.nameStart..<raw.nameEnd, "xmlns") {
                guard raw.value != Self.xmlNamespace, raw.value != Self.xmlnsNamespace else {
                    throw error(at: tagStart, "the namespace '\(raw.value)' cannot be the default namespace")
                }
                bindings.append(Binding(prefix: [], uri: raw.value.isEmpty ? nil : raw.value))
            } else if raw.colon >= 0, sameBytes(raw.nameStart..<raw.colon, "xmlns") {
                let prefix = Array(bytes[(raw.colon + 1)..<raw.nameEnd])
                let prefixText = String(decoding: prefix, as: UTF8.self)
                if prefixText == "xmlns" {
                    throw error(at: tagStart, "the prefix 'xmlns' cannot be declared")
                }
                if prefixText == "xml" {
                    guard raw.value == Self.xmlNamespace else {
                        throw error(at: tagStart, "the prefix 'xml' cannot be bound to another namespace")
                    }
                    continue
                }
                guard !raw.value.isEmpty else {
                    throw error(at: tagStart, "the prefix '\(prefixText)' is undeclared with an empty namespace, which XML 1.0 does not allow")
                }
                guard raw.value != Self.xmlNamespace, raw.value != Self.xmlnsNamespace else {
                    throw error(at: tagStart, "the namespace '\(raw.value)' cannot be bound to the prefix '\(prefixText)'")
                }
                bindings.append(Binding(prefix: prefix, uri: raw.value))
            }
        }

        let qualified = string(nameStart..<nameEnd)
        let elementName: Name
        if colon < 0 {
            elementName = Name(qualifiedName: qualified, localName: qualified, namespaceURI: namespace(for: nameStart..<nameStart))
        } else {
            guard let uri = namespace(for: nameStart..<colon) else {
                throw error(at: tagStart, "the prefix '\(string(nameStart..<colon))' of <\(qualified)> is not declared")
            }
            elementName = Name(qualifiedName: qualified, localName: string((colon + 1)..<nameEnd), namespaceURI: uri)
        }

        var attributes: [Attribute] = []
        var hasPrefixedAttributes = false
        for raw in rawAttributes {
            if raw.colon < 0 {
                if sameBytes(raw.nameStart..<raw.nameEnd, "xmlns") { continue }
                let name = string(raw.nameStart..<raw.nameEnd)
                attributes.append(Attribute(name: Name(qualifiedName: name, localName: name, namespaceURI: nil), value: raw.value))
                continue
            }
            if sameBytes(raw.nameStart..<raw.colon, "xmlns") { continue }
            let qualifiedAttribute = string(raw.nameStart..<raw.nameEnd)
            guard let uri = namespace(for: raw.nameStart..<raw.colon) else {
                throw error(at: tagStart, "the prefix '\(string(raw.nameStart..<raw.colon))' of attribute '\(qualifiedAttribute)' is not declared")
            }
            let name = Name(qualifiedName: qualifiedAttribute, localName: string((raw.colon + 1)..<raw.nameEnd), namespaceURI: uri)
            attributes.append(Attribute(name: name, value: raw.value))
            hasPrefixedAttributes = true
        }
        if hasPrefixedAttributes, attributes.count > 1 {
            // Two prefixes bound to one URI make `a:x` and `b:x` the same attribute.
            var seen = Set<[String]>()
            for attribute in attributes where attribute.name.namespaceURI != nil {
                guard seen.insert([attribute.name.namespaceURI!, attribute.name.localName]).inserted else {
                    throw error(at: tagStart, "the attribute '\(attribute.name.qualifiedName)' appears twice in one tag (by namespace)")
                }
            }
        }
        return (elementName, attributes, mark)
    }

    /// Two attributes of one tag may not have the same name; a set keeps a tag with thousands
    /// of attributes from taking quadratic time.
    private func checkDuplicateNames(tagStart: Int) throws(XMLSyntaxError) {
        func duplicate(_ raw: RawAttribute) -> XMLSyntaxError {
            error(at: tagStart, "the attribute '\(string(raw.nameStart..<raw.nameEnd))' appears twice in one tag")
        }
        if rawAttributes.count <= 16 {
            for index in 1..<rawAttributes.count {
                let raw = rawAttributes[index]
                for earlier in rawAttributes[..<index]
                where sameBytes(earlier.nameStart..<earlier.nameEnd, raw.nameStart..<raw.nameEnd) {
                    throw duplicate(raw)
                }
            }
            return
        }
        var seen = Set<ArraySlice<UInt8>>()
        for raw in rawAttributes where !seen.insert(bytes[raw.nameStart..<raw.nameEnd]).inserted {
            throw duplicate(raw)
        }
    }

    /// The URI bound to the prefix at `range` (empty: the default namespace, nil when there is
    /// none). For a prefix, nil means it is not declared.
    private func namespace(for range: Range<Int>) -> String? {
        var index = bindings.count - 1
        while index >= 0 {
            let binding = bindings[index]
            if binding.prefix.count == range.count {
                var same = true
                var offset = 0
                while offset < range.count {
                    if binding.prefix[offset] != bytes[range.lowerBound + offset] {
                        same = false
                        break
                    }
                    offset += 1
                }
                if same { return binding.uri }
            }
            index -= 1
        }
        return nil
    }

    // MARK: - Names, text and entities

    /// A name at `position`, with at most one ':' that has something on both sides.
    private mutating func qualifiedName(what: String) throws(XMLSyntaxError) -> (start: Int, end: Int, colon: Int) {
        let start = position
        guard isNameStart(bytes[position]) else {
            if position >= count { throw error(at: count, "the file ends inside a tag") }
            throw error(at: position, "\(what) is not followed by a name")
        }
        var colon = -1
        var colons = 0
        position += 1
        while true {
            let byte = bytes[position]
            if byte == .colon {
                colons += 1
                colon = position
            } else if !isNameByte(byte) {
                break
            }
            position += 1
        }
        if colons > 1 || colon == start || colon == position - 1 {
            throw error(at: start, "'\(string(start..<position))' is not a valid name (one ':' between a prefix and a local name at most)")
        }
        return (start, position, colon)
    }

    /// The character an entity or character reference at `start` (its '&') stands for, and
    /// the offset after its ';'.
    private func entity(at start: Int) throws(XMLSyntaxError) -> (Unicode.Scalar, Int) {
        var index = start + 1
        if bytes[index] == .hash {
            index += 1
            let hex = bytes[index] == UInt8(ascii: "x")
            if hex { index += 1 }
            var value = 0
            var digits = 0
            while true {
                let byte = bytes[index]
                let digit: Int
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte) - 0x30
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = Int(byte) - 0x61 + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = Int(byte) - 0x41 + 10
                default: digit = -1
                }
                if digit < 0 { break }
                if value <= 0x10FFFF { value = value * (hex ? 16 : 10) + digit }
                digits += 1
                index += 1
            }
            guard digits > 0, bytes[index] == .semicolon else {
                throw error(at: start, "a character reference is not written as &#65; or &#x41;")
            }
            guard Self.isXMLCharacter(value), let scalar = Unicode.Scalar(UInt32(value)) else {
                throw error(at: start, "the character reference '\(string(start..<(index + 1)))' is not a character XML allows")
            }
            return (scalar, index + 1)
        }
        while isNameByte(bytes[index]), index - start < 40 { index += 1 }
        guard bytes[index] == .semicolon, index > start + 1 else {
            throw error(at: start, "'&' does not start an entity such as &amp; (write a literal '&' as &amp;)")
        }
        let scalar: Unicode.Scalar
        switch string((start + 1)..<index) {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        case let name:
            throw error(at: start, "the entity '&\(name);' is not defined (only &lt; &gt; &amp; &quot; &apos; and &#...; are)")
        }
        return (scalar, index + 1)
    }

    private static func isXMLCharacter(_ value: Int) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        UTF8.encode(scalar) { buffer.append($0) }
    }

    /// Character data as written, with CRLF and lone CR made LF.
    private mutating func appendText(_ range: Range<Int>) {
        guard hasCarriageReturns else {
            text.append(contentsOf: bytes[range])
            return
        }
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == .carriageReturn {
                if bytes[index + 1] != .lineFeed { text.append(.lineFeed) }
            } else {
                text.append(byte)
            }
            index += 1
        }
    }

    private mutating func appendCDATA() throws(XMLSyntaxError) {
        if textStart < 0 { textStart = position }
        let start = position + 9
        var index = start
        while true {
            let byte = bytes[index]
            if byte == .closeBracket, bytes[index + 1] == .closeBracket, bytes[index + 2] == .greaterThan { break }
            if byte == 0 { throw error(at: count, "the file ends inside a CDATA section") }
            index += 1
        }
        appendText(start..<index)
        position = index + 3
    }

    // MARK: - Comments, processing instructions, declarations

    /// The offset after the comment starting at `start` (its '<!--').
    private func endOfComment(from start: Int) throws(XMLSyntaxError) -> Int {
        var index = start + 4
        while true {
            let byte = bytes[index]
            if byte == .hyphen, bytes[index + 1] == .hyphen {
                guard bytes[index + 2] == .greaterThan else {
                    throw error(at: index, "'--' is not allowed inside a comment")
                }
                return index + 3
            }
            if byte == 0 { throw error(at: count, "the file ends inside a comment") }
            index += 1
        }
    }

    private mutating func skipProcessingInstruction() throws(XMLSyntaxError) {
        let start = position
        position += 2
        guard isNameStart(bytes[position]) else {
            throw error(at: start, "'<?' is not followed by a processing instruction name")
        }
        while isNameByte(bytes[position]) || bytes[position] == .colon { position += 1 }
        if position - start == 5, string((start + 2)..<position).lowercased() == "xml" {
            throw error(at: start, "the XML declaration '<?xml ...?>' is only allowed at the very start of the file")
        }
        if !(bytes[position] == .questionMark && bytes[position + 1] == .greaterThan) {
            guard isWhitespace(bytes[position]) || position >= count else {
                throw error(at: position, "a processing instruction name must be followed by whitespace or '?>'")
            }
        }
        while true {
            let byte = bytes[position]
            if byte == .questionMark, bytes[position + 1] == .greaterThan { break }
            if byte == 0 { throw error(at: count, "the file ends inside a processing instruction") }
            position += 1
        }
        position += 2
    }

    /// `<?xml version="1.x" encoding="..." standalone="..."?>`, in that order.
    private mutating func readXMLDeclaration() throws(XMLSyntaxError) {
        let start = position
        position += 5
        var seen: [String] = []
        while true {
            let spaced = skipWhitespace()
            if bytes[position] == .questionMark, bytes[position + 1] == .greaterThan {
                position += 2
                break
            }
            if position >= count { throw error(at: count, "the file ends inside the XML declaration") }
            guard spaced else { throw error(at: position, "the XML declaration is malformed") }
            let nameStart = position
            while bytes[position] >= UInt8(ascii: "a"), bytes[position] <= UInt8(ascii: "z") { position += 1 }
            let name = string(nameStart..<position)
            skipWhitespace()
            guard bytes[position] == .equals else { throw error(at: position, "the XML declaration is malformed") }
            position += 1
            skipWhitespace()
            let quote = bytes[position]
            guard quote == .doubleQuote || quote == .singleQuote else {
                throw error(at: position, "the XML declaration is malformed")
            }
            position += 1
            let valueStart = position
            while bytes[position] != quote {
                guard bytes[position] != 0, bytes[position] != .lessThan, bytes[position] != .questionMark else {
                    throw error(at: position, "the XML declaration is malformed")
                }
                position += 1
            }
            let value = string(valueStart..<position)
            position += 1
            let order = ["version", "encoding", "standalone"]
            guard !seen.isEmpty || name == "version" else {
                throw error(at: nameStart, "the XML declaration does not start with its version")
            }
            guard let rank = order.firstIndex(of: name), seen.allSatisfy({ order.firstIndex(of: $0)! < rank }) else {
                throw error(at: nameStart, "the XML declaration has '\(name)' where version, encoding or standalone belong")
            }
            seen.append(name)
            switch name {
            case "version":
                let digits = value.utf8.dropFirst(2)
                guard value.hasPrefix("1."), !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    throw error(at: nameStart, "XML version '\(value)' is not supported")
                }
            case "encoding":
                let lowered = value.lowercased()
                guard lowered == "utf-8" || lowered == "utf8" || isASCII else {
                    throw error(at: nameStart, "the file declares the encoding '\(value)'; only UTF-8 is read")
                }
            default:
                guard value == "yes" || value == "no" else {
                    throw error(at: nameStart, "standalone must be 'yes' or 'no', not '\(value)'")
                }
            }
        }
        guard seen.first == "version" else { throw error(at: start, "the XML declaration does not start with its version") }
    }

    /// Skips `<!DOCTYPE ...>` with its internal subset, without interpreting any of it.
    private mutating func skipDoctype() throws(XMLSyntaxError) {
        let start = position
        var index = position + 9
        guard isWhitespace(bytes[index]) else { throw error(at: start, "the DOCTYPE is malformed") }
        var inSubset = false
        while true {
            let byte = bytes[index]
            switch byte {
            case 0:
                throw error(at: count, "the file ends inside the DOCTYPE")
            case .doubleQuote, .singleQuote:
                index += 1
                while bytes[index] != byte {
                    if bytes[index] == 0 { throw error(at: count, "the file ends inside the DOCTYPE") }
                    index += 1
                }
            case .openBracket where !inSubset:
                inSubset = true
            case .closeBracket where inSubset:
                inSubset = false
            case .lessThan where inSubset && bytes[index + 1] == .exclamation && bytes[index + 2] == .hyphen && bytes[index + 3] == .hyphen:
                index = try endOfComment(from: index) - 1
            case .lessThan where inSubset && bytes[index + 1] == .questionMark:
                index += 2
                while !(bytes[index] == .questionMark && bytes[index + 1] == .greaterThan) {
                    if bytes[index] == 0 { throw error(at: count, "the file ends inside the DOCTYPE") }
                    index += 1
                }
                index += 1
            case .greaterThan where !inSubset:
                position = index + 1
                return
            default:
                break
            }
            index += 1
        }
    }

    // MARK: - Bytes

    /// Every byte is valid UTF-8 and an XML character: no NUL or other control but tab, LF
    /// and CR, no U+FFFE or U+FFFF.
    private mutating func checkCharacters() throws(XMLSyntaxError) {
        var index = position
        var carriageReturns = false
        var ascii = true
        var bad = -1
        var reason = ""
        bytes.withUnsafeBufferPointer { buffer in
            let end = count
            while index < end {
                let byte = buffer[index]
                if byte < 0x80 {
                    if byte < 0x20 {
                        if byte == .carriageReturn {
                            carriageReturns = true
                        } else if byte != .tab && byte != .lineFeed {
                            bad = index
                            reason = "the control character 0x\(String(byte, radix: 16, uppercase: true)) is not allowed in XML"
                            return
                        }
                    }
                    index += 1
                    continue
                }
                ascii = false
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                let trailing: Int
                switch byte {
                case 0xC2...0xDF: trailing = 1
                case 0xE0: trailing = 2; low = 0xA0
                case 0xE1...0xEC, 0xEE, 0xEF: trailing = 2
                case 0xED: trailing = 2; high = 0x9F
                case 0xF0: trailing = 3; low = 0x90
                case 0xF1...0xF3: trailing = 3
                case 0xF4: trailing = 3; high = 0x8F
                default: trailing = 0
                }
                // The 0 after the end is never a continuation byte, so this cannot run past it.
                var valid = trailing > 0 && buffer[index + 1] >= low && buffer[index + 1] <= high
                var offset = 2
                while valid, offset <= trailing {
                    valid = buffer[index + offset] & 0xC0 == 0x80
                    offset += 1
                }
                guard valid else {
                    bad = index
                    reason = "the bytes are not valid UTF-8"
                    return
                }
                if byte == 0xEF, buffer[index + 1] == 0xBF, buffer[index + 2] >= 0xBE {
                    bad = index
                    reason = "U+FFFE and U+FFFF are not allowed in XML"
                    return
                }
                index += trailing + 1
            }
        }
        if bad >= 0 { throw error(at: bad, reason) }
        hasCarriageReturns = carriageReturns
        isASCII = ascii
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while isWhitespace(bytes[position]) { position += 1 }
        return position > start
    }

    private func matches(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard position + length <= count else { return false }
        return literal.withUTF8Buffer { literal in
            for offset in 0..<length where bytes[position + offset] != literal[offset] { return false }
            return true
        }
    }

    private func sameBytes(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        guard first.count == second.count else { return false }
        for offset in 0..<first.count where bytes[first.lowerBound + offset] != bytes[second.lowerBound + offset] {
            return false
        }
        return true
    }

    private func sameBytes(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { literal in
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != literal[offset] { return false }
            return true
        }
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .lineFeed || byte == .tab || byte == .carriageReturn
    }

    /// A byte that may start a name: ASCII letter, '_', or any non-ASCII character. (':' is
    /// allowed by XML but not by namespaces, so it is not a start here.)
    private func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == .underscore || byte >= 0x80
    }

    /// A byte that may continue a name, ':' aside.
    private func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == .hyphen || byte == .period
    }

    // MARK: - Lines and errors

    /// The 1-based line of `offset`; counts forward from the last answer, so asking in document
    /// order reads each byte once.
    private mutating func lineNumber(at offset: Int) -> Int {
        let line = Self.countLines(in: bytes, from: countedTo, line: countedLines, to: offset)
        if offset >= countedTo {
            countedTo = offset
            countedLines = line
        }
        return line
    }

    private static func countLines(in bytes: [UInt8], from start: Int, line: Int, to offset: Int) -> Int {
        var index = start
        var line = line
        if offset < start {
            index = 0
            line = 1
        }
        bytes.withUnsafeBufferPointer { buffer in
            while index < offset {
                let byte = buffer[index]
                if byte == .lineFeed || (byte == .carriageReturn && buffer[index + 1] != .lineFeed) { line += 1 }
                index += 1
            }
        }
        return line
    }

    private func error(at offset: Int, _ reason: String) -> XMLSyntaxError {
        XMLSyntaxError(line: Self.countLines(in: bytes, from: countedTo, line: countedLines, to: offset), reason: reason)
    }
}

extension [XMLScanner.Attribute] {
    /// The value of the attribute without a prefix called `localName`.
    func value(of localName: String) -> String? {
        first { $0.name.namespaceURI == nil && $0.name.localName == localName }?.value
    }
}

private extension UInt8 {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let exclamation: UInt8 = 0x21
    static let doubleQuote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let ampersand: UInt8 = 0x26
    static let singleQuote: UInt8 = 0x27
    static let hyphen: UInt8 = 0x2D
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let lessThan: UInt8 = 0x3C
    static let equals: UInt8 = 0x3D
    static let greaterThan: UInt8 = 0x3E
    static let questionMark: UInt8 = 0x3F
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let underscore: UInt8 = 0x5F
}
