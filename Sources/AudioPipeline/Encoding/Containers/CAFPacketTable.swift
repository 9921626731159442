/// The `pakt` chunk (CAF specification, "Packet Table Chunk"). For Opus it carries what Ogg
/// keeps in granule positions: the priming frames are the pre-skip, and the remainder frames
/// are what the end trimming cuts from the last packet, so that
/// packets' frames = priming + valid + remainder.
struct CAFPacketTable: Equatable {
    var validFrameCount: Int64
    var primingFrameCount: Int32
    var remainderFrameCount: Int32
    var packetSizes: [Int]
    /// Per-packet frame counts, present only when `desc` says 0 frames per packet.
    var packetFrameCounts: [Int]?

    var serialized: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(Int64(packetSizes.count))
        bytes.appendBigEndian(validFrameCount)
        bytes.appendBigEndian(primingFrameCount)
        bytes.appendBigEndian(remainderFrameCount)
        for (index, size) in packetSizes.enumerated() {
            CAFVariableLengthInteger.append(size, to: &bytes)
            if let packetFrameCounts { CAFVariableLengthInteger.append(packetFrameCounts[index], to: &bytes) }
        }
        return bytes
    }

    init(validFrameCount: Int64, primingFrameCount: Int32, remainderFrameCount: Int32, packetSizes: [Int], packetFrameCounts: [Int]?) {
        self.validFrameCount = validFrameCount
        self.primingFrameCount = primingFrameCount
        self.remainderFrameCount = remainderFrameCount
        self.packetSizes = packetSizes
        self.packetFrameCounts = packetFrameCounts
    }

    init(parsing reader: inout ByteReader, hasVariableFrames: Bool) throws {
        let packetCount = try reader.readBigEndian(Int64.self, "number of packets")
        validFrameCount = try reader.readBigEndian(Int64.self, "number of valid frames")
        primingFrameCount = try reader.readBigEndian(Int32.self, "priming frames")
        remainderFrameCount = try reader.readBigEndian(Int32.self, "remainder frames")
        // Every entry takes at least one byte, which bounds an honest count.
        let bytesPerPacket = hasVariableFrames ? 2 : 1
        guard packetCount >= 0, packetCount <= Int64(reader.remaining / bytesPerPacket) else {
            throw reader.error("declares \(packetCount) packets but holds only \(reader.remaining) bytes of entries")
        }
        guard validFrameCount >= 0, primingFrameCount >= 0, remainderFrameCount >= 0 else {
            throw reader.error(
                "negative frame counts (valid \(validFrameCount), priming \(primingFrameCount), remainder \(remainderFrameCount))")
        }
        var sizes: [Int] = []
        var frames: [Int] = []
        sizes.reserveCapacity(Int(packetCount))
        for index in 0..<Int(packetCount) {
            sizes.append(try CAFVariableLengthInteger.read(from: &reader, "size of packet \(index)"))
            if hasVariableFrames {
                frames.append(try CAFVariableLengthInteger.read(from: &reader, "frames of packet \(index)"))
            }
        }
        packetSizes = sizes
        packetFrameCounts = hasVariableFrames ? frames : nil
    }
}
