extension OpusTags {
    static let commentHeaderMagic: [UInt8] = Array("OpusTags".utf8)

    /// The `OpusTags` packet (RFC 7845 §5.2): the vendor string, then `KEY=value` comments,
    /// all lengths 32-bit little-endian.
    func commentHeader() throws -> [UInt8] {
        var bytes = Self.commentHeaderMagic
        let vendorBytes = Array(vendor.utf8)
        bytes.appendLittleEndian(UInt32(vendorBytes.count))
        bytes.append(contentsOf: vendorBytes)
        bytes.appendLittleEndian(UInt32(entries.count))
        for entry in entries {
            // Vorbis comment field names are printable ASCII without '=' (0x20...0x7D).
            guard !entry.key.isEmpty,
                entry.key.utf8.allSatisfy({ (0x20...0x7D).contains($0) && $0 != UInt8(ascii: "=") })
            else {
                throw AudioPipelineError(
                    .invalidContainer, "tag key '\(entry.key)' is not a valid comment field name (printable ASCII, no '=')")
            }
            let comment = Array("\(entry.key)=\(entry.value)".utf8)
            bytes.appendLittleEndian(UInt32(comment.count))
            bytes.append(contentsOf: comment)
        }
        return bytes
    }

    /// Parses an `OpusTags` packet. A comment without '=' is kept as a key with an empty value,
    /// since players treat such comments leniently too.
    init(parsingCommentHeader packet: [UInt8]) throws {
        var reader = ByteReader(packet, context: "OpusTags")
        guard packet.starts(with: Self.commentHeaderMagic) else {
            throw reader.error("the second packet is not an Opus comment header (no 'OpusTags' magic)")
        }
        try reader.skip(Self.commentHeaderMagic.count, "magic")
        let vendorLength = try reader.readLittleEndian(UInt32.self, "vendor string length")
        let vendorBytes = try reader.readBytes(Int(vendorLength), "vendor string")
        let count = Int(try reader.readLittleEndian(UInt32.self, "comment count"))
        // Each comment needs at least its 4-byte length: a larger count cannot be honest.
        guard count <= reader.remaining / 4 else {
            throw reader.error("declares \(count) comments but only \(reader.remaining) bytes remain")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let length = try reader.readLittleEndian(UInt32.self, "length of comment \(index)")
            let comment = String(decoding: try reader.readBytes(Int(length), "comment \(index)"), as: UTF8.self)
            if let equals = comment.firstIndex(of: "=") {
                entries.append(Entry(key: String(comment[..<equals]), value: String(comment[comment.index(after: equals)...])))
            } else {
                entries.append(Entry(key: comment, value: ""))
            }
        }
        self.init(vendor: String(decoding: vendorBytes, as: UTF8.self), entries: entries)
    }
}
