import COpus
import Dispatch

/// Encodes 48 kHz mono audio with libopus into an `OpusStream`, ready for any container.
///
/// The stream is sample-exact: the encoder's lookahead becomes the pre-skip, the last frame is
/// padded with silence, and `validSampleCount` tells the container where the message ends
/// (RFC 7845 §4.5: the final granule position trims the padding).
public struct OpusEncoder: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Target bitrate in bits per second. Default: 24 kb/s.
        public var bitrate: Int = 24_000
        /// Variable bitrate (unconstrained). Default: on.
        public var isVariableBitrate: Bool = true
        /// 0 (fastest) to 10 (best). Default: 10. Below 7 libopus stops running its speech
        /// analysis, and a speech-tuned bitrate then costs more bits for the same quality.
        public var complexity: Int = 10
        /// Frame duration in milliseconds: 10, 20, 40 or 60. Default: 20.
        public var frameMilliseconds: Int = 20
        /// Tune for speech. Default: on.
        public var isVoice: Bool = true
        /// How many pieces a long message is cut into and encoded at once. Default: 1. The CLI
        /// raises it to the core count when it encodes a single file.
        public var segments: Int = 1
        /// The longest piece, in seconds, whatever `segments` says. Default: 10. When a check
        /// after encoding finds a peak too high, only the pieces around it are encoded again.
        public var segmentSeconds: Double = 10
        /// The shortest piece worth its own encoder, in seconds. Default: 8.
        public var minimumSegmentSeconds: Double = 8
        public init() {}
    }

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public static let sampleRate = 48_000

    /// Samples per packet at 48 kHz.
    public var frameSize: Int { Self.sampleRate * configuration.frameMilliseconds / 1000 }

    /// Encodes mono 48 kHz `samples`.
    ///
    /// A message longer than `segmentSeconds`, or long enough for `segments` above 1, is cut at
    /// its quietest frames near equal shares and the pieces are encoded at the same time, each
    /// by its own encoder. Every encoder after the first starts `warmUpFrames` early on the real
    /// audio and its warm-up packets are dropped, so its state matches the first encoder's
    /// closely where they join; the join is in the quietest frame, where any mismatch is
    /// inaudible. The frame grid and the pre-skip are the same for all.
    public func encode(_ samples: [Float], inputSampleRate: Int, tags: OpusTags) throws -> OpusStream {
        try encode(GainedSamples(samples), inputSampleRate: inputSampleRate, tags: tags)
    }

    /// Encodes `source`, rendering it frame by frame: the gained signal is never held whole.
    public func encode(_ source: GainedSamples, inputSampleRate: Int, tags: OpusTags) throws -> OpusStream {
        try encodeInPieces(source, inputSampleRate: inputSampleRate, tags: tags).stream
    }

    /// An encoding together with where its independently encoded pieces start, so that a part
    /// of the message can be encoded again without the rest.
    public struct PiecewiseStream: Sendable {
        public var stream: OpusStream
        /// The frame index where each piece starts, then the frame count.
        public let bounds: [Int]
        let frameSize: Int

        /// The pieces whose input covers any of the samples in `range`.
        public func pieces(covering range: Range<Int>) -> [Int] {
            guard !range.isEmpty else { return [] }
            let first = range.lowerBound / frameSize, last = (range.upperBound - 1) / frameSize
            return (0..<(bounds.count - 1)).filter { bounds[$0] <= last && bounds[$0 + 1] > first }
        }
    }

    /// Encodes `source` like `encode`, cut into pieces of at most `segmentSeconds` (at least
    /// `segments` when the message is long enough), encoded at the same time.
    public func encodeInPieces(_ source: GainedSamples, inputSampleRate: Int, tags: OpusTags) throws -> PiecewiseStream {
        try validate()
        let preSkip = try EncoderHandle(configuration: configuration).lookahead()
        let frameCount = max(1, (source.count + preSkip + frameSize - 1) / frameSize)
        let bounds = segmentBounds(source.source, frameCount: frameCount)
        var packets: [[UInt8]] = []
        packets.reserveCapacity(frameCount)
        for piece in try encodePieces(source, bounds: bounds, only: Array(0..<(bounds.count - 1))) {
            packets.append(contentsOf: piece.packets)
        }
        let stream = OpusStream(
            channelCount: 1, preSkip: preSkip, inputSampleRate: inputSampleRate,
            packets: packets, validSampleCount: Int64(source.count), tags: tags)
        return PiecewiseStream(stream: stream, bounds: bounds, frameSize: frameSize)
    }

    /// Encodes only `pieces` of `previous` again, from `source` (the same length, changed only
    /// inside those pieces), and keeps every other packet.
    public func reencode(_ previous: PiecewiseStream, from source: GainedSamples, pieces: [Int]) throws -> PiecewiseStream {
        precondition(Int64(source.count) == previous.stream.validSampleCount)
        var updated = previous
        for piece in try encodePieces(source, bounds: previous.bounds, only: pieces) {
            let range = previous.bounds[piece.index]..<previous.bounds[piece.index + 1]
            updated.stream.packets.replaceSubrange(range, with: piece.packets)
        }
        return updated
    }

    /// Encodes the pieces `only` at the same time, each by its own encoder. Every encoder but
    /// the first piece's starts `warmUpFrames` early on the real audio and its warm-up packets
    /// are dropped, so its state matches the previous piece's closely where they join.
    private func encodePieces(_ source: GainedSamples, bounds: [Int], only: [Int]) throws -> [(index: Int, packets: [[UInt8]])] {
        var results = [Result<[[UInt8]], Error>](repeating: .success([]), count: only.count)
        let configuration = self.configuration
        let frameSize = self.frameSize
        results.withUnsafeMutableBufferPointer { results in
            let results = UncheckedBuffer(results)
            DispatchQueue.concurrentPerform(iterations: only.count) { slot in
                let index = only[slot]
                let first = bounds[index], end = bounds[index + 1]
                let warmUp = index == 0 ? 0 : min(first, Self.warmUpFrames)
                results.buffer[slot] = Result {
                    let encoder = try EncoderHandle(configuration: configuration)
                    let packets = try Self.encodeFrames(source, frames: (first - warmUp)..<end, frameSize: frameSize, encoder: encoder)
                    return Array(packets.dropFirst(warmUp))
                }
            }
        }
        return try zip(only, results).map { ($0, try $1.get()) }
    }

    /// Frames an encoder after the first encodes and drops before its first kept frame: 200 ms.
    static let warmUpFrames = 10

    /// Frame indices where segments start, plus `frameCount` at the end.
    private func segmentBounds(_ samples: any SampleSource, frameCount: Int) -> [Int] {
        let seconds = Double(frameCount * configuration.frameMilliseconds) / 1000
        let segments = max(configuration.segments, Int(seconds / configuration.segmentSeconds))
        let minimumFrames = Int(configuration.minimumSegmentSeconds * 1000) / configuration.frameMilliseconds
        guard segments > 1, frameCount >= segments * minimumFrames else { return [0, frameCount] }
        // Energy per frame, on the input grid (the encoder's delay shifts all encoders alike).
        var energy = [Double](repeating: 0, count: frameCount)
        var position = 0
        samples.forEachChunk(chunk: frameSize) { frame in
            var sum = 0.0
            for value in frame { sum += Double(value * value) }
            energy[position / frameSize] += sum
            position += frame.count
        }
        var bounds = [0]
        for k in 1..<segments {
            let centre = frameCount * k / segments
            let reach = frameCount / (segments * 4)
            let candidates = max(bounds.last! + minimumFrames, centre - reach)...min(frameCount - minimumFrames, centre + reach)
            guard !candidates.isEmpty else { continue }
            // The quietest frame, counting its neighbours so the join sits inside a pause.
            let quietest = candidates.min { a, b in
                energy[max(0, a - 2)...min(frameCount - 1, a + 2)].reduce(0, +)
                    < energy[max(0, b - 2)...min(frameCount - 1, b + 2)].reduce(0, +)
            }!
            bounds.append(quietest)
        }
        bounds.append(frameCount)
        return bounds
    }

    private static func encodeFrames(_ source: GainedSamples, frames: Range<Int>, frameSize: Int, encoder: EncoderHandle) throws -> [[UInt8]] {
        var packets: [[UInt8]] = []
        packets.reserveCapacity(frames.count)
        var frame = [Float](repeating: 0, count: frameSize)
        var output = [UInt8](repeating: 0, count: 4000)
        for index in frames {
            let start = index * frameSize
            frame.withUnsafeMutableBufferPointer { target in
                source.render(start..<(start + frameSize), into: target.baseAddress!)
            }
            let size = try encoder.encode(frame, frameSize: frameSize, into: &output)
            packets.append(Array(output[0..<size]))
        }
        return packets
    }

    private func validate() throws {
        let c = configuration
        guard (6_000...510_000).contains(c.bitrate) else {
            throw AudioPipelineError(.codecFailure, "bitrate \(c.bitrate / 1000) kb/s is outside 6...510 kb/s", source: "opus")
        }
        guard (0...10).contains(c.complexity) else {
            throw AudioPipelineError(.codecFailure, "complexity \(c.complexity) is outside 0...10", source: "opus")
        }
        guard [10, 20, 40, 60].contains(c.frameMilliseconds) else {
            throw AudioPipelineError(.codecFailure, "frame size \(c.frameMilliseconds) ms is not one of 10, 20, 40, 60", source: "opus")
        }
    }
}

/// Owns one `OpusEncoder*` from libopus.
private final class EncoderHandle {
    let state: OpaquePointer

    init(configuration: OpusEncoder.Configuration) throws {
        var error: Int32 = 0
        guard let state = opus_encoder_create(48_000, 1, Int32(vm_opus_application_audio()), &error), error == OPUS_OK else {
            throw Self.failure("cannot create the encoder", error)
        }
        self.state = state
        try check(vm_opus_set_bitrate(state, Int32(configuration.bitrate)), "bitrate")
        try check(vm_opus_set_vbr(state, configuration.isVariableBitrate ? 1 : 0), "VBR")
        try check(vm_opus_set_vbr_constraint(state, 0), "VBR constraint")
        try check(vm_opus_set_complexity(state, Int32(configuration.complexity)), "complexity")
        try check(vm_opus_set_signal(state, Int32(configuration.isVoice ? vm_opus_signal_voice() : vm_opus_signal_music())), "signal")
        try check(vm_opus_set_lsb_depth(state, 24), "LSB depth")
        try check(vm_opus_set_expert_frame_duration(state, vm_opus_framesize_arg(Int32(configuration.frameMilliseconds * 10))), "frame duration")
    }

    deinit { opus_encoder_destroy(state) }

    func lookahead() throws -> Int {
        var value: Int32 = 0
        try check(vm_opus_get_lookahead(state, &value), "lookahead")
        return Int(value)
    }

    func encode(_ frame: [Float], frameSize: Int, into output: inout [UInt8]) throws -> Int {
        let result = frame.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                opus_encode_float(state, input.baseAddress!, Int32(frameSize), out.baseAddress!, Int32(out.count))
            }
        }
        guard result > 0 else { throw Self.failure("encoding failed", result) }
        return Int(result)
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code == OPUS_OK else { throw Self.failure("cannot set \(what)", code) }
    }

    static func failure(_ what: String, _ code: Int32) -> AudioPipelineError {
        AudioPipelineError(.codecFailure, "\(what) (\(String(cString: opus_strerror(code))))", source: "opus")
    }
}

/// Lets `concurrentPerform` write each result into its own slot.
private struct UncheckedBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
