/// The two containers voicemsg writes Opus in, so callers (inspect, convert, the server) can
/// read either and rewrap without re-encoding.
public enum OpusFileFormat: String, Sendable, CaseIterable, Codable {
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

    /// The container the bytes start like, from their magic number, or nil.
    public init?(detecting bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(4))
        if head == Array("OggS".utf8) {
            self = .ogg
        } else if head == Array("caff".utf8) {
            self = .caf
        } else {
            return nil
        }
    }

    /// The usual file extension, without the dot.
    public var pathExtension: String { self == .ogg ? "opus" : "caf" }

    /// Reads an Opus stream from Ogg or CAF bytes, whichever they are.
    public static func read(_ bytes: some Collection<UInt8>) throws -> (OpusStream, OpusFileFormat) {
        switch OpusFileFormat(detecting: bytes) {
        case .ogg: return (try OggOpusReader.read(bytes), .ogg)
        case .caf: return (try CAFOpusReader.read(bytes), .caf)
        case nil:
            throw AudioPipelineError(.invalidContainer, "neither Ogg Opus nor Opus in CAF (no 'OggS' or 'caff' at the start)")
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
