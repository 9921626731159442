/// A deliberately separate reading of a CAF file for the tests, written from the CAF
/// specification and sharing no code with `CAFOpusReader`, so the writer is judged by
/// something other than itself. It traps on malformed input, which is fine in a test.
struct IndependentCAFParser {
    struct PacketTable {
        var packetCount: Int64
        var validFrames: Int64
        var primingFrames: Int32
        var remainderFrames: Int32
        var packetSizes: [Int]
        /// Present when desc says 0 frames per packet: each entry is then a size and a frame count.
        var packetFrames: [Int]?
    }

    var chunkTypes: [String] = []
    var chunks: [String: [UInt8]] = [:]

    init(_ bytes: [UInt8]) {
        precondition(String(decoding: bytes[0..<4], as: UTF8.self) == "caff")
        var offset = 8
        while offset + 12 <= bytes.count {
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            var size = Int(Self.bigEndian(bytes[offset + 4..<offset + 12]))
            if size == -1 { size = bytes.count - offset - 12 }
            chunkTypes.append(type)
            chunks[type] = Array(bytes[offset + 12..<offset + 12 + size])
            offset += 12 + size
        }
    }

    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int64 {
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        // Sign-extend narrower fields.
        let shift = UInt64(64 - 8 * bytes.count)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    /// desc: sample rate, format, flags, bytes/packet, frames/packet, channels, bits.
    var description: (sampleRate: Double, format: String, bytesPerPacket: Int64, framesPerPacket: Int64, channels: Int64) {
        let d = chunks["desc"]!
        return (Double(bitPattern: UInt64(bitPattern: Self.bigEndian(d[0..<8]))),
                String(decoding: d[8..<12], as: UTF8.self),
                Self.bigEndian(d[16..<20]), Self.bigEndian(d[20..<24]), Self.bigEndian(d[24..<28]))
    }

    /// pakt: one size per packet, or a size and a frame count when packets vary in length.
    var packetTable: PacketTable {
        let p = chunks["pakt"]!
        var table = PacketTable(
            packetCount: Self.bigEndian(p[0..<8]), validFrames: Self.bigEndian(p[8..<16]),
            primingFrames: Int32(Self.bigEndian(p[16..<20])), remainderFrames: Int32(Self.bigEndian(p[20..<24])),
            packetSizes: [])
        let variableFrames = description.framesPerPacket == 0
        var entries: [Int] = []
        var index = 24
        while index < p.count {
            var value = 0
            while p[index] & 0x80 != 0 { value = (value << 7) | Int(p[index] & 0x7F); index += 1 }
            value = (value << 7) | Int(p[index]); index += 1
            entries.append(value)
        }
        if variableFrames {
            table.packetSizes = stride(from: 0, to: entries.count, by: 2).map { entries[$0] }
            table.packetFrames = stride(from: 1, to: entries.count, by: 2).map { entries[$0] }
        } else {
            table.packetSizes = entries
        }
        return table
    }

    /// info: count, then NUL-terminated key and value strings.
    var info: [String: String] {
        guard let i = chunks["info"] else { return [:] }
        let strings = i[4...].split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var result: [String: String] = [:]
        for pair in 0..<Int(Self.bigEndian(i[0..<4])) { result[strings[2 * pair]] = strings[2 * pair + 1] }
        return result
    }

    /// The audio bytes after the 4-byte edit count.
    var audioByteCount: Int { chunks["data"]!.count - 4 }
}
