/// A deliberately separate reading of a WebM file for the tests, written from RFC 8794 (EBML)
/// and RFC 9559 (Matroska) and sharing no code with `WebMOpusWriter`, so the writer is judged
/// by something other than itself. It traps on malformed input, which is fine in a test.
struct IndependentWebMParser {
    struct Element {
        /// The ID as written, marker bits included (0x1A45DFA3 for the EBML header).
        var id: UInt32
        /// Where the element's ID starts in the file.
        var offset: Int
        /// Where its body starts in the file.
        var bodyOffset: Int
        var body: ArraySlice<UInt8>
        var children: [Element]

        func first(_ id: UInt32) -> Element? { children.first { $0.id == id } }
        func all(_ id: UInt32) -> [Element] { children.filter { $0.id == id } }
        subscript(_ id: UInt32) -> Element { first(id)! }

        var unsigned: UInt64 { body.reduce(0) { $0 << 8 | UInt64($1) } }
        var signed: Int64 {
            let shift = UInt64(64 - 8 * body.count)
            return Int64(bitPattern: unsigned << shift) >> Int64(shift)
        }
        var float: Double { body.count == 4 ? Double(Float(bitPattern: UInt32(unsigned))) : Double(bitPattern: unsigned) }
        var string: String { String(decoding: body.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// A Block or SimpleBlock body, split as RFC 9559's "Block Structure" and "SimpleBlock
    /// Structure" lay it out.
    struct Block {
        var track: UInt64
        var relativeTimestamp: Int16
        var flags: UInt8
        var frame: [UInt8]
    }

    /// Elements whose bodies are other elements, among those a WebM audio file holds.
    static let masters: Set<UInt32> = [
        0x1A45_DFA3, 0x1853_8067, 0x114D_9B74, 0x4DBB, 0x1549_A966, 0x1654_AE6B, 0xAE, 0xE1,
        0x1C53_BB6B, 0xBB, 0xB7, 0x1254_C367, 0x7373, 0x63C0, 0x67C8, 0x1F43_B675, 0xA0,
    ]

    let bytes: [UInt8]
    let topLevel: [Element]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        topLevel = Self.elements(in: bytes, bytes.indices)
    }

    var header: Element { topLevel.first { $0.id == 0x1A45_DFA3 }! }
    var segment: Element { topLevel.first { $0.id == 0x1853_8067 }! }
    var track: Element { segment[0x1654_AE6B][0xAE] }
    var clusters: [Element] { segment.all(0x1F43_B675) }

    /// Every block in file order, with its cluster's timestamp and, for a BlockGroup, its
    /// DiscardPadding.
    var blocks: [(clusterTimestamp: UInt64, block: Block, isSimple: Bool, discardPadding: Int64?)] {
        clusters.flatMap { cluster in
            let timestamp = cluster[0xE7].unsigned
            return cluster.children.compactMap { child -> (UInt64, Block, Bool, Int64?)? in
                switch child.id {
                case 0xA3: return (timestamp, Self.block(child.body), true, nil)
                case 0xA0: return (timestamp, Self.block(child[0xA1].body), false, child.first(0x75A2)?.signed)
                default: return nil
                }
            }
        }
    }

    static func elements(in bytes: [UInt8], _ range: Range<Int>) -> [Element] {
        var result: [Element] = []
        var at = range.lowerBound
        while at < range.upperBound {
            let start = at
            let idLength = bytes[at].leadingZeroBitCount + 1
            precondition(idLength <= 4, "an ID longer than 4 bytes at \(at)")
            let id = bytes[at..<at + idLength].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            at += idLength
            let sizeLength = bytes[at].leadingZeroBitCount + 1
            var size = UInt64(bytes[at] & (0xFF >> sizeLength))
            for byte in bytes[(at + 1)..<(at + sizeLength)] { size = size << 8 | UInt64(byte) }
            precondition(size != (UInt64(1) << (7 * sizeLength)) - 1, "unknown size at \(start)")
            at += sizeLength
            let end = at + Int(size)
            precondition(end <= range.upperBound, "element at \(start) runs past its parent")
            let children = masters.contains(id) ? elements(in: bytes, at..<end) : []
            result.append(Element(id: id, offset: start, bodyOffset: at, body: bytes[at..<end], children: children))
            at = end
        }
        return result
    }

    static func block(_ body: ArraySlice<UInt8>) -> Block {
        let bytes = Array(body)
        precondition(bytes[0] & 0x80 != 0, "track numbers above 127 are not expected here")
        return Block(
            track: UInt64(bytes[0] & 0x7F), relativeTimestamp: Int16(bitPattern: UInt16(bytes[1]) << 8 | UInt16(bytes[2])),
            flags: bytes[3], frame: Array(bytes[4...]))
    }
}
