/// An element name with its namespace resolved: `<g:speed xmlns:g="urn:x">` is `speed` in
/// `urn:x`, whatever the prefix.
struct XMLName: Hashable, Sendable {
    /// nil when the element is in no namespace.
    var namespaceURI: String?
    var localName: String
}

/// What `ExpatParser` tells a reader, one event at a time, in document order. Whatever a
/// method throws stops the parse and is rethrown by `ExpatParser.parse`.
protocol XMLEventHandler: AnyObject {
    /// Whether character data is wanted from here on; asked after every start and end tag, so
    /// text nobody reads is never copied, nor even reported.
    var wantsText: Bool { get }

    /// A start tag on `line`. `attribute` looks up an attribute written without a prefix (`lat`,
    /// `version`), decoded and with its whitespace normalised; it is only valid during the call.
    func startElement(_ name: XMLName, line: Int, attribute: (String) -> String?) throws

    /// The end of the innermost open element (an empty `<a/>` has both a start and an end).
    func endElement(line: Int) throws

    /// Character data, decoded. One run of text may arrive in several pieces.
    func characters(_ text: String)
}
