import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MessagePipeline {
    /// Decodes `input` and resamples it to the pipeline's rate a block at a time, straight into
    /// a `CompactSignal`; also returns the source's format and the signal's mean.
    ///
    /// With `interleaved`, the decoder keeps the source's channels, hands every block to
    /// `observe` as decoded, and the pipeline folds them with the decoder's own `Downmix`: the
    /// signal is the same to the bit, and the caller sees the source too.
    ///
    /// With `refusingLeadingSilence`, a recording whose opening is digital silence for longer
    /// than `limits.maximumLeadingSilenceSeconds` is refused there, before the rest is decoded.
    func load(
        _ input: AudioInput, clock: inout StageClock, interleaved: Bool = false, refusingLeadingSilence: Bool = false,
        begin: (SourceFormat) -> Void = { _ in }, observe: (UnsafeBufferPointer<Float>) throws -> Void = { _ in }
    ) throws -> (CompactSignal, SourceFormat, Float) {
        let rate = OpusStream.sampleRate
        var signal = CompactSignal()
        var sum = 0.0
        var resampler: Resampler.Stream?
        var inputRate = rate
        var resampleSeconds = 0.0
        var downmix: Downmix?
        var silence: LeadingSilenceGuard?
        var channels = 1
        func keep(_ block: UnsafeBufferPointer<Float>) {
            signal.append(block)
            for value in block { sum += Double(value) }
        }
        func resample(_ block: UnsafeBufferPointer<Float>) throws {
            guard inputRate != rate else { return keep(block) }
            let start = DispatchTime.now().uptimeNanoseconds
            if resampler == nil { resampler = try Resampler.Stream(from: inputRate, to: rate) }
            try resampler!.process(block, output: keep)
            resampleSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let source = try AudioDecoder.decode(
            input, limits: configuration.limits, downmix: !interleaved, isolation: configuration.isolation,
            begin: { format in
                begin(format)
                inputRate = format.sampleRate
                channels = format.isInterleaved ? format.channelCount : 1
                if refusingLeadingSilence {
                    silence = LeadingSilenceGuard(limitSeconds: configuration.limits.maximumLeadingSilenceSeconds, sampleRate: format.sampleRate)
                }
                signal = CompactSignal(reservingCapacity: Int(Double(format.frameCount) * Double(rate) / Double(format.sampleRate)) + 64)
                if interleaved, format.channelCount > 1 { downmix = Downmix(channelCount: format.channelCount) }
            },
            samples: { block in
                try silence?.check(block, frameCount: block.count / channels)
                try observe(block)
                if downmix != nil {
                    try downmix!(block, resample)
                } else {
                    try resample(block)
                }
            })
        try resampler?.finish(output: keep)
        signal.finish()
        clock.lap("decode")
        clock.move(resampleSeconds, from: "decode", to: "resample")
        return (signal, source, Float(sum / Double(max(1, signal.count))))
    }

    /// Removes DC and rumble from `signal` in place while measuring the frame levels the
    /// trimmer decides on, in the same pass.
    func condition(_ signal: inout CompactSignal, mean: Float, clock: inout StageClock) -> SpeechTrimmer.FrameLevels {
        let rate = OpusStream.sampleRate
        let trimmer = SpeechTrimmer(configuration: configuration.trimmer)
        var levels = trimmer.frameLevelMeter(sampleRate: rate)
        var conditioner = Conditioner(configuration: configuration.conditioner).stream(mean: mean, sampleRate: rate)
        signal.transform { block in
            conditioner.process(block)
            levels.append(UnsafeBufferPointer(block))
        }
        clock.lap("condition")
        return levels.finish(configuration: trimmer.configuration)
    }
}
