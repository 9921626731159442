/// The variable-length integers of a CAF packet table: seven bits per byte, most significant
/// group first, the high bit set on every byte but the last (CAF specification, "Packet Table
/// Chunk").
enum CAFVariableLengthInteger {
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        precondition(value >= 0, "packet table entries are never negative")
        var groups: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            groups.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(contentsOf: groups.reversed())
    }

    /// Reads one entry. Entries are packet sizes and frame counts, which CAF keeps in 32 bits,
    /// so anything longer than five bytes is corruption rather than a large value.
    static func read(from reader: inout ByteReader, _ what: String) throws -> Int {
        var value = 0
        for _ in 0..<5 {
            let byte = try reader.readUInt8(what)
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        throw reader.error("\(what) is longer than five bytes; the packet table is corrupted")
    }
}
