/// Reads integers and byte runs from untrusted container bytes.
///
/// Every read checks the bounds first and throws `.invalidContainer` naming `context`, so a
/// truncated or hostile file becomes an error a person can read instead of a trap.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    /// What is being read, for the error message ("Ogg page at byte 4096", "CAF pakt chunk").
    let context: String

    init(_ bytes: [UInt8], offset: Int = 0, context: String) {
        self.bytes = bytes
        self.offset = offset
        self.context = context
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    func error(_ message: String) -> AudioPipelineError {
        AudioPipelineError(.invalidContainer, "\(context): \(message)")
    }

    private mutating func take(_ count: Int, _ what: String) throws -> Range<Int> {
        guard count >= 0, count <= remaining else {
            throw error("truncated: \(what) needs \(count) bytes but only \(remaining) remain")
        }
        defer { offset += count }
        return offset..<(offset + count)
    }

    mutating func skip(_ count: Int, _ what: String) throws {
        _ = try take(count, what)
    }

    mutating func readBytes(_ count: Int, _ what: String) throws -> [UInt8] {
        Array(bytes[try take(count, what)])
    }

    mutating func readUInt8(_ what: String) throws -> UInt8 {
        bytes[try take(1, what).lowerBound]
    }

    mutating func readLittleEndian<T: FixedWidthInteger>(_: T.Type, _ what: String) throws -> T {
        let range = try take(MemoryLayout<T>.size, what)
        var value: T = 0
        for index in range.reversed() { value = value << 8 | T(truncatingIfNeeded: bytes[index]) }
        return value
    }

    mutating func readBigEndian<T: FixedWidthInteger>(_: T.Type, _ what: String) throws -> T {
        let range = try take(MemoryLayout<T>.size, what)
        var value: T = 0
        for index in range { value = value << 8 | T(truncatingIfNeeded: bytes[index]) }
        return value
    }
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for shift in stride(from: 0, to: T.bitWidth, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}
