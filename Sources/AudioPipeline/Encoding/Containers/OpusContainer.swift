/// The containers voicemsg writes Opus in, so callers (encode, inspect, convert, simulate, the
/// server) can read Ogg or CAF and rewrap into any of them without re-encoding.
///
/// A file is recognised by its bytes, one way for every caller: Ogg Opus starts with an Ogg
/// page whose first packet is the `OpusHead` identification header (RFC 7845 §3 puts it alone
/// on the first page), and Opus in CAF starts with the `caff` header followed by the `desc`
/// chunk of 'opus' audio (the CAF specification puts `desc` first). So Ogg Vorbis and CAF
/// holding PCM are not mistaken for Opus.
///
/// WebM is written, never read back here: a WebM file is what browsers record, and those go
/// through the decoder like any other recording (`encode`, `inspect`), so detection never
/// answers `.webm`.
public enum OpusContainer: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Ogg Opus (RFC 7845), `.opus`: every Opus decoder and browser.
    case ogg
    /// Opus in Core Audio Format, `.caf`: what AVAudioPlayer plays on iOS.
    case caf
    /// Opus in WebM, `.webm`: what Safari plays on iOS 17.4 to 18.3, which play neither of
    /// the others in `<audio>`, and every Chromium and Firefox.
    case webm

    /// The container for a file name's extension: `.caf` is CAF, `.webm` WebM, `.opus`, `.ogg`
    /// and `.oga` are Ogg; anything else is nil.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "caf": self = .caf
        case "webm": self = .webm
        case "opus", "ogg", "oga": self = .ogg
        default: return nil
        }
    }

    /// The container the bytes hold Opus in, or nil when they are not Opus in either.
    public init?(detecting bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(Self.headLength))
        if Self.isOggOpus(head) {
            self = .ogg
        } else if Self.isCAFOpus(head) {
            self = .caf
        } else {
            return nil
        }
    }

    /// How many leading bytes `init(detecting:)` reads: an Ogg page header with a full
    /// segment table and the start of its first packet, or the CAF header and its `desc` chunk.
    public static let headLength = 27 + 255 + 8

    /// `OggS`, stream structure version 0, then `OpusHead` where the first page's first
    /// packet begins, after the 27-byte page header and its segment table.
    private static func isOggOpus(_ head: [UInt8]) -> Bool {
        guard head.count >= 27, head.starts(with: Array("OggS".utf8)), head[4] == 0 else { return false }
        let packet = 27 + Int(head[26])
        return head.count >= packet + 8 && head[packet..<(packet + 8)].elementsEqual("OpusHead".utf8)
    }

    /// `caff`, file version 1, then a `desc` chunk whose format ID (after the 8-byte sample
    /// rate) is `opus`.
    private static func isCAFOpus(_ head: [UInt8]) -> Bool {
        guard head.count >= 32, head.starts(with: Array("caff".utf8)), head[4] == 0, head[5] == 1 else { return false }
        return head[8..<12].elementsEqual("desc".utf8) && head[28..<32].elementsEqual("opus".utf8)
    }

    /// The usual file extension, without the dot.
    public var pathExtension: String {
        switch self {
        case .ogg: return "opus"
        case .caf: return "caf"
        case .webm: return "webm"
        }
    }

    /// The media type a server sends it as.
    public var mediaType: String {
        switch self {
        case .ogg: return "audio/ogg"
        case .caf: return "audio/x-caf"
        case .webm: return "audio/webm"
        }
    }

    /// "Ogg Opus", "Opus in CAF" or "Opus in WebM".
    public var description: String {
        switch self {
        case .ogg: return "Ogg Opus"
        case .caf: return "Opus in CAF"
        case .webm: return "Opus in WebM"
        }
    }

    /// Reads an Opus stream from Ogg or CAF bytes, whichever they are.
    public static func read(_ bytes: some Collection<UInt8>) throws -> (OpusStream, OpusContainer) {
        guard let container = OpusContainer(detecting: bytes) else {
            let head = Array(bytes.prefix(4))
            let reason = head == Array("OggS".utf8) ? "an Ogg file, but its first packet is not an Opus header"
                : head == Array("caff".utf8) ? "a CAF file, but it does not start with a 'desc' chunk of Opus audio"
                : head == EBMLElement.encodedID(MatroskaID.ebml) ? "a WebM or Matroska file, which voicemsg reads as a recording to encode, not as a message to rewrap"
                : "no 'OggS' or 'caff' at the start"
            throw AudioPipelineError(.invalidContainer, "neither Ogg Opus nor Opus in CAF (\(reason))")
        }
        return (try container.read(bytes), container)
    }

    /// The stream in bytes of this container. WebM throws: see the type's documentation.
    public func read(_ bytes: some Collection<UInt8>) throws -> OpusStream {
        switch self {
        case .ogg: return try OggOpusReader.read(bytes)
        case .caf: return try CAFOpusReader.read(bytes)
        case .webm:
            throw AudioPipelineError(
                .invalidContainer, "voicemsg writes Opus in WebM but reads WebM only as a recording to encode, not as a message to rewrap")
        }
    }

    /// The stream in this container.
    public func write(_ stream: OpusStream) throws -> [UInt8] {
        switch self {
        case .ogg: return try OggOpusWriter.write(stream)
        case .caf: return try CAFOpusWriter.write(stream)
        case .webm: return try WebMOpusWriter.write(stream)
        }
    }
}
