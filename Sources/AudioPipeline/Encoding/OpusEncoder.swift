import Dispatch

/// Encodes 48 kHz mono audio with libopus into an `OpusStream`, ready for any container.
///
/// The stream is sample-exact: the encoder's lookahead becomes the pre-skip, the last frame is
/// padded with silence, and `validSampleCount` tells the container where the message ends
/// (RFC 7845 §4.5: the final granule position trims the padding).
public struct OpusEncoder: Sendable {
    /// libopus's settings, and how a long message is cut into pieces.
    public struct Configuration: Sendable, Equatable {
        /// Target bitrate in bits per second, within `bitrates`. Default: 24 kb/s.
        public var bitrate: Int = 24_000
        /// Variable bitrate (unconstrained). Default: on.
        public var isVariableBitrate: Bool = true
        /// 0 (fastest) to 10 (best), within `complexities`. Default: 10. Below 7 libopus stops running its speech
        /// analysis, and a speech-tuned bitrate then costs more bits for the same quality.
        public var complexity: Int = 10
        /// Frame duration in milliseconds, one of `frameDurations`. Default: 20.
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
        /// The defaults above.
        public init() {}

        /// The bitrates libopus codes at, in bits per second.
        public static let bitrates = 6_000...510_000
        /// The complexities libopus knows.
        public static let complexities = 0...10
        /// The frame durations a packet may last, in milliseconds, that voicemsg writes.
        public static let frameDurations = [10, 20, 40, 60]
    }

    /// libopus's settings.
    public var configuration: Configuration

    /// An encoder with `configuration`.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Samples per packet at 48 kHz.
    public var frameSize: Int { OpusStream.sampleRate * configuration.frameMilliseconds / 1000 }

    /// An encoding together with where its independently encoded pieces start, so that a part
    /// of the message can be encoded again without the rest.
    public struct PiecewiseStream: Sendable {
        /// The whole encoding.
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

    /// Encodes mono 48 kHz `source`, rendering it frame by frame: the gained signal is never
    /// held whole.
    ///
    /// A message longer than `segmentSeconds`, or long enough for `segments` above 1, is cut at
    /// its quietest frames near equal shares and the pieces are encoded at the same time, each
    /// by its own encoder. Every encoder after the first starts `warmUpFrames` early on the real
    /// audio and its warm-up packets are dropped, so its state matches the first encoder's
    /// closely where they join; the join is in the quietest frame, where any mismatch is
    /// inaudible. The frame grid and the pre-skip are the same for all.
    public func encodeInPieces(_ source: GainedSamples, inputSampleRate: Int, tags: OpusTags) throws -> PiecewiseStream {
        try validate()
        let preSkip = try OpusEncoderHandle(configuration: configuration).lookahead()
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
                    let encoder = try OpusEncoderHandle(configuration: configuration)
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

    private static func encodeFrames(_ source: GainedSamples, frames: Range<Int>, frameSize: Int, encoder: OpusEncoderHandle) throws -> [[UInt8]] {
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

    /// Refuses settings libopus cannot code with before any encoder exists. They are the
    /// caller's to fix, so trying again is no use.
    private func validate() throws {
        let c = configuration, settings = Configuration.self
        func refuse(_ message: String) -> AudioPipelineError {
            AudioPipelineError(.invalidConfiguration, message, source: "opus")
        }
        guard settings.bitrates.contains(c.bitrate) else {
            throw refuse("bitrate \(c.bitrate / 1000) kb/s is outside \(settings.bitrates.lowerBound / 1000)...\(settings.bitrates.upperBound / 1000) kb/s")
        }
        guard settings.complexities.contains(c.complexity) else {
            throw refuse("complexity \(c.complexity) is outside \(settings.complexities.lowerBound)...\(settings.complexities.upperBound)")
        }
        guard settings.frameDurations.contains(c.frameMilliseconds) else {
            throw refuse("frame size \(c.frameMilliseconds) ms is not one of \(settings.frameDurations.map(String.init).joined(separator: ", "))")
        }
    }
}

/// Lets `concurrentPerform` write each result into its own slot.
///
/// `@unchecked Sendable` is safe here: iteration `i` writes slot `i` only, no iteration reads
/// another's slot, the buffer outlives `concurrentPerform`, and `concurrentPerform` returns
/// only after every iteration has finished, so the writes happen before the caller reads.
private struct UncheckedBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
