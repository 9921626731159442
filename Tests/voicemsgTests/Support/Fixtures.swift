import Foundation
import TestSupport

/// Input files for the CLI tests, good and bad, in one temporary folder per test process.
enum Fixtures {
    static let folder = ScratchSpace.folder("cli-fixtures")

    /// A fresh, empty folder.
    static func scratchFolder() throws -> URL { try ScratchSpace.fresh(in: folder) }

    /// Speech from espeak-ng with `lead` seconds of silence before it and `tail` after, as a
    /// 16-bit 22.05 kHz mono WAV (made once per test process).
    static func speechWAV(lead: Double = 0.5, tail: Double = 1.0) throws -> String {
        let key = "\(lead)-\(tail)"
        return try made.withLock { made in
            if let path = made[key] { return path }
            let raw = folder.appendingPathComponent("espeak-\(key).wav").path
            let path = folder.appendingPathComponent("speech-\(key).wav").path
            try Tool.run("espeak-ng", ["-w", raw, "Keep going Sam, you are doing great!"])
            try Tool.run("sox", [raw, "-b", "16", path, "pad", "\(lead)", "\(tail)"])
            made[key] = path
            return path
        }
    }

    private static let made = Locked<[String: String]>([:])

    /// A WAV file written byte by byte, so that its header can say anything.
    static func wav(format: UInt16 = 1, channels: UInt16, sampleRate: UInt32, bitsPerSample: UInt16,
                    dataSizeClaim: UInt32? = nil, riffSizeClaim: UInt32? = nil, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        let blockAlign = UInt16(truncatingIfNeeded: Int(channels) * Int(bitsPerSample) / 8)
        bytes += Array("RIFF".utf8); u32(riffSizeClaim ?? UInt32(36 + data.count))
        bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8); u32(16)
        u16(format); u16(channels); u32(sampleRate)
        u32(UInt32(truncatingIfNeeded: Int(sampleRate) * Int(blockAlign))); u16(blockAlign); u16(bitsPerSample)
        bytes += Array("data".utf8); u32(dataSizeClaim ?? UInt32(data.count))
        bytes += data
        return bytes
    }

    /// 32-bit float samples, little-endian.
    static func floatBytes(_ values: [Float]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    }

    /// The sample bytes of a canonical WAV file (whatever follows its `data` chunk header).
    static func wavData(_ bytes: [UInt8]) -> [UInt8] {
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if id == "data" { return Array(bytes[(offset + 8)...]) }
            offset += 8 + size + (size & 1)
        }
        return []
    }
}
