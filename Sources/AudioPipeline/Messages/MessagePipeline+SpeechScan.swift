extension MessagePipeline {
    /// Where the speech in a recording is, found exactly as `process` finds it.
    public struct SpeechScan: Sendable {
        /// The recording's format and decoded length.
        public var source: SourceFormat
        /// The speech span and the span `process` would keep, or why there is none.
        public var speech: Result<SpeechTrimmer.Measurement, AudioPipelineError>
        /// What the Denoiser did before the trimmer looked.
        public var denoise: Denoiser.Measurement
    }

    /// Decodes, resamples, conditions, denoises and measures `input` as `process` does, and stops before
    /// the encoder: `inspect` reports what `encode` would keep.
    ///
    /// `begin` learns the source's format first; `samples` then sees every decoded block with
    /// all the source's channels interleaved, so that a report can measure the source in the
    /// same pass. Errors that stop the decode throw, naming the input; a recording without
    /// speech is an answer, in `speech`.
    public func scanSpeech(
        _ input: AudioInput, begin: (SourceFormat) -> Void = { _ in },
        samples: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> SpeechScan {
        do {
            var clock = StageClock()
            var (signal, source, mean) = try load(input, clock: &clock, interleaved: true, begin: begin, observe: samples)
            var levels = condition(&signal, mean: mean, clock: &clock)
            let denoising = try denoise(&signal, levels: &levels, clock: &clock)
            let trimmer = SpeechTrimmer(configuration: configuration.trimmer)
            do {
                let span = try trimmer.measure(levels, sampleCount: signal.count, sampleRate: OpusStream.sampleRate)
                return SpeechScan(source: source, speech: .success(span), denoise: denoising)
            } catch let error as AudioPipelineError {
                return SpeechScan(source: source, speech: .failure(error), denoise: denoising)
            }
        } catch let error as AudioPipelineError {
            throw error.attributed(to: input.name)
        }
    }
}
