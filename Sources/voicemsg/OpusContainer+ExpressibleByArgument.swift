import ArgumentParser
import AudioPipeline

/// `--format ogg` or `--format caf`, by the raw value.
extension OpusContainer: ExpressibleByArgument {}
