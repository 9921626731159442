/// The byte stream between `voicemsg-decode` (the isolated FFmpeg decoder) and the process that
/// starts it. Both sides build against this one definition, so they cannot drift apart.
///
/// The child writes records on its stdout: a tag byte, a 32-bit little-endian payload length,
/// then the payload. Decoding, first one `format` record, then `samples` records (32-bit float,
/// little-endian, the channels interleaved); encoding (`Launch.Mode.encodeAAC`), `bytes`
/// records that together are the file; and last either `done` or `failure`. A stream that
/// ends without one of those two means the child died: the parent learns why from its exit
/// status. The parent trusts nothing in it: every length is bounded and every value checked.
public enum DecoderWire {
    public enum Tag: UInt8, Sendable {
        case format = 0x46  // "F"
        case samples = 0x53  // "S"
        /// A piece of the encoded file, in order.
        case bytes = 0x42  // "B"
        case done = 0x44  // "D"
        case failure = 0x45  // "E"
    }

    /// The most bytes one record may carry; the child sends samples in much smaller pieces.
    public static let maximumPayload = 1 << 20

    /// The 5 bytes before a payload.
    public static func recordHeader(_ tag: Tag, length: Int) -> [UInt8] {
        let size = UInt32(length)
        return [tag.rawValue, UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
    }

    /// Reads a record header; nil when the tag is unknown or the length is out of bounds.
    public static func parseRecordHeader(_ bytes: some Collection<UInt8>) -> (tag: Tag, length: Int)? {
        guard bytes.count == 5 else { return nil }
        let values = Array(bytes)
        guard let tag = Tag(rawValue: values[0]) else { return nil }
        let length = Int(values[1]) | Int(values[2]) << 8 | Int(values[3]) << 16 | Int(values[4]) << 24
        guard length <= maximumPayload else { return nil }
        return (tag, length)
    }

    /// What the child found, sent after the first decoded frame, when the rate and channel count
    /// are the decoder's and not only the container's (HE-AAC doubles the rate of its header).
    public struct Format: Sendable, Equatable {
        public var sampleRate: Int
        public var channelCount: Int
        /// FFmpeg's demuxer name and description, e.g. "mov,mp4,m4a,3gp,3g2,mj2" and "QuickTime / MOV".
        public var container: String
        public var containerDescription: String
        /// The decoder's codec name and description, e.g. "aac" and "AAC (Advanced Audio Coding)".
        public var codec: String
        public var codecDescription: String
        /// The decoder FFmpeg was asked for by name, e.g. "libopencore_amrnb".
        public var decoder: String
        /// The length the container declares, in seconds, when it declares one.
        public var declaredSeconds: Double?

        public init(sampleRate: Int, channelCount: Int, container: String, containerDescription: String,
                    codec: String, codecDescription: String, decoder: String, declaredSeconds: Double?) {
            self.sampleRate = sampleRate
            self.channelCount = channelCount
            self.container = container
            self.containerDescription = containerDescription
            self.codec = codec
            self.codecDescription = codecDescription
            self.decoder = decoder
            self.declaredSeconds = declaredSeconds
        }

        /// `key=value` lines; values never hold a newline.
        public var encoded: [UInt8] {
            var lines = [
                "rate=\(sampleRate)", "channels=\(channelCount)",
                "container=\(DecoderWire.clean(container))", "containerDescription=\(DecoderWire.clean(containerDescription))",
                "codec=\(DecoderWire.clean(codec))", "codecDescription=\(DecoderWire.clean(codecDescription))",
                "decoder=\(DecoderWire.clean(decoder))",
            ]
            if let declaredSeconds, declaredSeconds.isFinite { lines.append("declaredSeconds=\(declaredSeconds)") }
            return Array(lines.joined(separator: "\n").utf8)
        }

        public init?(decoding bytes: [UInt8]) {
            let fields = DecoderWire.fields(bytes)
            guard let rate = fields["rate"].flatMap({ Int($0) }), let channels = fields["channels"].flatMap({ Int($0) }) else {
                return nil
            }
            self.init(
                sampleRate: rate, channelCount: channels,
                container: fields["container"] ?? "", containerDescription: fields["containerDescription"] ?? "",
                codec: fields["codec"] ?? "", codecDescription: fields["codecDescription"] ?? "",
                decoder: fields["decoder"] ?? "", declaredSeconds: fields["declaredSeconds"].flatMap { Double($0) })
        }
    }

    /// Why the child gave up, in words for a person, with the kind that decides how the caller
    /// classifies it.
    public struct Failure: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// The bytes are not audio FFmpeg can read, or they are broken.
            case unreadable
            /// Audio, but outside the limits (too long, odd rate, too many channels).
            case unsupported
        }

        public var kind: Kind
        public var message: String

        public init(_ kind: Kind, _ message: String) {
            self.kind = kind
            self.message = message
        }

        public var encoded: [UInt8] { Array("\(kind.rawValue)\n\(DecoderWire.clean(message))".utf8) }

        public init?(decoding bytes: [UInt8]) {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let newline = text.firstIndex(of: "\n"), let kind = Kind(rawValue: String(text[..<newline])) else {
                return nil
            }
            self.init(kind, String(text[text.index(after: newline)...]))
        }
    }

    /// The limits the parent asks the child to put on itself, as command-line arguments.
    public struct Limits: Sendable, Equatable {
        /// CPU seconds (RLIMIT_CPU).
        public var cpuSeconds: Int
        /// Address space, bytes (RLIMIT_AS).
        public var addressSpaceBytes: Int
        /// The longest audio decoded before the child stops by itself, seconds.
        public var maximumSeconds: Double

        public init(cpuSeconds: Int, addressSpaceBytes: Int, maximumSeconds: Double) {
            self.cpuSeconds = cpuSeconds
            self.addressSpaceBytes = addressSpaceBytes
            self.maximumSeconds = maximumSeconds
        }

        public var arguments: [String] {
            ["--cpu-seconds", "\(cpuSeconds)", "--address-space", "\(addressSpaceBytes)", "--maximum-seconds", "\(maximumSeconds)"]
        }

        /// Parses what `arguments` wrote; nil for anything else.
        public init?(arguments: [String]) {
            var values: [String: String] = [:]
            var index = 0
            while index + 1 < arguments.count {
                values[arguments[index]] = arguments[index + 1]
                index += 2
            }
            guard index == arguments.count, values.count == 3,
                  let cpu = values["--cpu-seconds"].flatMap({ Int($0) }), cpu > 0,
                  let space = values["--address-space"].flatMap({ Int($0) }), space > 0,
                  let seconds = values["--maximum-seconds"].flatMap({ Double($0) }), seconds > 0 else { return nil }
            self.init(cpuSeconds: cpu, addressSpaceBytes: space, maximumSeconds: seconds)
        }
    }

    /// How the parent starts the child: what it does, the limits, and the process the child
    /// must die with.
    public struct Launch: Sendable, Equatable {
        /// What the child does with its input.
        public enum Mode: Sendable, Equatable {
            /// Demux and decode the recording on descriptor 0; `format` and `samples` out.
            case decode
            /// Encode the PCM on descriptor 0 (mono, `encoderSampleRate`, 16-bit little-endian,
            /// to its end) as AAC-LC at `bitrate` bits per second in an MP4 (M4A) file; `bytes`
            /// out. The PCM is the pipeline's own, but the encoder and the muxer run behind the
            /// same walls as the decoder: FFmpeg is loaded in this process only.
            case encodeAAC(bitrate: Int)
        }

        public var mode: Mode
        public var limits: Limits
        /// The spawning process's id. The child asks the kernel to kill it when its parent
        /// ends, then checks that its parent is still this one: a parent that died in between
        /// leaves the child with another, and the child stops before it reads a byte.
        public var parentProcessID: Int32

        public init(mode: Mode = .decode, limits: Limits, parentProcessID: Int32) {
            self.mode = mode
            self.limits = limits
            self.parentProcessID = parentProcessID
        }

        public var arguments: [String] {
            var arguments: [String] = []
            if case .encodeAAC(let bitrate) = mode { arguments = ["--encode-aac", "\(bitrate)"] }
            return arguments + limits.arguments + ["--parent", "\(parentProcessID)"]
        }

        /// Parses what `arguments` wrote; nil for anything else.
        public init?(arguments: [String]) {
            var arguments = arguments
            var mode = Mode.decode
            if arguments.first == "--encode-aac" {
                guard arguments.count >= 2, let bitrate = Int(arguments[1]), DecoderWire.aacBitrates.contains(bitrate) else {
                    return nil
                }
                mode = .encodeAAC(bitrate: bitrate)
                arguments.removeFirst(2)
            }
            guard arguments.count >= 2, arguments[arguments.count - 2] == "--parent",
                  let parent = Int32(arguments[arguments.count - 1]), parent > 0,
                  let limits = Limits(arguments: Array(arguments.dropLast(2))) else { return nil }
            self.init(mode: mode, limits: limits, parentProcessID: parent)
        }
    }

    /// The rate of the PCM the encode mode reads: the pipeline's, Opus's 48 kHz, so the AAC
    /// and the Opus message share every sample position.
    public static let encoderSampleRate = 48_000
    /// The AAC bitrates the encode mode takes, bits per second: FFmpeg's encoder codes mono
    /// AAC-LC at 48 kHz from about 16 kb/s; above 256 kb/s nothing is gained.
    public static let aacBitrates = 16_000...256_000

    /// The child's exit status when it cannot put up its sandbox (a kernel without seccomp, a
    /// limit refused) or its parent is already gone: it decodes nothing, and the cause is the
    /// machine, not the file.
    public static let sandboxUnavailableStatus: Int32 = 3

    static func clean(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    static func fields(_ bytes: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }
}
