import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signal's block peaks as `BlockPeakCollector` leaves them (exact where they reached the
/// highest peak so far, upper bounds elsewhere), made exact on demand above a threshold by
/// reading the signal again around just those blocks.
///
/// The limiter's gain search asks for the peaks above `ceiling / gain` for a few gains; only
/// the loud blocks ever pass that, so most of the 4x interpolation is never done. The values
/// it hands out always agree with exact peaks wherever they matter: above the threshold they
/// are exact, and at or below it so are exact ones.
///
/// `@unchecked Sendable` is safe: the `let`s never change after `init`, and the two mutable
/// arrays are read and written only while holding `lock`.
final class BlockPeakTable: @unchecked Sendable {
    let source: any SampleSource
    /// The signal's true peak, linear.
    let highest: Float
    private let estimator: InterSamplePeakEstimator
    // Guarded by `lock`, a serial queue: the table is shared by every copy of the analysis that owns it.
    private let lock = DispatchQueue(label: "voicemsg.BlockPeakTable")
    private var peaks: [Float]
    private var isExact: BlockBits

    /// Takes the block peaks of `source` that `collector` has seen all of.
    init(_ collector: BlockPeakCollector, source: any SampleSource) {
        var collector = collector
        self.source = source
        estimator = collector.estimator
        peaks = collector.finish()
        isExact = collector.isExact
        highest = peaks.max() ?? 0
    }

    /// The block peaks, exact wherever they are above `threshold`.
    func peaks(exactAbove threshold: Float) -> [Float] {
        lock.sync {
            refine(above: threshold)
            return peaks
        }
    }

    /// The longest run of blocks read at once.
    private static let runBlocks = 256

    private func refine(above threshold: Float) {
        let size = BlockPeakCollector.size, before = BlockPeakCollector.before, after = BlockPeakCollector.after
        let count = source.count
        var x = [Float](), scratch = [Float](repeating: 0, count: size)
        var k = 0
        while k < peaks.count {
            guard !isExact[k], peaks[k] > threshold else { k += 1; continue }
            var end = k + 1
            while end < peaks.count, end - k < Self.runBlocks, !isExact[end], peaks[end] > threshold { end += 1 }
            // Samples k * size - before ..< end * size + after, zeros outside the signal.
            let first = k * size - before
            let length = (end - k) * size + before + after
            x = [Float](repeating: 0, count: length)
            let from = max(0, first), to = min(count, first + length)
            x.withUnsafeMutableBufferPointer { x in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    if from < to { source.read(from..<to, into: x.baseAddress! + (from - first)) }
                    for block in k..<end {
                        let intervals = min(size, count - block * size)
                        peaks[block] = BlockPeakCollector.exactPeak(
                            x.baseAddress! + (block - k) * size, length: intervals,
                            estimator: estimator, scratch: scratch.baseAddress!)
                        isExact[block] = true
                    }
                }
            }
            k = end
        }
    }
}
