import AudioPipeline
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The pipeline's settings that `encode` exposes. Every default and every range is the
/// library's own, read from its configuration structs, so `--help` cannot drift from them.
/// Every option takes the next word as its value, so `--max-gain -3` reads -3 as `--target-lufs
/// -20` reads -20 (not as an unknown flag), and the range check below says what is wrong.
struct AudioOptions: ParsableArguments {
    private static let defaults = PipelineConfiguration()
    private typealias Normalizing = Normalizer.Configuration
    private typealias Encoding = OpusEncoder.Configuration
    private typealias Trimming = SpeechTrimmer.Configuration
    private typealias Conditioning = Conditioner.Configuration
    private typealias Denoising = Denoiser

    @Option(parsing: .unconditional, help: "Target integrated loudness, LUFS.")
    var targetLufs: Double = defaults.normalizer.targetLoudness

    @Option(parsing: .unconditional, help: "True-peak ceiling of the decoded output, dBTP.")
    var truePeak: Double = defaults.normalizer.truePeakCeiling

    @Option(parsing: .unconditional, help: "The most gain applied, dB.")
    var maxGain: Double = defaults.normalizer.maximumGain

    @Option(parsing: .unconditional, help: "Opus bitrate, kb/s.")
    var bitrate: Double = Double(defaults.encoder.bitrate) / 1000

    @Option(parsing: .unconditional, help: "Opus complexity, \(Encoding.complexities.lowerBound)-\(Encoding.complexities.upperBound) (below 7 libopus skips its speech analysis).")
    var complexity: Int = defaults.encoder.complexity

    @Option(parsing: .unconditional, help: "Opus frame duration, ms: \(AudioOptions.list(Encoding.frameDurations)).")
    var frameMs: Int = defaults.encoder.frameMilliseconds

    @Option(parsing: .unconditional, help: "Silence kept before the speech, ms.")
    var padBefore: Double = defaults.trimmer.paddingBefore * 1000

    @Option(parsing: .unconditional, help: "Silence kept after the speech, ms.")
    var padAfter: Double = defaults.trimmer.paddingAfter * 1000

    @Option(parsing: .unconditional, help: "How far above the noise floor speech must rise to start, dB.")
    var speechThreshold: Double = defaults.trimmer.enterThreshold

    @Option(parsing: .unconditional, help: "The shortest burst that counts as speech, ms.")
    var minSpeech: Double = defaults.trimmer.minimumSpeechDuration * 1000

    @Option(parsing: .unconditional, help: "High-pass cutoff that removes rumble, Hz (0 disables).")
    var highpass: Double = defaults.conditioner.highPassHz

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Noise suppression: auto (DeepFilterNet3 on noisy recordings when installed, else none, said once), off, or an engine: \(Denoising.Engine.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "auto|off|engine"))
    var denoise: Denoiser.Mode = defaults.denoiser.mode

    @Option(parsing: .unconditional, help: "The most noise suppression takes off, dB.")
    var denoiseLimit: Double = defaults.denoiser.attenuationLimit

    func validate() throws {
        let loudness = Normalizing.targetLoudnessRange, ceiling = Normalizing.truePeakCeilingRange
        let bitrates = Encoding.bitrates, complexities = Encoding.complexities
        guard loudness.contains(targetLufs) else {
            throw ValidationError("--target-lufs must be within \(Self.number(loudness.lowerBound))...\(Self.number(loudness.upperBound)).")
        }
        guard ceiling.contains(truePeak) else {
            throw ValidationError("--true-peak must be within \(Self.number(ceiling.lowerBound))...\(Self.number(ceiling.upperBound)) dBTP.")
        }
        guard (Double(bitrates.lowerBound) / 1000...Double(bitrates.upperBound) / 1000).contains(bitrate) else {
            throw ValidationError("--bitrate must be within \(bitrates.lowerBound / 1000)...\(bitrates.upperBound / 1000) kb/s.")
        }
        guard complexities.contains(complexity) else {
            throw ValidationError("--complexity must be within \(complexities.lowerBound)...\(complexities.upperBound).")
        }
        guard Encoding.frameDurations.contains(frameMs) else {
            throw ValidationError("--frame-ms must be \(Self.list(Encoding.frameDurations)).")
        }
        guard padBefore >= 0 else { throw ValidationError("--pad-before cannot be negative.") }
        guard padAfter >= 0 else { throw ValidationError("--pad-after cannot be negative.") }
        guard maxGain >= 0 else { throw ValidationError("--max-gain cannot be negative.") }
        let thresholds = Trimming.enterThresholdRange
        guard thresholds.contains(speechThreshold) else {
            throw ValidationError("--speech-threshold must be within \(Self.number(thresholds.lowerBound))...\(Self.number(thresholds.upperBound)) dB.")
        }
        guard minSpeech >= 0 else { throw ValidationError("--min-speech cannot be negative.") }
        let cutoffs = Conditioning.highPassRange
        guard cutoffs.contains(highpass) else {
            throw ValidationError("--highpass must be within \(Self.number(cutoffs.lowerBound))...\(Self.number(cutoffs.upperBound)) Hz (0 disables it).")
        }
        let limits = Denoising.Configuration.attenuationLimitRange
        guard limits.contains(denoiseLimit) else {
            throw ValidationError("--denoise-limit must be within \(Self.number(limits.lowerBound))...\(Self.number(limits.upperBound)) dB.")
        }
    }

    var pipelineConfiguration: PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.normalizer.targetLoudness = targetLufs
        configuration.normalizer.truePeakCeiling = truePeak
        configuration.normalizer.maximumGain = maxGain
        configuration.encoder.bitrate = Int(bitrate * 1000)
        configuration.encoder.complexity = complexity
        configuration.encoder.frameMilliseconds = frameMs
        configuration.trimmer.paddingBefore = padBefore / 1000
        configuration.trimmer.paddingAfter = padAfter / 1000
        configuration.trimmer.enterThreshold = speechThreshold
        configuration.trimmer.minimumSpeechDuration = minSpeech / 1000
        configuration.conditioner.highPassHz = highpass
        configuration.denoiser.mode = denoise
        configuration.denoiser.attenuationLimit = denoiseLimit
        return configuration
    }

    /// "-70", "-5", "0.5": a bound as people write it.
    private static func number(_ value: Double) -> String { String(printf: "%g", value) }

    /// "10, 20, 40 or 60".
    private static func list(_ values: [Int]) -> String {
        values.dropLast().map(String.init).joined(separator: ", ") + " or \(values.last!)"
    }
}
