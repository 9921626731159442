extension MessagePipeline {
    /// The Denoiser's stage: decides from the conditioned signal's frame levels whether the
    /// message needs it, and if so replaces `signal` with the cleaned one and `levels` with its
    /// levels, which the trimmer then decides on.
    ///
    /// Throws only when `mode` names an engine that is not installed; in `.automatic` a missing
    /// engine is a note in the measurement. The engine is loaded only for a message that needs it.
    func denoise(
        _ signal: inout CompactSignal, levels: inout SpeechTrimmer.FrameLevels, clock: inout StageClock
    ) throws -> Denoiser.Measurement {
        let denoiser = Denoiser(configuration: configuration.denoiser)
        let trimmer = SpeechTrimmer(configuration: configuration.trimmer)
        let rate = OpusStream.sampleRate
        let analysis = trimmer.analyze(levels, sampleRate: rate)
        let floorBefore = analysis.voiceNoiseFloor.level

        var measurement = Denoiser.Measurement(decision: .off)
        measurement.noiseFloorBeforeDB = floorBefore
        guard configuration.denoiser.mode != .off else { return measurement }
        guard let snr = Denoiser.signalToNoise(levels, analysis) else {
            measurement.decision = .noSpeech
            return measurement
        }
        measurement.signalToNoiseDB = snr
        guard snr < configuration.denoiser.cleanSignalToNoise else {
            measurement.decision = .clean
            return measurement
        }
        // Only a message that needs the engine loads it: clean ones never pay for it.
        let (engine, unavailable) = try Denoiser.engine(for: configuration.denoiser.mode)
        guard let engine else {
            measurement.decision = .unavailable
            measurement.note = unavailable?.message
            return measurement
        }
        measurement.decision = .applied
        let floor = analysis.voiceNoiseFloor
        let crossingRate = Denoiser.quietCrossingRate(levels, floor: floor.level)
        let isSpeechLike = denoiser.isSpeechLike(spread: floor.tailSpread, crossingRate: crossingRate)
        let limit = isSpeechLike
            ? min(configuration.denoiser.attenuationLimit, configuration.denoiser.speechLikeNoiseAttenuationLimit)
            : configuration.denoiser.attenuationLimit
        measurement.noiseSpreadDB = floor.tailSpread
        measurement.noiseCrossingRate = crossingRate
        measurement.isNoiseSpeechLike = isSpeechLike

        switch engine {
        case .deepFilterNet:
            let library = try DeepFilterNetLibrary.installed.get()
            var cleaned = CompactSignal(reservingCapacity: signal.count)
            var meter = trimmer.frameLevelMeter(sampleRate: rate)
            try denoiser.run(library, over: signal, speechPeakLevel: analysis.voicePeakLevel, attenuationLimit: limit) { block in
                cleaned.append(block)
                meter.append(block)
            }
            cleaned.finish()
            signal = cleaned
            levels = meter.finish(configuration: trimmer.configuration)
        }
        let floorAfter = SpeechTrimmer.NoiseFloor(levels: levels.voice, configuration: trimmer.configuration).level
        measurement.engine = Denoiser.name(of: engine)
        measurement.noiseFloorAfterDB = floorAfter
        measurement.attenuationLimitDB = limit
        measurement.attenuationDB = floorBefore - floorAfter
        clock.lap("denoise")
        return measurement
    }
}
