extension InputLimits {
    /// Refuses a stream whose channel count or sample rate is outside the limits, before any
    /// sample is read. `declarer` names what declared them (`the header`, `the stream`), since
    /// libsndfile reads a header and the isolated decoder reads what FFmpeg reports.
    func checkFormat(channels: Int, sampleRate rate: Int, declarer: String) throws(AudioPipelineError) {
        guard channels >= 1 else {
            throw AudioPipelineError(.unsupportedInput, "\(declarer) declares \(channels) channels")
        }
        guard channels <= maximumChannelCount else {
            throw AudioPipelineError(.unsupportedInput, "\(channels) channels; at most \(maximumChannelCount) are accepted")
        }
        guard sampleRates.contains(rate) else {
            throw AudioPipelineError(
                .unsupportedInput,
                "sample rate \(rate) Hz is outside \(sampleRates.lowerBound)...\(sampleRates.upperBound) Hz")
        }
    }
}
