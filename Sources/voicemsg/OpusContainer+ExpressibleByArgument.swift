import ArgumentParser
import AudioPipeline

/// `--format ogg`, `--format caf` or `--format webm`, by the raw value.
extension OpusContainer: ExpressibleByArgument {}
