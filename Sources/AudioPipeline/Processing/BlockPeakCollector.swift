/// The highest interval peak within each `GainCurve` block of a signal that arrives in pieces,
/// computed only where it can matter.
///
/// A block's interpolated values are at most `gainBound` times the largest sample they read
/// (the block and reach/context samples either side). When that bound is no higher than
/// `exactAbove` and no higher than the highest true peak already found, the true peak cannot
/// pass the threshold nor raise the maximum, so the bound is stored instead and the 4x
/// interpolation is skipped. So:
/// - every block whose true peak passes `exactAbove` holds its true peak;
/// - the highest value is the signal's true peak;
/// - every other value is an upper bound of its block's true peak, no higher than
///   `exactAbove`, and `isExact` says which values are exact.
/// With `exactAbove` 0 every value is exact. Speech normalized under a ceiling, and the quiet
/// parts of any message, skip most blocks.
///
/// A collector made with `keepingOnlyExcesses` keeps just the blocks above `exactAbove` and the
/// highest peak, in constant memory.
struct BlockPeakCollector {
    static let size = GainCurve.blockSize
    /// Samples each interval reads before its own and after it.
    static let before = InterSamplePeakEstimator.reach
    static let after = InterSamplePeakEstimator.context - InterSamplePeakEstimator.reach

    let estimator: InterSamplePeakEstimator
    let exactAbove: Float
    let blockCount: Int
    /// Per block, unless only the excesses are kept.
    private(set) var peaks: [Float]
    private(set) var isExact: BlockBits
    /// The blocks whose true peak passes `exactAbove`, in order.
    private(set) var excesses: [(block: Int, peak: Float)] = []
    /// The highest true peak so far.
    private(set) var highest: Float = 0
    private let keepsEveryBlock: Bool
    /// x[first - before] ... : the context before the next block, then the samples not yet used.
    private var pending: [Float]
    private var next = 0
    private var intervals = [Float](repeating: 0, count: BlockPeakCollector.size)
    private static let chunk = 4096

    init(sampleCount: Int, exactAbove: Float = 0, keepingOnlyExcesses: Bool = false, estimator: InterSamplePeakEstimator = .init()) {
        self.estimator = estimator
        self.exactAbove = exactAbove
        blockCount = GainCurve.blockCount(sampleCount)
        keepsEveryBlock = !keepingOnlyExcesses
        peaks = [Float](repeating: 0, count: keepingOnlyExcesses ? 0 : blockCount)
        isExact = BlockBits(count: keepingOnlyExcesses ? 0 : blockCount)
        pending = [Float](repeating: 0, count: Self.before)
        pending.reserveCapacity(Self.chunk + 4 * Self.size)
    }

    mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        var offset = 0
        while offset < samples.count {
            let take = min(samples.count - offset, Self.chunk - pending.count + Self.before + Self.after)
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: samples[offset..<(offset + take)]))
            offset += take
            // Every whole block whose context after it has arrived.
            let ready = (pending.count - Self.before - Self.after) / Self.size
            if ready > 0 {
                for b in 0..<ready { collect(at: b * Self.size, length: Self.size) }
                pending.removeFirst(ready * Self.size)
            }
        }
    }

    /// The block peaks (empty when only the excesses are kept), once every sample has been
    /// appended; zeros are assumed past the end.
    @discardableResult
    mutating func finish() -> [Float] {
        // At most one whole block and part of another are left, short of their context after.
        let remaining = pending.count - Self.before
        pending.append(contentsOf: repeatElement(0, count: 3 * Self.size))
        var start = 0
        while start < remaining {
            collect(at: start, length: min(Self.size, remaining - start))
            start += Self.size
        }
        pending = []
        return peaks
    }

    /// Block `next`, whose `length` intervals start at `pending[offset + before]`.
    private mutating func collect(at offset: Int, length: Int) {
        defer { next += 1 }
        guard next < blockCount else { return }
        let exactAbove = self.exactAbove, highest = self.highest, estimator = self.estimator
        let (value, exact) = pending.withUnsafeBufferPointer { x in
            intervals.withUnsafeMutableBufferPointer { out in
                Self.blockPeak(x.baseAddress! + offset, length: length, estimator: estimator,
                               skippingAtOrBelow: min(exactAbove, highest), scratch: out.baseAddress!)
            }
        }
        if exact { self.highest = max(highest, value) }
        if keepsEveryBlock {
            peaks[next] = value
            if exact { isExact[next] = true }
        } else if exact, value > exactAbove {
            excesses.append((next, value))
        }
    }

    /// The true peak of the `length` (1...size) intervals whose samples start at `x + before`,
    /// reading `x[0 ..< size + before + after]` (the values past the block's own intervals only
    /// as far as its own bound needs); or, when it is at most `skip`, the bound.
    static func blockPeak(
        _ x: UnsafePointer<Float>, length: Int, estimator: InterSamplePeakEstimator,
        skippingAtOrBelow skip: Float, scratch: UnsafeMutablePointer<Float>
    ) -> (value: Float, isExact: Bool) {
        // The largest |x| the block's intervals read: x[0 ..< length + before + after] <= 27.
        let read = length + before + after
        var largest: Float = 0
        if read == 27 {
            let raw = UnsafeRawPointer(x)
            let low = raw.loadUnaligned(as: SIMD16<Float>.self)
            let high = raw.loadUnaligned(fromByteOffset: (read - 16) * MemoryLayout<Float>.stride, as: SIMD16<Float>.self)
            // |x| as bit patterns: for floats of one sign the larger pattern is the larger value.
            let bits = unsafeBitCast(low, to: SIMD16<Int32>.self) & 0x7FFF_FFFF
            let bitsHigh = unsafeBitCast(high, to: SIMD16<Int32>.self) & 0x7FFF_FFFF
            let both = bits.replacing(with: bitsHigh, where: bits .< bitsHigh)
            largest = Float(bitPattern: UInt32(both.max()))
        } else {
            for i in 0..<read { largest = max(largest, abs(x[i])) }
        }
        let bound = largest * estimator.gainBound
        if bound <= skip { return (bound, false) }
        return (exactPeak(x, length: length, estimator: estimator, scratch: scratch), true)
    }

    /// The true peak of the `length` intervals whose samples start at `x + before`.
    static func exactPeak(
        _ x: UnsafePointer<Float>, length: Int, estimator: InterSamplePeakEstimator, scratch: UnsafeMutablePointer<Float>
    ) -> Float {
        estimator.peaks(padded: x, count: length, into: scratch)
        var peak: Float = 0
        for i in 0..<length { peak = max(peak, scratch[i]) }
        return peak
    }
}

/// One bit per block.
struct BlockBits {
    private var words: [UInt64]

    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    subscript(index: Int) -> Bool {
        get { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
        set {
            if newValue { words[index >> 6] |= 1 << UInt64(index & 63) } else { words[index >> 6] &= ~(1 << UInt64(index & 63)) }
        }
    }
}
