/// Repacks ADTS AAC frames into a CAF file ('desc', 'kuki' with an MPEG-4 ES descriptor, 'pakt',
/// 'data'), as Apple's tools write AAC in CAF; ffmpeg has no CAF muxer for AAC. The packet
/// table states the encoder's priming and the source's length, as Apple's writer does.
enum CAFAACWriter {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func caf(fromADTS adts: [UInt8], primingFrames: Int, validFrames: Int) throws -> [UInt8] {
        var packets: [[UInt8]] = []
        var offset = 0
        var header: (profile: Int, rateIndex: Int, channels: Int)?
        while offset + 7 <= adts.count {
            guard adts[offset] == 0xFF, adts[offset + 1] & 0xF6 == 0xF0 else { throw Failure(description: "no ADTS sync at \(offset)") }
            let protectionAbsent = adts[offset + 1] & 1 == 1
            let length = Int(adts[offset + 3] & 0x3) << 11 | Int(adts[offset + 4]) << 3 | Int(adts[offset + 5]) >> 5
            let headerLength = protectionAbsent ? 7 : 9
            guard length > headerLength, offset + length <= adts.count else { throw Failure(description: "bad ADTS length at \(offset)") }
            header = header ?? (Int(adts[offset + 2] >> 6), Int(adts[offset + 2] >> 2 & 0xF),
                                Int(adts[offset + 2] & 1) << 2 | Int(adts[offset + 3] >> 6))
            packets.append(Array(adts[(offset + headerLength)..<(offset + length)]))
            offset += length
        }
        guard let header, !packets.isEmpty else { throw Failure(description: "no ADTS frames") }
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        let objectType = header.profile + 1
        let config = UInt16(objectType << 11 | header.rateIndex << 7 | header.channels << 3)

        var file: [UInt8] = Array("caff".utf8) + [0, 1, 0, 0]
        func chunk(_ type: String, _ body: [UInt8]) {
            file += Array(type.utf8) + be(UInt64(body.count)) + body
        }
        chunk("desc", be(Double(rates[header.rateIndex]).bitPattern) + Array("aac ".utf8) + be(UInt32(objectType))
              + be(UInt32(0)) + be(UInt32(1024)) + be(UInt32(header.channels)) + be(UInt32(0)))
        // An ES descriptor: ES_ID, a decoder config (AAC, audio stream) and the 2-byte
        // AudioSpecificConfig, after the 4 bytes of version and flags ffmpeg expects.
        let specific: [UInt8] = [0x05, 2] + be(config)
        let decoderConfig: [UInt8] = [0x04, UInt8(13 + specific.count), 0x40, 0x15, 0, 0, 0] + be(UInt32(0)) + be(UInt32(0)) + specific
        let es: [UInt8] = [0x03, UInt8(3 + decoderConfig.count + 3), 0, 0, 0] + decoderConfig + [0x06, 1, 2]
        chunk("kuki", [0, 0, 0, 0] + es)
        let remainder = packets.count * 1024 - primingFrames - validFrames
        guard remainder >= 0 else { throw Failure(description: "fewer frames than priming plus the valid ones") }
        var table = be(UInt64(packets.count)) + be(UInt64(validFrames)) + be(UInt32(primingFrames)) + be(UInt32(remainder))
        for packet in packets { table += variableLength(packet.count) }
        chunk("pakt", table)
        chunk("data", [0, 0, 0, 0] + packets.flatMap { $0 })
        return file
    }

    private static func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    private static func variableLength(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }
}
