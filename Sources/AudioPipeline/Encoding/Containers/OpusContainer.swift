/// The two containers voicemsg writes Opus in, so callers (encode, inspect, convert, simulate,
/// the server) can read either and rewrap without re-encoding.
///
/// A file is recognised by its bytes, one way for every caller: Ogg Opus starts with an Ogg
/// page whose first packet is the `OpusHead` identification header (RFC 7845 §3 puts it alone
/// on the first page), and Opus in CAF starts with the `caff` header followed by the `desc`
/// chunk of 'opus' audio (the CAF specification puts `desc` first). So Ogg Vorbis and CAF
/// holding PCM are not mistaken for Opus.
public enum OpusContainer: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Ogg Opus (RFC 7845), `.opus`: every Opus decoder and browser.
    case ogg
    /// Opus in Core Audio Format, `.caf`: what AVAudioPlayer plays on iOS.
    case caf

    /// The container for a file name's extension: `.caf` is CAF, `.opus`, `.ogg` and `.oga`
    /// are Ogg; anything else is nil.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "caf": self = .caf
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
    public var pathExtension: String { self == .ogg ? "opus" : "caf" }

    /// "Ogg Opus" or "Opus in CAF".
    public var description: String { self == .ogg ? "Ogg Opus" : "Opus in CAF" }

    /// Reads an Opus stream from Ogg or CAF bytes, whichever they are.
    public static func read(_ bytes: some Collection<UInt8>) throws -> (OpusStream, OpusContainer) {
        guard let container = OpusContainer(detecting: bytes) else {
            let head = Array(bytes.prefix(4))
            let reason = head == Array("OggS".utf8) ? "an Ogg file, but its first packet is not an Opus header"
                : head == Array("caff".utf8) ? "a CAF file, but it does not start with a 'desc' chunk of Opus audio"
                : "no 'OggS' or 'caff' at the start"
            throw AudioPipelineError(.invalidContainer, "neither Ogg Opus nor Opus in CAF (\(reason))")
        }
        return (try container.read(bytes), container)
    }

    /// The stream in bytes of this container.
    public func read(_ bytes: some Collection<UInt8>) throws -> OpusStream {
        switch self {
        case .ogg: return try OggOpusReader.read(bytes)
        case .caf: return try CAFOpusReader.read(bytes)
        }
    }

    /// The stream in this container.
    public func write(_ stream: OpusStream) throws -> [UInt8] {
        switch self {
        case .ogg: return try OggOpusWriter.write(stream)
        case .caf: return try CAFOpusWriter.write(stream)
        }
    }
}
