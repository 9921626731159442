extension OggPage {
    /// Parses the page that starts at `reader`'s offset and checks its structure and checksum.
    static func parse(from reader: inout ByteReader) throws -> OggPage {
        let start = reader.offset
        var page = ByteReader(reader.bytes, offset: start, context: "Ogg page at byte \(start)")
        let capture = try page.readBytes(4, "capture pattern")
        guard capture == capturePattern else {
            throw page.error("no 'OggS' capture pattern; the data is not Ogg or is corrupted")
        }
        let version = try page.readUInt8("stream structure version")
        guard version == 0 else { throw page.error("unknown Ogg stream structure version \(version)") }
        let flags = Flags(rawValue: try page.readUInt8("header type"))
        let granule = try page.readLittleEndian(Int64.self, "granule position")
        let serial = try page.readLittleEndian(UInt32.self, "serial number")
        let sequence = try page.readLittleEndian(UInt32.self, "sequence number")
        let storedChecksum = try page.readLittleEndian(UInt32.self, "checksum")
        let segmentCount = Int(try page.readUInt8("segment count"))
        let lacing = try page.readBytes(segmentCount, "segment table")
        let bodySize = lacing.reduce(0) { $0 + Int($1) }
        let body = try page.readBytes(bodySize, "page body")

        var zeroed = Array(reader.bytes[start..<page.offset])
        zeroed.replaceSubrange(22..<26, with: [0, 0, 0, 0])
        let checksum = OggCRC.checksum(zeroed)
        guard checksum == storedChecksum else {
            throw page.error(
                "checksum mismatch (stored \(hex(storedChecksum)), computed \(hex(checksum))); the file is corrupted")
        }
        try reader.skip(page.offset - start, "page")
        return OggPage(
            flags: flags, granulePosition: granule, serialNumber: serial, sequenceNumber: sequence,
            lacingValues: lacing, body: body)
    }

    private static func hex(_ value: UInt32) -> String {
        "0x" + String(value, radix: 16, uppercase: true)
    }
}
