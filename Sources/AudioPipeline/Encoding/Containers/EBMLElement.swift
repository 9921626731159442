/// One EBML element (RFC 8794) on its way into a file: its ID and its body, serialized.
///
/// IDs are written as they are defined, marker bits included (the EBML header's 0x1A45DFA3 is
/// four bytes). Sizes take the shortest variable-length integer that holds them, never the
/// all-ones form, which means "unknown size". Unsigned and signed integers take the fewest
/// bytes that hold them unless a fixed width is asked for: a position the writer only learns
/// after laying out the file must not change the size of the element that holds it.
struct EBMLElement {
    let id: UInt32
    let body: [UInt8]

    init(_ id: UInt32, body: [UInt8]) {
        self.id = id
        self.body = body
    }

    /// A master element: its children, in order.
    init(_ id: UInt32, children: [EBMLElement]) {
        var body: [UInt8] = []
        body.reserveCapacity(children.reduce(0) { $0 + $1.byteCount })
        for child in children { child.append(to: &body) }
        self.init(id, body: body)
    }

    /// An unsigned integer, in `width` bytes if given, else the fewest that hold it (at least one).
    init(_ id: UInt32, unsigned value: UInt64, width: Int? = nil) {
        let needed = max(1, (UInt64.bitWidth - value.leadingZeroBitCount + 7) / 8)
        let width = width ?? needed
        precondition(width >= needed && width <= 8, "\(value) does not fit in \(width) bytes")
        self.init(id, body: (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    /// A signed integer in two's complement, in the fewest bytes that keep its sign.
    init(_ id: UInt32, signed value: Int64) {
        var width = 8
        // Narrower while the bytes dropped are only copies of the sign.
        while width > 1, (value << (72 - 8 * width)) >> (72 - 8 * width) == value { width -= 1 }
        self.init(id, body: (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    /// A float, as an 8-byte IEEE 754 double.
    init(_ id: UInt32, float value: Double) {
        self.init(id, unsigned: value.bitPattern, width: 8)
    }

    /// An ASCII or UTF-8 string, without a terminator.
    init(_ id: UInt32, string: String) {
        self.init(id, body: Array(string.utf8))
    }

    /// The whole element: ID, size and body.
    var serialized: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        append(to: &bytes)
        return bytes
    }

    var byteCount: Int { Self.idLength(id) + Self.sizeLength(body.count) + body.count }

    func append(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: Self.encodedID(id))
        Self.appendSize(body.count, to: &bytes)
        bytes.append(contentsOf: body)
    }

    /// The ID's bytes as they appear in a file, which is also how a `SeekID` names an element.
    static func encodedID(_ id: UInt32) -> [UInt8] {
        stride(from: 8 * (idLength(id) - 1), through: 0, by: -8).map { UInt8(truncatingIfNeeded: id >> UInt32($0)) }
    }

    private static func idLength(_ id: UInt32) -> Int {
        max(1, (UInt32.bitWidth - id.leadingZeroBitCount + 7) / 8)
    }

    /// The length of the shortest variable-length integer for `size`: n bytes carry 7n bits,
    /// of which the all-ones value is reserved.
    static func sizeLength(_ size: Int) -> Int {
        var length = 1
        while UInt64(size) > (UInt64(1) << (7 * length)) - 2 { length += 1 }
        return length
    }

    /// `size` as a variable-length integer: a marker bit that gives the length, then the value.
    static func appendSize(_ size: Int, to bytes: inout [UInt8]) {
        let length = sizeLength(size)
        let marked = UInt64(size) | UInt64(1) << (7 * length)
        for shift in stride(from: 8 * (length - 1), through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: marked >> UInt64(shift)))
        }
    }
}
