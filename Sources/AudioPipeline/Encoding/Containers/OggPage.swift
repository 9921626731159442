/// One Ogg page (RFC 3533 §6): a header, a segment table of lacing values and the body.
struct OggPage: Equatable {
    struct Flags: OptionSet, Equatable {
        let rawValue: UInt8
        /// The first packet on the page continues one from the previous page.
        static let continued = Flags(rawValue: 0x01)
        static let beginningOfStream = Flags(rawValue: 0x02)
        static let endOfStream = Flags(rawValue: 0x04)
    }

    static let capturePattern: [UInt8] = Array("OggS".utf8)
    static let headerSize = 27
    /// The granule position of a page on which no packet ends.
    static let noGranulePosition: Int64 = -1

    var flags: Flags
    var granulePosition: Int64
    var serialNumber: UInt32
    var sequenceNumber: UInt32
    var lacingValues: [UInt8]
    var body: [UInt8]

    /// The page as bytes, with its checksum filled in.
    var serialized: [UInt8] {
        var bytes = Self.capturePattern
        bytes.reserveCapacity(Self.headerSize + lacingValues.count + body.count)
        bytes.append(0)  // stream structure version
        bytes.append(flags.rawValue)
        bytes.appendLittleEndian(granulePosition)
        bytes.appendLittleEndian(serialNumber)
        bytes.appendLittleEndian(sequenceNumber)
        let checksumOffset = bytes.count
        bytes.appendLittleEndian(UInt32(0))
        bytes.append(UInt8(lacingValues.count))
        bytes.append(contentsOf: lacingValues)
        bytes.append(contentsOf: body)
        let checksum = OggCRC.checksum(bytes)
        for index in 0..<4 { bytes[checksumOffset + index] = UInt8(truncatingIfNeeded: checksum >> (8 * index)) }
        return bytes
    }
}
