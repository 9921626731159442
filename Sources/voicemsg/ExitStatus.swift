import AudioPipeline
import ArgumentParser

/// Exit statuses, documented in `--help` and docs/cli.md.
enum ExitStatus {
    /// Some input could not be processed (unreadable, out of limits, unwritable output...).
    static let failure: Int32 = 1
    /// Every failing input failed only because it holds no speech.
    static let noSpeech: Int32 = 3

    static func forFailures(_ errors: [AudioPipelineError]) -> ExitCode {
        guard !errors.isEmpty else { return .success }
        return ExitCode(errors.allSatisfy { $0.code == .noSpeech } ? noSpeech : failure)
    }
}
