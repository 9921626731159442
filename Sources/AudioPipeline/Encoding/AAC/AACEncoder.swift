import DecoderWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// AAC-LC in an M4A (MP4) file, mono at 48 kHz: the one format every iPhone's browser plays in
/// `<audio>`, for Safari before iOS 17.4, which plays no Opus. The encoder is FFmpeg's own
/// (`aac`), run in `voicemsg-decode`'s encode mode (`IsolatedAACEncoder`), and the check
/// decodes the file with FFmpeg's decoder in the same child, as a player would.
public struct AACEncoder: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Average bitrate, bits per second, within `bitrates`. Default: 32 kb/s, where
        /// FFmpeg's encoder keeps speech clear to about 12 kHz.
        public var bitrate = 32_000
        /// The limits of the child that encodes and of the one that decodes the check, and where
        /// the program is. Its `policy` is not read: FFmpeg is only ever in the child.
        public var isolation = DecoderIsolation()
        /// The most encodes before the file is kept as it is, each checked on its decoding.
        /// Default: 5; the sample messages need 1 to 3.
        public var maximumPasses = 5

        public init() {}

        /// The bitrates FFmpeg's encoder codes mono AAC-LC at, bits per second.
        public static let bitrates = DecoderWire.aacBitrates
    }

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// AAC's frame: the encoder pads the last one, and the decoding is up to this much longer
    /// than the samples given, where a player ignores the end of the edit list.
    static let frameSize = 1024

    /// The untagged M4A of mono 48 kHz `samples`.
    func encode(_ samples: GainedSamples) throws -> [UInt8] {
        guard Configuration.bitrates.contains(configuration.bitrate) else {
            throw AudioPipelineError(
                .invalidConfiguration,
                "AAC bitrate \(configuration.bitrate / 1000) kb/s is outside \(Configuration.bitrates.lowerBound / 1000)...\(Configuration.bitrates.upperBound / 1000) kb/s",
                source: "aac")
        }
        return try IsolatedAACEncoder.encode(samples, bitrate: configuration.bitrate, isolation: configuration.isolation)
    }

    /// Decodes `file` with FFmpeg in the child, the edit list's priming dropped, and hands the
    /// samples to `samples`; returns how many there were.
    func decode(_ file: [UInt8], samples: (UnsafeBufferPointer<Float>) throws -> Void) throws -> Int {
        var isolation = configuration.isolation
        isolation.policy = .always
        do {
            let format = try IsolatedDecoder.decode(
                .data(Data(file), name: "aac"), isolation: isolation, limits: InputLimits(), downmix: true,
                sniffed: nil, begin: { _ in }, samples: samples)
            guard format.sampleRate == DecoderWire.encoderSampleRate, format.channelCount == 1 else {
                throw AudioPipelineError(
                    .codecFailure, "the AAC file decodes at \(format.sampleRate) Hz, \(format.channelCount) channels, not 48 kHz mono")
            }
            return format.frameCount
        } catch let error as AudioPipelineError where !error.isRetryable {
            // The file is the pipeline's own: a decoder that refuses it is not the input's fault.
            throw AudioPipelineError(.codecFailure, "cannot decode the AAC file to check it (\(error.message))")
        }
    }
}

/// An AAC message: the M4A file and what its check measured.
public struct AACFile: Sendable {
    public var bytes: [UInt8]
    public var report: AACReport
}

/// What making the AAC file did, measured on its decoding; `voicemsg encode --json` shows it as
/// the report's `aac`.
public struct AACReport: Sendable, Codable, Equatable {
    /// The file's size, container included.
    public var bytes: Int
    /// Average bitrate of the whole file, container included, bits per second.
    public var bitrate: Double
    /// The length the file states (its edit list), which Apple's players and ffprobe honour:
    /// the Opus message's own, to the sample.
    public var durationSeconds: Double
    public var sampleCount: Int64
    /// How many samples FFmpeg's decoder gives, priming dropped: the end's padding to a whole
    /// AAC frame is left in (fewer than 1024 samples, 21 ms).
    public var decodedSampleCount: Int
    /// The decoded file's loudness and true peak, as a player renders it.
    public var loudness: LoudnessMeasurement
    public var normalization: Normalizer.Measurement
}
