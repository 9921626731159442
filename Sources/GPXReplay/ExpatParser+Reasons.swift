import CExpat

extension ExpatParser {
    /// expat's error code in words a person can act on, quoting the document where expat
    /// stopped (`offset`). `open` is the innermost element open then, with its start line.
    static func reason(
        for code: XML_Error, in document: UnsafeRawBufferPointer, at offset: Int,
        inside open: (name: String, line: Int)?
    ) -> String {
        let within = open.map { " inside <\($0.name)> from line \($0.line)" } ?? ""
        // expat reports the byte where it gave up, which may lie inside the token that is
        // wrong (`& b` is reported at the space): a bad token is quoted from its start.
        let token = code == XML_ERROR_INVALID_TOKEN || code == XML_ERROR_TAG_MISMATCH
            ? tokenStart(in: document, before: offset) : offset
        let quoted = offset < document.count ? " at '\(excerpt(of: document, from: token))'" : ""
        switch code {
        case XML_ERROR_NO_ELEMENTS:
            if let open { return "the file ends before <\(open.name)> from line \(open.line) is closed" }
            return "the file ends before its root element"
        case XML_ERROR_UNCLOSED_TOKEN:
            return "the file ends in the middle of a tag, comment or declaration\(within)"
        case XML_ERROR_PARTIAL_CHAR:
            return "the file ends in the middle of a UTF-8 character\(within)"
        case XML_ERROR_UNCLOSED_CDATA_SECTION:
            return "the file ends inside a CDATA section\(within)"
        case XML_ERROR_TAG_MISMATCH:
            let endTag = quoted.isEmpty ? "an end tag" : "the end tag '\(excerpt(of: document, from: token, through: ">"))'"
            if let open { return "\(endTag) does not match <\(open.name)> from line \(open.line)" }
            return "\(endTag) does not match its start tag"
        case XML_ERROR_INVALID_TOKEN:
            return notWellFormed(document, at: offset, tokenStart: token) + quoted
        case XML_ERROR_SYNTAX:
            return "markup that is neither an element, a comment nor a declaration\(quoted)"
        case XML_ERROR_DUPLICATE_ATTRIBUTE:
            return "an attribute appears twice in one tag\(quoted)"
        case XML_ERROR_JUNK_AFTER_DOC_ELEMENT:
            return "there is content after the root element\(quoted)"
        case XML_ERROR_UNDEFINED_ENTITY:
            return "an entity is not defined\(quoted) (XML defines only &lt; &gt; &amp; &quot; &apos;)"
        case XML_ERROR_BAD_CHAR_REF:
            return "a character reference names a character XML does not allow\(quoted)"
        case XML_ERROR_MISPLACED_XML_PI:
            return "an XML declaration (<?xml …?>) is only allowed at the very start\(quoted)"
        case XML_ERROR_XML_DECL:
            return "the XML declaration (<?xml …?>) is not well-formed"
        case XML_ERROR_UNKNOWN_ENCODING:
            return "the XML declaration names an encoding expat cannot read (save the file as UTF-8)"
        case XML_ERROR_INCORRECT_ENCODING:
            return "the bytes do not match the encoding the XML declaration names"
        case XML_ERROR_UNBOUND_PREFIX:
            return "a namespace prefix is used that no xmlns attribute declares\(quoted)"
        case XML_ERROR_UNDECLARING_PREFIX:
            return "a namespace prefix is declared empty (xmlns:p=\"\")\(quoted)"
        case XML_ERROR_RESERVED_PREFIX_XML, XML_ERROR_RESERVED_PREFIX_XMLNS, XML_ERROR_RESERVED_NAMESPACE_URI:
            return "the reserved prefix xml or xmlns, or its namespace, is bound the wrong way\(quoted)"
        case XML_ERROR_AMPLIFICATION_LIMIT_BREACH:
            return "entities expand to far more text than the file holds (\"billion laughs\")"
        case XML_ERROR_NO_MEMORY:
            return "out of memory"
        default:
            return "expat error \(code.rawValue)\(quoted)"
        }
    }

    /// What "not well-formed (invalid token)" most likely means, judged by the byte where expat
    /// gave up and by the first byte of the token it lies in.
    private static func notWellFormed(
        _ document: UnsafeRawBufferPointer, at offset: Int, tokenStart: Int
    ) -> String {
        guard offset < document.count else { return "the file ends where XML cannot end" }
        let byte = document[offset]
        func starts(_ prefix: String) -> Bool {
            document[tokenStart...].starts(with: prefix.utf8)
        }
        if byte >= 0x80 {
            return "bytes that are not valid UTF-8, or a character XML does not allow"
        }
        if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
            return "the control character 0x\(String(byte, radix: 16, uppercase: true)), which XML does not allow"
        }
        if byte == UInt8(ascii: ">"), offset >= 2, document[(offset - 2)..<offset].elementsEqual("]]".utf8) {
            return "']]>' is not allowed in text"
        }
        if starts("&") {
            return "'&' starts neither an entity such as &amp; nor a character reference such as &#233;"
        }
        if starts("<!--") { return "'--' is not allowed inside a comment" }
        if starts("<!") { return "'<!' starts neither a comment nor a CDATA section here" }
        if tokenStart == offset, byte == UInt8(ascii: "<") {
            return "a '<' where none may be (a tag before it not closed with '>', or a '<' not written &lt;)"
        }
        return "a tag that is not well-formed (a name is missing or wrong, an attribute value has no quotes, or attributes no space between them)"
    }

    /// Where the token holding `offset` starts: the last '<' or '&' at most 40 bytes before
    /// it on the same line, or `offset` itself. A byte XML does not allow is its own token.
    private static func tokenStart(in document: UnsafeRawBufferPointer, before offset: Int) -> Int {
        guard offset < document.count else { return offset }
        let byte = document[offset]
        if byte >= 0x80 || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) { return offset }
        var index = offset - 1
        while index >= 0, index > offset - 40 {
            switch document[index] {
            case UInt8(ascii: "<"), UInt8(ascii: "&"): return index
            case 0x0A, 0x0D: return offset
            default: index -= 1
            }
        }
        return offset
    }

    /// Up to 20 bytes of `document` from `start`, on one line and printable, ending after
    /// `terminator` when it comes first.
    private static func excerpt(
        of document: UnsafeRawBufferPointer, from start: Int, through terminator: Unicode.Scalar? = nil
    ) -> String {
        var text = ""
        for byte in document[start...].prefix(20) {
            switch byte {
            case 0x0A, 0x0D: return text
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(byte, radix: 16, uppercase: true)
            }
            if let terminator, byte == terminator.value { return text }
        }
        return text
    }
}
