#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// BS.1770-4's K-weighting filter (a high shelf for the head, then the RLB high-pass) and its
/// gated integration, for loudness searches that must run many times on the same audio.
///
/// `LoudnessMeter` (libebur128) stays the measuring instrument; this exists because the
/// normalizer's gain search needs the loudness of `x · g(n)` for many gain curves `g`, and the
/// K-weighted power of a signal times a slowly varying gain is, to a few hundredths of a dB,
/// the K-weighted power times the gain squared. So the filter runs once, its power is summed
/// per `GainCurve` block, and each search step is a multiply-add per block.
///
/// Visible to the Benchmarks package through `@_spi(Benchmarks)`, and to nothing else.
@_spi(Benchmarks) public struct KWeighting: Sendable {
    /// The K-weighted power of the input summed over each `GainCurve` block.
    let blockPower: [Float]
    let sampleCount: Int
    let sampleRate: Int

    @_spi(Benchmarks) public init(_ samples: [Float], sampleRate: Int) {
        var builder = Builder(sampleRate: sampleRate, expectedSampleCount: samples.count)
        samples.withUnsafeBufferPointer { builder.append($0) }
        self = builder.finish()
    }

    /// Builds a `KWeighting` from a signal that arrives in pieces.
    struct Builder {
        private var shelf, highPass: Biquad
        private var power: [Float] = []
        private var sum = 0.0
        private var inBlock = 0
        private var count = 0
        let sampleRate: Int

        init(sampleRate: Int, expectedSampleCount: Int = 0) {
            power.reserveCapacity(GainCurve.blockCount(expectedSampleCount))
            shelf = Biquad.kWeightingShelf(sampleRate: Double(sampleRate))
            highPass = Biquad.kWeightingHighPass(sampleRate: Double(sampleRate))
            self.sampleRate = sampleRate
        }

        mutating func append(_ samples: UnsafeBufferPointer<Float>) {
            for sample in samples {
                let y = highPass.process(shelf.process(Double(sample)))
                sum += y * y
                inBlock += 1
                if inBlock == GainCurve.blockSize {
                    power.append(Float(sum))
                    sum = 0
                    inBlock = 0
                }
            }
            count += samples.count
        }

        mutating func finish() -> KWeighting {
            if inBlock > 0 { power.append(Float(sum)) }
            return KWeighting(blockPower: power, sampleCount: count, sampleRate: sampleRate)
        }
    }

    private init(blockPower: [Float], sampleCount: Int, sampleRate: Int) {
        self.blockPower = blockPower
        self.sampleCount = sampleCount
        self.sampleRate = sampleRate
    }

    /// Integrated loudness in LUFS of the input scaled by `scale` and `gain`, gated per
    /// BS.1770-4: 400 ms blocks every 100 ms, an absolute gate at -70 LUFS and a relative gate
    /// 10 LU under the ungated mean. Clips shorter than one block get their ungated level.
    ///
    /// The 100 ms steps are whole `GainCurve` blocks: exact at 48 kHz (300 blocks), within a
    /// block's length elsewhere.
    @_spi(Benchmarks) public func loudness(gain: GainCurve? = nil, scale: Float = 1) -> Double? {
        let segmentBlocks = max(1, Int((Double(sampleRate) / 10 / Double(GainCurve.blockSize)).rounded()))
        let segment = segmentBlocks * GainCurve.blockSize
        let count = blockPower.count
        let scale2 = Double(scale * scale)
        var segments: [Double] = []
        segments.reserveCapacity(count / segmentBlocks + 1)
        var start = 0
        while start < count {
            let end = min(count, start + segmentBlocks)
            var sum: Float = 0
            if let gain {
                for k in start..<end { sum += blockPower[k] * gain.values[k] * gain.values[k] }
            } else {
                for k in start..<end { sum += blockPower[k] }
            }
            segments.append(Double(sum) * scale2)
            start = end
        }
        func lufs(_ power: Double) -> Double { -0.691 + 10 * log10(power) }

        let blockSegments = 4
        guard segments.count >= blockSegments, sampleCount >= 4 * segment else {
            let total = segments.reduce(0, +) / Double(max(sampleCount, 1))
            return total > 0 ? lufs(total) : nil
        }
        var blocks: [Double] = []
        for j in 0...(segments.count - blockSegments) where (j + blockSegments) * segment <= sampleCount {
            blocks.append(segments[j..<(j + blockSegments)].reduce(0, +) / Double(blockSegments * segment))
        }
        let absoluteGate = pow(10, (-70 + 0.691) / 10)
        let aboveAbsolute = blocks.filter { $0 > absoluteGate }
        guard !aboveAbsolute.isEmpty else { return nil }
        let relativeGate = aboveAbsolute.reduce(0, +) / Double(aboveAbsolute.count) * pow(10, -1.0)
        let gated = aboveAbsolute.filter { $0 > relativeGate }
        return lufs(gated.reduce(0, +) / Double(gated.count))
    }
}
