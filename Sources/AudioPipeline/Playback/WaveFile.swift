import Foundation

/// A minimal RIFF/WAVE writer for the mixdown: 16-bit PCM, mono, little-endian. Samples are
/// clipped to ±1 and rounded (no dither: the messages are already 16-bit-clean speech).
public enum WaveFile {
    public static func pcm16(_ samples: [Float], sampleRate: Int) -> Data {
        let dataBytes = samples.count * 2
        var data = Data(capacity: 44 + dataBytes)
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        append32(UInt32(36 + dataBytes))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * 2))
        append16(2)
        append16(16)
        data.append(contentsOf: Array("data".utf8))
        append32(UInt32(dataBytes))
        var bytes = [UInt8](repeating: 0, count: dataBytes)
        for (index, sample) in samples.enumerated() {
            let clipped = sample.isFinite ? min(1, max(-1, sample)) : 0
            let value = UInt16(bitPattern: Int16((clipped * 32767).rounded()))
            bytes[2 * index] = UInt8(value & 0xFF)
            bytes[2 * index + 1] = UInt8(value >> 8)
        }
        data.append(contentsOf: bytes)
        return data
    }

    /// Writes atomically: a temporary file in the same folder, then a rename, so no partial
    /// file is ever left behind.
    public static func write(_ samples: [Float], sampleRate: Int, to path: String) throws {
        do {
            try pcm16(samples, sampleRate: sampleRate).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw AudioPipelineError(.io, "cannot write the WAV file: \(error.localizedDescription)", source: path)
        }
    }
}
