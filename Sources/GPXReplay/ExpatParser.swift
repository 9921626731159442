import CExpat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

/// The one owner of a libexpat parser (`XML_Parser`): it creates the parser namespace-aware and
/// hardened, feeds it a document, turns expat's callbacks into `XMLEventHandler` calls and its
/// error codes into an `XMLDocumentError` with a line and words, and frees it in `deinit`.
/// Nothing outside this file sees the handle or a pointer expat hands out.
///
/// - Names arrive resolved: expat joins the namespace URI and the local name with U+0001,
///   which XML 1.0 does not allow in a document, so the split is unambiguous.
/// - Untrusted files cannot make it expand or nest without bound. A DOCTYPE may name its DTD
///   (`<!DOCTYPE gpx SYSTEM "…">`; nothing is ever fetched), but any entity declaration stops
///   the parse: GPX needs none, and entities are how a "billion laughs" file of a few hundred
///   bytes asks for gigabytes. expat's own amplification limit stands behind that. Elements
///   may nest `maximumDepth` deep, where a GPX file needs about 8.
/// - The document is fed in chunks of `chunkSize` bytes, so expat's own buffer stays small.
final class ExpatParser {
    static let maximumDepth = 256
    static let chunkSize = 1 << 16
    /// expat stops a document whose entities expand it more than this many times over...
    static let maximumAmplification: Float = 10
    /// ...once the expanded text passes this many bytes (expat's default is 8 MiB).
    static let amplificationThreshold: UInt64 = 1 << 20

    private static let separator = CChar(1)

    private let handle: XML_Parser
    private let handler: any XMLEventHandler
    /// The first error, from a handler or a refusal here; expat is stopped when it is set.
    private var failure: (any Error)?
    /// Local names and start lines of the open elements, for messages about unclosed ones.
    private var openElements: [(name: String, line: Int)] = []
    private var sawRootElement = false
    /// Whether expat is calling back with character data: only while the handler wants it, so
    /// the whitespace between tags costs no call at all.
    private var isReceivingText = false
    /// Namespace URIs seen so far, so each is decoded once rather than on every element.
    private var namespaces: [(bytes: [UInt8], uri: String)] = []

    /// Reads `document` from start to end, calling `handler` for each event.
    ///
    /// - Throws: `XMLDocumentError` when the document is not well-formed or is refused, or
    ///   whatever `handler` threw.
    static func parse(_ document: Data, into handler: some XMLEventHandler) throws {
        let parser = try ExpatParser(handler: handler)
        try parser.feed(document)
    }

    private init(handler: any XMLEventHandler) throws(XMLDocumentError) {
        guard let handle = XML_ParserCreateNS(nil, Self.separator) else {
            throw XMLDocumentError(line: 1, reason: "out of memory: expat could not create a parser")
        }
        self.handle = handle
        self.handler = handler
        // expat calls back with this pointer only from inside `feed`, while `self` is alive.
        XML_SetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(
            handle,
            { userData, name, attributes in
                guard let name, let attributes else { return }
                ExpatParser.from(userData).startElement(name, attributes)
            },
            { userData, _ in ExpatParser.from(userData).endElement() })
        XML_SetEntityDeclHandler(handle) { userData, name, isParameterEntity, _, _, _, _, _, _ in
            ExpatParser.from(userData).refuseEntityDeclaration(name, isParameter: isParameterEntity != 0)
        }
        // Called for a reference to an entity nobody declared, where expat cannot tell it is
        // an error (the DOCTYPE names an external DTD it does not read).
        XML_SetSkippedEntityHandler(handle) { userData, name, _ in
            ExpatParser.from(userData).refuseUndefinedEntity(name)
        }
        guard XML_SetBillionLaughsAttackProtectionMaximumAmplification(handle, Self.maximumAmplification) == XML_TRUE,
              XML_SetBillionLaughsAttackProtectionActivationThreshold(handle, Self.amplificationThreshold) == XML_TRUE
        else {
            // Every property is set, so deinit runs on this throw and frees the handle.
            throw XMLDocumentError(line: 1, reason: "expat refused its entity expansion limits")
        }
    }

    deinit {
        XML_ParserFree(handle)
    }

    private static let characterDataHandler: XML_CharacterDataHandler = { userData, text, length in
        guard let text else { return }
        ExpatParser.from(userData).characters(text, Int(length))
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> ExpatParser {
        Unmanaged<ExpatParser>.fromOpaque(userData!).takeUnretainedValue()
    }

    // MARK: - Feeding

    private func feed(_ document: Data) throws {
        let syntaxError = document.withUnsafeBytes { bytes -> XMLDocumentError? in
            var offset = 0
            repeat {
                let count = min(Self.chunkSize, bytes.count - offset)
                let chunk = bytes.baseAddress.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }
                let isFinal: Int32 = offset + count == bytes.count ? 1 : 0
                guard XML_Parse(handle, chunk, Int32(count), isFinal) == XML_STATUS_OK else {
                    return expatError(in: bytes)
                }
                offset += count
            } while offset < bytes.count
            return nil
        }
        if let failure { throw failure }
        if let syntaxError { throw syntaxError }
    }

    private var currentLine: Int { Int(XML_GetCurrentLineNumber(handle)) }

    /// Keeps the first error and stops expat; it may still report the end of an empty element,
    /// so every callback checks `failure` first.
    private func stop(_ error: any Error) {
        if failure == nil { failure = error }
        XML_StopParser(handle, XML_Bool(XML_FALSE))
    }

    private func refuse(_ reason: String) {
        stop(XMLDocumentError(line: currentLine, reason: reason))
    }

    // MARK: - Callbacks

    private func startElement(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) {
        guard failure == nil else { return }
        let line = currentLine
        guard openElements.count < Self.maximumDepth else {
            return refuse(
                "elements are nested more than \(Self.maximumDepth) deep (a GPX file needs about 8); the file is refused")
        }
        let resolved = resolve(name)
        openElements.append((resolved.localName, line))
        sawRootElement = true
        do {
            try handler.startElement(resolved, line: line) { key in
                Self.value(of: key, in: attributes)
            }
        } catch {
            return stop(error)
        }
        updateTextHandler()
    }

    private func endElement() {
        guard failure == nil else { return }
        openElements.removeLast()
        do {
            try handler.endElement(line: currentLine)
        } catch {
            return stop(error)
        }
        updateTextHandler()
    }

    private func updateTextHandler() {
        let wantsText = handler.wantsText
        guard wantsText != isReceivingText else { return }
        XML_SetCharacterDataHandler(handle, wantsText ? Self.characterDataHandler : nil)
        isReceivingText = wantsText
    }

    private func characters(_ text: UnsafePointer<CChar>, _ length: Int) {
        guard failure == nil else { return }
        handler.characters(String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self))
    }

    private func refuseEntityDeclaration(_ name: UnsafePointer<CChar>?, isParameter: Bool) {
        guard failure == nil else { return }
        let written = (isParameter ? "%" : "") + (name.map { String(cString: $0) } ?? "")
        refuse(
            "the DOCTYPE declares the entity '\(written)'; GPX needs no entities and they can expand a small file without bound (\"billion laughs\"), so the file is refused")
    }

    private func refuseUndefinedEntity(_ name: UnsafePointer<CChar>?) {
        guard failure == nil else { return }
        let written = name.map { String(cString: $0) } ?? ""
        refuse(
            "malformed XML: the entity '&\(written);' is not defined (XML defines only &lt; &gt; &amp; &quot; &apos;)")
    }

    // MARK: - Names and attributes

    /// `uri U+0001 local` or `local` as an `XMLName`.
    private func resolve(_ name: UnsafePointer<CChar>) -> XMLName {
        guard let separator = strchr(name, Int32(Self.separator)) else {
            return XMLName(namespaceURI: nil, localName: String(cString: name))
        }
        let uri = UnsafeRawBufferPointer(start: name, count: name.distance(to: separator))
        return XMLName(namespaceURI: namespace(uri), localName: String(cString: separator + 1))
    }

    private func namespace(_ bytes: UnsafeRawBufferPointer) -> String {
        for known in namespaces where known.bytes.count == bytes.count {
            let isEqual = known.bytes.withUnsafeBytes { knownBytes in
                guard let knownStart = knownBytes.baseAddress, let start = bytes.baseAddress else { return true }
                return memcmp(knownStart, start, bytes.count) == 0
            }
            if isEqual { return known.uri }
        }
        let uri = String(decoding: bytes, as: UTF8.self)
        // A file declares a handful; the cap keeps a hostile one from making the search slow.
        if namespaces.count < 32 { namespaces.append((Array(bytes), uri)) }
        return uri
    }

    /// The value of the unprefixed attribute `key`, from expat's NULL-terminated list of
    /// name, value pairs.
    private static func value(
        of key: String, in attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) -> String? {
        var index = 0
        while let name = attributes[index] {
            if let value = attributes[index + 1], key.withCString({ strcmp(name, $0) }) == 0 {
                return String(cString: value)
            }
            index += 2
        }
        return nil
    }

    // MARK: - Errors

    /// expat's error, with the line it gives and the reason in words; `document` is what was
    /// fed, for the bytes where expat stopped.
    private func expatError(in document: UnsafeRawBufferPointer) -> XMLDocumentError {
        let code = XML_GetErrorCode(handle)
        if code == XML_ERROR_NO_ELEMENTS, !sawRootElement {
            return XMLDocumentError(
                line: currentLine, reason: "malformed XML: the file ends before its root element",
                isMissingRootElement: true)
        }
        let offset = min(max(Int(XML_GetCurrentByteIndex(handle)), 0), document.count)
        let reason = Self.reason(for: code, in: document, at: offset, inside: openElements.last)
        let expatWords = String(cString: XML_ErrorString(code))
        return XMLDocumentError(line: currentLine, reason: "malformed XML: \(reason) (expat: \(expatWords))")
    }
}
