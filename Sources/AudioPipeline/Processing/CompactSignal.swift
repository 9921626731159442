import Foundation

/// Audio that the pipeline reads piece by piece: a message is never copied whole.
public protocol SampleSource: Sendable {
    var count: Int { get }
    /// Writes samples `range` (within `0..<count`) to `output`.
    func read(_ range: Range<Int>, into output: UnsafeMutablePointer<Float>)
}

extension SampleSource {
    /// Hands over samples `range` in pieces of at most `chunk`.
    func forEachChunk(_ range: Range<Int>? = nil, chunk: Int = 4096, _ body: (UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        let range = range ?? 0..<count
        var buffer = [Float](repeating: 0, count: min(chunk, max(range.count, 1)))
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(range.upperBound, start + chunk)
            try buffer.withUnsafeMutableBufferPointer { piece in
                read(start..<end, into: piece.baseAddress!)
                try body(UnsafeBufferPointer(rebasing: piece[0..<(end - start)]))
            }
            start = end
        }
    }
}

extension Array: SampleSource where Element == Float {
    public func read(_ range: Range<Int>, into output: UnsafeMutablePointer<Float>) {
        withUnsafeBufferPointer { output.update(from: $0.baseAddress! + range.lowerBound, count: range.count) }
    }
}

/// Mono audio held at 16 bits a sample with one scale per block of 256 samples: half the
/// memory of Float. Each block's quantization noise sits about 96 dB under that block's own
/// peak (5 ms of audio), so quiet passages keep their detail however loud the rest is.
public struct CompactSignal: SampleSource {
    static let blockSize = 256

    private var values: [Int16] = []
    /// Per block: the linear value of one step.
    private var steps: [Float] = []
    /// The samples of the block being appended, until it is full.
    private var pending: [Float] = []

    public init(reservingCapacity capacity: Int = 0) {
        values.reserveCapacity(capacity)
        steps.reserveCapacity(capacity / Self.blockSize + 1)
        pending.reserveCapacity(Self.blockSize)
    }

    public var count: Int { values.count + pending.count }

    public mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        for sample in samples {
            pending.append(sample)
            if pending.count == Self.blockSize { flush() }
        }
    }

    /// Stores the last, partial block; call once after the last `append`.
    public mutating func finish() {
        if !pending.isEmpty { flush() }
    }

    private mutating func flush() {
        let start = values.count
        values.append(contentsOf: repeatElement(0, count: pending.count))
        let step = pending.withUnsafeBufferPointer { piece in
            values.withUnsafeMutableBufferPointer { Self.quantize(piece, into: $0.baseAddress! + start) }
        }
        steps.append(step)
        pending.removeAll(keepingCapacity: true)
    }

    /// Stores `piece` as steps of its own peak / 32767; returns the step.
    private static func quantize(_ piece: UnsafeBufferPointer<Float>, into output: UnsafeMutablePointer<Int16>) -> Float {
        var peak: Float = 0
        for value in piece { peak = max(peak, abs(value)) }
        let step = peak > 0 ? peak / Float(Int16.max) : 1
        let inverse = 1 / step
        for (i, value) in piece.enumerated() {
            output[i] = Int16(max(-32767, min(32767, (value * inverse).rounded())))
        }
        return step
    }

    public func read(_ range: Range<Int>, into output: UnsafeMutablePointer<Float>) {
        precondition(pending.isEmpty, "finish() before reading")
        values.withUnsafeBufferPointer { values in
            steps.withUnsafeBufferPointer { steps in
                var n = range.lowerBound
                while n < range.upperBound {
                    let block = n / Self.blockSize
                    let end = min(range.upperBound, (block + 1) * Self.blockSize)
                    let step = steps[block]
                    for i in n..<end { output[i - range.lowerBound] = Float(values[i]) * step }
                    n = end
                }
            }
        }
    }

    /// Rewrites the samples in place, a block at a time: `body` gets each block as Float and
    /// may change it. Needs one block of Float beyond the signal itself.
    public mutating func transform(_ body: (UnsafeMutableBufferPointer<Float>) -> Void) {
        precondition(pending.isEmpty, "finish() before transforming")
        var block = [Float](repeating: 0, count: Self.blockSize)
        for b in steps.indices {
            let start = b * Self.blockSize
            let end = min(values.count, start + Self.blockSize)
            block.withUnsafeMutableBufferPointer { buffer in
                read(start..<end, into: buffer.baseAddress!)
                let piece = UnsafeMutableBufferPointer(rebasing: buffer[0..<(end - start)])
                body(piece)
                steps[b] = values.withUnsafeMutableBufferPointer { Self.quantize(UnsafeBufferPointer(piece), into: $0.baseAddress! + start) }
            }
        }
    }
}

/// A span of a signal with raised-cosine fades at whichever ends were cut: the trimmed message,
/// read from the untrimmed signal without copying it.
public struct TrimmedSpan<Source: SampleSource>: SampleSource {
    public let source: Source
    public let span: Range<Int>
    public let fadeLength: Int
    public let fadesIn: Bool
    public let fadesOut: Bool

    public init(_ source: Source, span: Range<Int>, fadeLength: Int, fadesIn: Bool, fadesOut: Bool) {
        self.source = source
        self.span = span
        self.fadeLength = min(fadeLength, span.count / 2)
        self.fadesIn = fadesIn
        self.fadesOut = fadesOut
    }

    public var count: Int { span.count }

    public func read(_ range: Range<Int>, into output: UnsafeMutablePointer<Float>) {
        source.read((range.lowerBound + span.lowerBound)..<(range.upperBound + span.lowerBound), into: output)
        guard fadeLength > 0 else { return }
        let length = Double(fadeLength)
        func gain(_ k: Int) -> Float { Float(0.5 - 0.5 * cos(Double.pi * (Double(k) + 0.5) / length)) }
        if fadesIn, range.lowerBound < fadeLength {
            for n in range.lowerBound..<min(range.upperBound, fadeLength) { output[n - range.lowerBound] *= gain(n) }
        }
        let fadeStart = count - fadeLength
        if fadesOut, range.upperBound > fadeStart {
            for n in max(range.lowerBound, fadeStart)..<range.upperBound { output[n - range.lowerBound] *= gain(count - 1 - n) }
        }
    }
}
