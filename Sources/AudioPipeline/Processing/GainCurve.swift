/// A gain that changes slowly along a signal, kept as one value per block of `blockSize`
/// samples: a minute of audio needs 180,000 values instead of 2.9 million.
///
/// Each value belongs to its block's centre, and a sample between two centres gets the linear
/// interpolation of the two (the first and last half-blocks take their block's value). So the
/// gain at any sample lies between the values of its own block and one neighbour: a curve whose
/// every value is safe for its block and both neighbours is safe at every sample.
public struct GainCurve: Sendable, Equatable {
    /// Samples per value.
    public static let blockSize = 16

    /// One linear gain per block.
    public var values: [Float]
    /// The length of the signal the curve belongs to.
    public let sampleCount: Int

    /// A curve of `values`, one per block of a signal `sampleCount` long.
    public init(values: [Float], sampleCount: Int) {
        precondition(values.count == Self.blockCount(sampleCount), "one value per block of \(Self.blockSize) samples")
        self.values = values
        self.sampleCount = sampleCount
    }

    /// The same gain everywhere.
    public init(repeating value: Float, sampleCount: Int) {
        self.init(values: [Float](repeating: value, count: Self.blockCount(sampleCount)), sampleCount: sampleCount)
    }

    /// How many blocks a signal `sampleCount` long has, the last one possibly short.
    public static func blockCount(_ sampleCount: Int) -> Int {
        (sampleCount + blockSize - 1) / blockSize
    }

    /// The block-wise product of two curves over the same signal.
    public static func * (lhs: GainCurve, rhs: GainCurve) -> GainCurve {
        precondition(lhs.sampleCount == rhs.sampleCount)
        var product = lhs
        for k in product.values.indices { product.values[k] *= rhs.values[k] }
        return product
    }

    /// Multiplies `output[n - range.lowerBound]` by `scale · gain(n)` for every n in `range`.
    func apply(scale: Float, range: Range<Int>, to output: UnsafeMutablePointer<Float>) {
        values.withUnsafeBufferPointer { values in
            let last = values.count - 1
            var n = range.lowerBound
            while n < range.upperBound {
                // One run per half-block, where the same two values are interpolated.
                let block = n / Self.blockSize
                let offset = n - block * Self.blockSize
                let half = Self.blockSize / 2
                let runEnd = min(range.upperBound, block * Self.blockSize + (offset < half ? half : Self.blockSize))
                let first = offset < half ? max(0, block - 1) : block
                let second = offset < half ? block : min(last, block + 1)
                let a = values[first] * scale
                let step = (values[second] - values[first]) * scale / Float(Self.blockSize)
                let centre = first * Self.blockSize
                let half1 = Float(Self.blockSize - 1) / 2
                for i in n..<runEnd {
                    let g = first == second ? a : a + step * (Float(i - centre) - half1)
                    output[i - range.lowerBound] *= g
                }
                n = runEnd
            }
        }
    }
}

/// A signal times a gain and an optional gain curve, rendered piece by piece when asked, so the
/// gained signal never needs a whole-message copy.
public struct GainedSamples: Sendable {
    /// The signal.
    public var source: any SampleSource
    /// A gain over the whole signal, linear.
    public var scale: Float
    /// A gain that varies along it, on top of `scale`; nil for none.
    public var curve: GainCurve?

    /// `source` times `scale` and `curve`, which must be as long as it.
    public init(_ source: any SampleSource, scale: Float = 1, curve: GainCurve? = nil) {
        precondition(curve == nil || curve!.sampleCount == source.count)
        self.source = source
        self.scale = scale
        self.curve = curve
    }

    /// The signal's length in samples.
    public var count: Int { source.count }

    /// Writes samples `range` to `output`, with zeros past the end of the signal.
    public func render(_ range: Range<Int>, into output: UnsafeMutablePointer<Float>) {
        let end = min(range.upperBound, source.count)
        let start = min(range.lowerBound, end)
        if start < end {
            source.read(start..<end, into: output)
            if let curve {
                curve.apply(scale: scale, range: start..<end, to: output)
            } else if scale != 1 {
                for i in 0..<(end - start) { output[i] *= scale }
            }
        }
        if end - range.lowerBound < range.count {
            let filled = max(0, end - range.lowerBound)
            (output + filled).update(repeating: 0, count: range.count - filled)
        }
    }
}
