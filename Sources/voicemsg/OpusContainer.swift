import AudioPipeline

/// The containers voicemsg reads Opus from, told apart by their first bytes.
enum OpusContainer: CustomStringConvertible {
    case ogg
    case caf

    static func detect(_ bytes: [UInt8]) -> OpusContainer? {
        let head = Array(bytes.prefix(200))
        if head.starts(with: Array("OggS".utf8)), contains(head, "OpusHead") { return .ogg }
        if head.starts(with: Array("caff".utf8)), contains(head, "desc"), contains(head, "opus") { return .caf }
        return nil
    }

    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func read(_ bytes: [UInt8]) throws -> OpusStream {
        switch self {
        case .ogg: return try OggOpusReader.read(bytes)
        case .caf: return try CAFOpusReader.read(bytes)
        }
    }

    var description: String { self == .ogg ? "Ogg Opus" : "Opus in CAF" }
}
