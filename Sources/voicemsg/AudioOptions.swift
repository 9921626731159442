import AudioPipeline
import ArgumentParser

/// The pipeline's settings that `encode` exposes; each default is the library's.
struct AudioOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Target integrated loudness, LUFS (negative numbers need no '=').")
    var targetLufs: Double = -16

    @Option(parsing: .unconditional, help: "True-peak ceiling of the decoded output, dBTP.")
    var truePeak: Double = -1

    @Option(help: "The most gain applied, dB.")
    var maxGain: Double = 36

    @Option(help: "Opus bitrate, kb/s.")
    var bitrate: Double = 24

    @Option(help: "Opus complexity, 0-10 (below 7 libopus skips its speech analysis).")
    var complexity: Int = 10

    @Option(help: "Opus frame duration, ms: 10, 20, 40 or 60.")
    var frameMs: Int = 20

    @Option(help: "Silence kept before the speech, ms.")
    var padBefore: Double = 150

    @Option(help: "Silence kept after the speech, ms.")
    var padAfter: Double = 300

    @Option(help: "How far above the noise floor speech must rise to start, dB.")
    var speechThreshold: Double?

    @Option(help: "The shortest burst that counts as speech, ms.")
    var minSpeech: Double?

    @Option(help: "High-pass cutoff that removes rumble, Hz (0 disables).")
    var highpass: Double = 75

    func validate() throws {
        guard (-70.0 ... -5.0).contains(targetLufs) else { throw ValidationError("--target-lufs must be within -70...-5.") }
        guard (-20.0...0.0).contains(truePeak) else { throw ValidationError("--true-peak must be within -20...0 dBTP.") }
        guard (6.0...510.0).contains(bitrate) else { throw ValidationError("--bitrate must be within 6...510 kb/s.") }
        guard (0...10).contains(complexity) else { throw ValidationError("--complexity must be within 0...10.") }
        guard [10, 20, 40, 60].contains(frameMs) else { throw ValidationError("--frame-ms must be 10, 20, 40 or 60.") }
        guard padBefore >= 0, padAfter >= 0 else { throw ValidationError("Padding cannot be negative.") }
        guard maxGain >= 0 else { throw ValidationError("--max-gain cannot be negative.") }
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
        if let speechThreshold { configuration.trimmer.enterThreshold = speechThreshold }
        if let minSpeech { configuration.trimmer.minimumSpeechDuration = minSpeech / 1000 }
        configuration.conditioner.highPassHz = highpass
        return configuration
    }
}
