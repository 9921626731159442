/// Turns the pages of one Ogg Opus stream back into its headers and audio packets, enforcing
/// the page rules of RFC 7845 §3 and the granule rules of §4.
struct OggOpusPacketAssembler {
    private var serialNumber: UInt32?
    private var expectedSequence: UInt32 = 0
    /// The bytes of a packet that continues on the next page.
    private var partialPacket: [UInt8]?
    private var header: OpusIdentificationHeader?
    private var tags: OpusTags?
    private var packets: [[UInt8]] = []
    private var decodedSampleCount: Int64 = 0
    /// The granule position of the stream's first sample: 0 unless the stream was cut from a
    /// longer one (§4.5).
    private var startGranule: Int64?
    private var lastGranule: Int64 = 0
    private(set) var hasEnded = false

    private func error(_ message: String) -> AudioPipelineError {
        AudioPipelineError(.invalidContainer, message)
    }

    mutating func consume(_ page: OggPage) throws {
        try checkStream(of: page)
        if page.flags.contains(.continued) != (partialPacket != nil) {
            throw error(
                partialPacket == nil
                    ? "continues a packet, but no packet was in progress"
                    : "the previous page's last packet is unfinished, but this page does not continue it")
        }

        var completed: [[UInt8]] = []
        var current = partialPacket ?? []
        var inProgress = partialPacket != nil
        var bodyOffset = 0
        for lacing in page.lacingValues {
            let length = Int(lacing)
            current.append(contentsOf: page.body[bodyOffset..<(bodyOffset + length)])
            bodyOffset += length
            inProgress = true
            if length < 255 {
                completed.append(current)
                current = []
                inProgress = false
            }
        }
        partialPacket = inProgress ? current : nil

        var audioSamplesOnPage: Int64 = 0
        for (index, packet) in completed.enumerated() {
            if header == nil {
                header = try OpusIdentificationHeader(parsing: packet)
                guard page.flags.contains(.beginningOfStream), completed.count == 1, partialPacket == nil else {
                    throw error("the OpusHead packet must be alone on the first page (RFC 7845 §3)")
                }
            } else if tags == nil {
                tags = try OpusTags(parsingCommentHeader: packet)
                guard index == completed.count - 1, partialPacket == nil else {
                    throw error("audio data shares a page with the OpusTags packet; RFC 7845 §3 requires the header pages to end first")
                }
            } else {
                audioSamplesOnPage += Int64(try OpusPacket.sampleCount(packet))
                packets.append(packet)
            }
        }
        if audioSamplesOnPage > 0 { try checkGranule(of: page, samples: audioSamplesOnPage) }

        if page.flags.contains(.endOfStream) {
            guard partialPacket == nil else { throw error("the stream ends in the middle of a packet") }
            hasEnded = true
        }
    }

    private mutating func checkStream(of page: OggPage) throws {
        guard let serialNumber else {
            guard page.flags.contains(.beginningOfStream) else {
                throw error("the first page is not marked as the beginning of a stream")
            }
            serialNumber = page.serialNumber
            expectedSequence = page.sequenceNumber &+ 1
            return
        }
        guard page.serialNumber == serialNumber else {
            throw error(
                page.flags.contains(.beginningOfStream)
                    ? "multiplexed Ogg streams are not supported: a second stream (serial \(page.serialNumber)) begins"
                    : "belongs to another stream (serial \(page.serialNumber), expected \(serialNumber))")
        }
        guard !page.flags.contains(.beginningOfStream) else {
            throw error("marked as the beginning of the stream, but the stream has already begun")
        }
        guard page.sequenceNumber == expectedSequence else {
            throw error("sequence number \(page.sequenceNumber), expected \(expectedSequence): a page is missing or out of order")
        }
        expectedSequence = page.sequenceNumber &+ 1
    }

    private mutating func checkGranule(of page: OggPage, samples: Int64) throws {
        let granule = page.granulePosition
        guard granule >= 0 else {
            throw error("packets end on this page, but its granule position is \(granule)")
        }
        guard granule >= lastGranule else {
            throw error("granule position \(granule) is below the previous page's \(lastGranule)")
        }
        if startGranule == nil {
            // A first page whose granule is below its own samples is only legal as end
            // trimming on the very last page (§4.5).
            if granule < samples, !page.flags.contains(.endOfStream) {
                throw error("the first audio page's granule position \(granule) is below the \(samples) samples it completes")
            }
            startGranule = max(0, granule - samples)
        }
        decodedSampleCount += samples
        lastGranule = granule
    }

    /// The stream, once every page has been consumed.
    func finish() throws -> OpusStream {
        guard let header else { throw error("no OpusHead packet: the file ends before the Opus headers") }
        guard let tags else { throw error("no OpusTags packet: the file ends before the comment header") }
        guard hasEnded else {
            throw error("no end-of-stream page: the file is truncated")
        }
        var validSampleCount: Int64 = 0
        if let startGranule {
            let end = lastGranule - startGranule
            guard end <= decodedSampleCount else {
                throw error("the last granule position claims \(end) samples, but the packets decode to only \(decodedSampleCount)")
            }
            guard end >= Int64(header.preSkip) else {
                throw error("the last granule position (\(end) samples) is below the pre-skip of \(header.preSkip)")
            }
            validSampleCount = end - Int64(header.preSkip)
        }
        return OpusStream(
            channelCount: header.channelCount, preSkip: header.preSkip,
            inputSampleRate: header.inputSampleRate, outputGain: header.outputGain,
            packets: packets, validSampleCount: validSampleCount, tags: tags)
    }
}
