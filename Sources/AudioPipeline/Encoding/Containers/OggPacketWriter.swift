/// Lays packets out on Ogg pages for one logical stream: lacing, packets that span pages,
/// sequence numbers and granule positions. When a page is flushed is the caller's choice.
struct OggPacketWriter {
    let serialNumber: UInt32
    private(set) var bytes: [UInt8] = []
    private var sequenceNumber: UInt32 = 0
    private var lacingValues: [UInt8] = []
    private var body: [UInt8] = []
    /// The granule position of the last packet that ended on the pending page.
    private var pendingGranule = OggPage.noGranulePosition
    private var pendingIsContinued = false
    private var hasWrittenPage = false

    init(serialNumber: UInt32) {
        self.serialNumber = serialNumber
    }

    /// Bytes of packet data waiting on the unflushed page.
    var pendingBodySize: Int { body.count }
    var hasPendingData: Bool { !lacingValues.isEmpty }

    /// Appends `packet`, which ends at `granulePosition`. A page that fills up (255 lacing
    /// values) is written out at once; the rest waits for `flush`.
    mutating func append(_ packet: [UInt8], granulePosition: Int64) {
        var start = 0
        while true {
            if lacingValues.count == 255 { emitPage(flags: [], packetContinues: start > 0) }
            let length = min(255, packet.count - start)
            lacingValues.append(UInt8(length))
            body.append(contentsOf: packet[start..<(start + length)])
            start += length
            // A lacing value below 255 ends the packet, so a multiple of 255 needs a final 0.
            if length < 255 { break }
        }
        pendingGranule = granulePosition
    }

    /// Writes the pending page, if any; with `endOfStream`, marks it as the last page.
    mutating func flush(endOfStream: Bool = false) {
        guard hasPendingData || endOfStream else { return }
        emitPage(flags: endOfStream ? .endOfStream : [], packetContinues: false)
    }

    private mutating func emitPage(flags extraFlags: OggPage.Flags, packetContinues: Bool) {
        var flags = extraFlags
        if !hasWrittenPage { flags.insert(.beginningOfStream) }
        if pendingIsContinued { flags.insert(.continued) }
        let page = OggPage(
            flags: flags, granulePosition: pendingGranule, serialNumber: serialNumber,
            sequenceNumber: sequenceNumber, lacingValues: lacingValues, body: body)
        bytes.append(contentsOf: page.serialized)
        sequenceNumber &+= 1
        hasWrittenPage = true
        lacingValues.removeAll(keepingCapacity: true)
        body.removeAll(keepingCapacity: true)
        pendingGranule = OggPage.noGranulePosition
        pendingIsContinued = packetContinues
    }
}
