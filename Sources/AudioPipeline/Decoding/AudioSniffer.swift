/// What a recording is, by its first bytes: the magic numbers of the containers voicemsg reads.
/// Names, extensions and Content-Type headers are never consulted, because a phone or a browser
/// gets them wrong as often as right (an `.m4a` holding AMR, an upload typed `video/webm`).
public enum AudioSniffer {
    /// A container recognized by its magic number.
    public enum Format: String, Sendable, CaseIterable {
        case wav, aiff, au, flac, ogg, mp3, caf
        case webm, matroska, mp4, m4a, threeGP = "3gp", quickTime = "mov", adts, amrNB = "amr-nb", amrWB = "amr-wb"

        /// A name for people, as `inspect` shows it.
        public var description: String {
            switch self {
            case .wav: return "WAV"
            case .aiff: return "AIFF"
            case .au: return "AU"
            case .flac: return "FLAC"
            case .ogg: return "Ogg"
            case .mp3: return "MP3"
            case .caf: return "CAF"
            case .webm: return "WebM"
            case .matroska: return "Matroska"
            case .mp4: return "MP4"
            case .m4a: return "M4A"
            case .threeGP: return "3GP"
            case .quickTime: return "QuickTime MOV"
            case .adts: return "ADTS AAC"
            case .amrNB: return "AMR-NB"
            case .amrWB: return "AMR-WB"
            }
        }

        /// Which decoder reads it: libsndfile in-process, FFmpeg in the isolated child, or
        /// libsndfile first and the child when libsndfile refuses (CAF holding AAC or ALAC).
        ///
        /// MP3 goes to the child: libsndfile decodes it with libmpg123, which prints its own
        /// warnings ("Note: Illegal Audio-MPEG-Header ...", "Warning: Xing stream size off")
        /// on the CLI's stderr and offers libsndfile no way to quiet them; FFmpeg's log is the
        /// child's, and the child keeps it to itself.
        enum Reader { case libsndfile, libsndfileThenFFmpeg, ffmpeg }

        var reader: Reader {
            switch self {
            case .wav, .aiff, .au, .flac, .ogg: return .libsndfile
            case .caf: return .libsndfileThenFFmpeg
            case .mp3, .webm, .matroska, .mp4, .m4a, .threeGP, .quickTime, .adts, .amrNB, .amrWB: return .ffmpeg
            }
        }
    }

    /// How many bytes `recognize(prefix:)` wants to see; fewer are fine for most formats.
    public static let prefixLength = 64

    /// The container `prefix` (the first bytes of a file) starts, or nil when it is none of them.
    public static func recognize(prefix: some Collection<UInt8>) -> Format? {
        let bytes = Array(prefix.prefix(prefixLength))
        func text(_ at: Int, _ count: Int) -> String? {
            at + count <= bytes.count ? String(decoding: bytes[at..<(at + count)], as: UTF8.self) : nil
        }
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            offset + magic.count <= bytes.count && Array(bytes[offset..<(offset + magic.count)]) == magic
        }
        switch text(0, 4) {
        case "RIFF" where text(8, 4) == "WAVE", "RF64", "BW64": return .wav
        case "FORM" where ["AIFF", "AIFC"].contains(text(8, 4)): return .aiff
        case ".snd": return .au
        case "fLaC": return .flac
        case "OggS": return .ogg
        case "caff": return .caf
        default: break
        }
        if starts(with: Array("#!AMR-WB\n".utf8)) { return .amrWB }
        if starts(with: Array("#!AMR\n".utf8)) { return .amrNB }
        if starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            // The EBML header's DocType (0x4282) says which: "webm" or "matroska".
            if Self.contains([0x42, 0x82, 0x84] + Array("webm".utf8), in: bytes) { return .webm }
            return .matroska
        }
        if text(4, 4) == "ftyp" {
            switch text(8, 4) {
            case "M4A ", "M4B ", "M4P ": return .m4a
            case let brand? where brand.hasPrefix("3g"): return .threeGP
            case "qt  ": return .quickTime
            default: return .mp4
            }
        }
        // QuickTime files from older tools start with a top-level atom other than ftyp.
        if let atom = text(4, 4), ["moov", "mdat", "wide", "free", "skip"].contains(atom) { return .quickTime }
        if starts(with: Array("ID3".utf8)) { return .mp3 }
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 {
            let layer = (bytes[1] >> 1) & 0x3
            let version = (bytes[1] >> 3) & 0x3
            // ADTS: MPEG-4 or -2 sync with layer 0 and a valid sampling-frequency index.
            if bytes[1] & 0xF6 == 0xF0, (bytes[2] >> 2) & 0xF < 13 { return .adts }
            // MPEG audio: a real layer and version, a bitrate index that is not "bad", a rate index.
            if layer != 0, version != 1, bytes[2] >> 4 != 0xF, (bytes[2] >> 2) & 0x3 != 3 { return .mp3 }
        }
        return nil
    }

    /// What the bytes are instead, when they are a common file that is not audio: "a JPEG
    /// image", "an HTML page". For the refusal of an upload; nil when nothing is recognized.
    public static func nonAudioDescription(prefix: some Collection<UInt8>) -> String? {
        let bytes = Array(prefix.prefix(prefixLength))
        func starts(_ magic: [UInt8]) -> Bool { bytes.starts(with: magic) }
        if starts([0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if starts([0x89] + Array("PNG".utf8)) { return "a PNG image" }
        if starts(Array("GIF8".utf8)) { return "a GIF image" }
        if starts(Array("%PDF".utf8)) { return "a PDF document" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive" }
        if bytes.count >= 12, starts(Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "a WebP image" }
        let text = String(decoding: bytes, as: UTF8.self)
            .drop { $0 == "\u{FEFF}" || $0.isWhitespace }.lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head") { return "an HTML page" }
        if text.hasPrefix("<?xml") || text.hasPrefix("<svg") { return "an XML document" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON text" }
        // Printable text throughout (a form, a note, an error page): no audio container starts so.
        let printable = bytes.allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20...0x7E).contains($0) }
        if bytes.count >= 16, printable { return "plain text" }
        return nil
    }

    /// Why an upload starting with `prefix` is refused at once, in one line; nil when it starts
    /// like a recording, or like nothing known. Only bytes that are recognizably another kind of
    /// file are refused: an unknown start still goes to the decoder, which knows more formats
    /// than these magic numbers and says precisely what is wrong.
    public static func refusal(prefix: some Collection<UInt8>) -> String? {
        guard recognize(prefix: prefix) == nil, let what = nonAudioDescription(prefix: prefix) else { return nil }
        return "not a recording: the upload is \(what); send the audio file itself (WAV, FLAC, MP3, Ogg, WebM, MP4/M4A, AAC, AMR or CAF)"
    }

    private static func contains(_ magic: [UInt8], in bytes: [UInt8]) -> Bool {
        guard bytes.count >= magic.count else { return false }
        return (0...(bytes.count - magic.count)).contains { Array(bytes[$0..<($0 + magic.count)]) == magic }
    }
}
