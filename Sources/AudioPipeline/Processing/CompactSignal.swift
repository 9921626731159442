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

/// Audio that the pipeline reads piece by piece: a message is never copied whole.
public protocol SampleSource: Sendable {
    /// The number of samples.
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

    /// An empty signal with room for `capacity` samples.
    public init(reservingCapacity capacity: Int = 0) {
        values.reserveCapacity(capacity)
        steps.reserveCapacity(capacity / Self.blockSize + 1)
        pending.reserveCapacity(Self.blockSize)
    }

    /// The samples appended so far.
    public var count: Int { values.count + pending.count }

    /// Appends `samples`; `finish()` stores the last, partial block.
    public mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        var offset = 0
        // Top up a partial block first; then whole blocks go straight from `samples`.
        if !pending.isEmpty {
            let take = min(samples.count, Self.blockSize - pending.count)
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: samples[0..<take]))
            offset = take
            if pending.count == Self.blockSize { flush() }
        }
        while samples.count - offset >= Self.blockSize {
            store(UnsafeBufferPointer(rebasing: samples[offset..<(offset + Self.blockSize)]))
            offset += Self.blockSize
        }
        if offset < samples.count {
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: samples[offset..<samples.count]))
        }
    }

    /// Stores the last, partial block; call once after the last `append`.
    public mutating func finish() {
        if !pending.isEmpty { flush() }
    }

    private mutating func flush() {
        pending.withUnsafeBufferPointer { store($0) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Appends `block` (at most `blockSize` samples) as one block.
    private mutating func store(_ block: UnsafeBufferPointer<Float>) {
        let start = values.count
        values.append(contentsOf: repeatElement(0, count: block.count))
        let step = values.withUnsafeMutableBufferPointer { Self.quantize(block, into: $0.baseAddress! + start) }
        steps.append(step)
    }

    /// Stores `piece` as steps of its own peak / 32767; returns the step.
    private static func quantize(_ piece: UnsafeBufferPointer<Float>, into output: UnsafeMutablePointer<Int16>) -> Float {
        var peak: Float = 0
        for value in piece { peak = max(peak, abs(value)) }
        let step = peak > 0 ? peak / Float(Int16.max) : 1
        let inverse = 1 / step
        let whole = piece.count - piece.count % 8
        let raw = UnsafeRawPointer(piece.baseAddress!)
        for i in stride(from: 0, to: whole, by: 8) {
            let value = raw.loadUnaligned(fromByteOffset: i * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(output + i).storeBytes(of: Self.quantized(value * inverse), as: SIMD8<Int16>.self)
        }
        for i in whole..<piece.count {
            output[i] = Int16(max(-32767, min(32767, (piece[i] * inverse).rounded())))
        }
        return step
    }

    /// What `Int16(max(-32767, min(32767, x.rounded())))` gives in each lane (NaN included),
    /// without a call into libm per value. Adding 1.5 * 2^23 rounds |x| < 2^22 to the nearest
    /// integer (ties to even), which lands in the low bits of the sum; the remainder is exact,
    /// so the ties that must go away from zero instead are found exactly.
    @inline(__always)
    static func quantized(_ x: SIMD8<Float>) -> SIMD8<Int16> {
        let limit = SIMD8<Float>(repeating: 32767)
        var x = x.replacing(with: limit, where: .!(x .< limit))
        x = x.replacing(with: -limit, where: x .< -limit)
        let magic = SIMD8<Float>(repeating: 12_582_912)
        let sum = x + magic
        let nearest = sum - magic
        let remainder = x - nearest
        var rounded = unsafeBitCast(sum, to: SIMD8<Int32>.self) &- Int32(bitPattern: magic[0].bitPattern)
        let zero = SIMD8<Int32>(), one = SIMD8<Int32>(repeating: 1)
        rounded &+= zero.replacing(with: one, where: (remainder .== 0.5) .& (x .> 0))
        rounded &-= zero.replacing(with: one, where: (remainder .== -0.5) .& (x .< 0))
        return SIMD8<Int16>(truncatingIfNeeded: rounded)
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
    /// The untrimmed signal.
    public let source: Source
    /// The samples of `source` kept.
    public let span: Range<Int>
    /// The length of each fade, in samples: at most half the span.
    public let fadeLength: Int
    /// Whether the start was cut, and so fades in.
    public let fadesIn: Bool
    /// Whether the end was cut, and so fades out.
    public let fadesOut: Bool

    /// `span` of `source`, with fades of `fadeLength` samples at the ends asked for.
    public init(_ source: Source, span: Range<Int>, fadeLength: Int, fadesIn: Bool, fadesOut: Bool) {
        self.source = source
        self.span = span
        self.fadeLength = min(fadeLength, span.count / 2)
        self.fadesIn = fadesIn
        self.fadesOut = fadesOut
    }

    /// The kept length, in samples.
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
