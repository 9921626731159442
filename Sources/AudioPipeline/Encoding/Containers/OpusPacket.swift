/// Reads the table-of-contents byte of an Opus packet (RFC 6716 §3.1) to learn how many
/// 48 kHz samples the packet decodes to, which is what Ogg granule positions and CAF frame
/// counts are made of. The packet itself is never decoded.
public enum OpusPacket {
    /// The longest duration a packet may have: 120 ms at 48 kHz (RFC 6716 §3.2.5).
    public static let maximumSampleCount = 5_760

    /// Samples per frame at 48 kHz for the TOC's configuration number (RFC 6716 table 2).
    public static func samplesPerFrame(toc: UInt8) -> Int {
        let configuration = Int(toc >> 3)
        switch configuration {
        case 0..<12: return [480, 960, 1_920, 2_880][configuration % 4]  // SILK: 10, 20, 40, 60 ms
        case 12..<16: return [480, 960][configuration % 2]  // Hybrid: 10, 20 ms
        default: return [120, 240, 480, 960][configuration % 4]  // CELT: 2.5, 5, 10, 20 ms
        }
    }

    /// The number of frames in the packet: 1 for code 0, 2 for codes 1 and 2, and the count
    /// byte's low six bits for code 3.
    public static func frameCount(_ packet: some Collection<UInt8>) throws -> Int {
        guard let toc = packet.first else {
            throw AudioPipelineError(.invalidContainer, "empty Opus packet (a packet has at least a TOC byte)")
        }
        switch toc & 0x03 {
        case 0: return 1
        case 1, 2: return 2
        default:
            guard packet.count >= 2 else {
                throw AudioPipelineError(.invalidContainer, "Opus packet with TOC code 3 has no frame count byte")
            }
            let count = Int(packet[packet.index(after: packet.startIndex)] & 0x3F)
            guard count > 0 else {
                throw AudioPipelineError(.invalidContainer, "Opus packet with TOC code 3 declares zero frames")
            }
            return count
        }
    }

    /// The number of samples at 48 kHz that the packet decodes to, per channel.
    public static func sampleCount(_ packet: some Collection<UInt8>) throws -> Int {
        let frames = try frameCount(packet)
        let samples = frames * samplesPerFrame(toc: packet.first!)
        guard samples <= maximumSampleCount else {
            throw AudioPipelineError(
                .invalidContainer,
                "Opus packet lasts \(samples) samples, more than the 120 ms (5760 samples) a packet may hold")
        }
        return samples
    }
}
