import Foundation
import Testing
@testable import AudioPipeline
import TestSupport

@Suite struct CompactSignalTests {
    /// What one block of 256 stores, by definition: steps of the block's peak / 32767, each value
    /// rounded half away from zero.
    static func expected(_ block: [Float]) -> [Float] {
        let peak = block.map(abs).max() ?? 0
        let step = peak > 0 ? peak / Float(Int16.max) : 1
        let inverse = 1 / step
        return block.map { Float(Int16(max(-32767, min(32767, ($0 * inverse).rounded())))) * step }
    }

    static func stored(_ samples: [Float], pieces: Int) -> [Float] {
        var signal = CompactSignal()
        let size = max(1, samples.count / pieces)
        samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + size)
                signal.append(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        signal.finish()
        var read = [Float](repeating: 0, count: signal.count)
        read.withUnsafeMutableBufferPointer { signal.read(0..<samples.count, into: $0.baseAddress!) }
        return read
    }

    /// Exact halves, the values either side of them and the extremes, where a rounding shortcut
    /// would go wrong; in blocks whose peak is 32767, so that a value is its own step count.
    @Test(arguments: [1, 3, 1000])
    func roundsHalvesAwayFromZero(pieces: Int) {
        var block: [Float] = [32767, -32767, 32766.5, -32766.5, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0, -0.0]
        for whole in [0, 1, 2, 3, 100, 4095, 16384, 32765] as [Float] {
            for value in [whole + 0.5, (whole + 0.5).nextUp, (whole + 0.5).nextDown, whole.nextUp, (whole + 1).nextDown] {
                block += [value, -value]
            }
        }
        var generator = SeededGenerator(seed: 5)
        while block.count < 256 { block.append(Float(generator.nextSignedUnit()) * 32767) }
        // A second block at an unrelated level, and a partial third one.
        let quiet = (0..<256).map { _ in Float(generator.nextSignedUnit()) * 0.003 }
        let tail = (0..<37).map { _ in Float(generator.nextSignedUnit()) * 0.5 }
        let samples = block + quiet + tail
        let expected = Self.expected(block) + Self.expected(quiet) + Self.expected(tail)
        let stored = Self.stored(samples, pieces: pieces)
        let mismatches = samples.indices.filter { stored[$0] != expected[$0] }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map { (samples[$0], stored[$0], expected[$0]) })")
    }
}
