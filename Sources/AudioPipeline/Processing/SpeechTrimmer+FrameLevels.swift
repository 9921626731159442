import Foundation

extension SpeechTrimmer {
    /// Mean-square level of each frame in each band, smoothed over `smoothingDuration`, in dBFS.
    ///
    /// One pass over the samples with the band filters inline, and no allocation besides the
    /// results. The fricative band is nil when the sample rate leaves no room for it. Also counts
    /// how often the voice-band signal crosses zero, per second: a vowel's low formants cross
    /// about 400 to 1500 times a second, a breath or hiss 4000 times and more.
    func frameLevels(_ samples: UnsafeBufferPointer<Float>, frameLength: Int, sampleRate: Double)
        -> (voice: [Double], fricative: [Double]?, crossingRate: [Double])
    {
        let count = samples.count
        let frameCount = (count + frameLength - 1) / frameLength
        let nyquistGuard = 0.45 * sampleRate
        let voiceHigh = min(configuration.voiceBandHighFrequency, nyquistGuard)
        let voiceLow = min(configuration.voiceBandLowFrequency, 0.5 * voiceHigh)
        var voiceHighPass = Biquad.highPass(cutoff: voiceLow, sampleRate: sampleRate)
        var voiceLowPass = Biquad.lowPass(cutoff: voiceHigh, sampleRate: sampleRate)
        let fricativeHigh = min(configuration.fricativeBandHighFrequency, nyquistGuard)
        let fricativeLow = configuration.fricativeBandLowFrequency
        let hasFricativeBand = fricativeHigh > 1.25 * fricativeLow
        var fricativeHighPass = Biquad.highPass(cutoff: min(fricativeLow, 0.5 * nyquistGuard), sampleRate: sampleRate)
        var fricativeLowPass = Biquad.lowPass(cutoff: fricativeHigh, sampleRate: sampleRate)

        var voice = [Double](repeating: 0, count: frameCount)
        var fricative = [Double](repeating: 0, count: hasFricativeBand ? frameCount : 0)
        var crossingRate = [Double](repeating: 0, count: frameCount)
        var wasPositive = false
        crossingRate.withUnsafeMutableBufferPointer { crossingRate in
        voice.withUnsafeMutableBufferPointer { voice in
            fricative.withUnsafeMutableBufferPointer { fricative in
                var start = 0
                for frame in 0..<frameCount {
                    let end = min(count, start + frameLength)
                    var voiceSum = 0.0
                    var fricativeSum = 0.0
                    var crossings = 0
                    if hasFricativeBand {
                        for index in start..<end {
                            let x = Double(samples[index])
                            let v = voiceLowPass.process(voiceHighPass.process(x))
                            let f = fricativeLowPass.process(fricativeHighPass.process(x))
                            voiceSum += v * v
                            fricativeSum += f * f
                            let isPositive = v >= 0
                            crossings &+= isPositive != wasPositive ? 1 : 0
                            wasPositive = isPositive
                        }
                        fricative[frame] = fricativeSum / Double(end - start)
                    } else {
                        for index in start..<end {
                            let x = Double(samples[index])
                            let v = voiceLowPass.process(voiceHighPass.process(x))
                            voiceSum += v * v
                            let isPositive = v >= 0
                            crossings &+= isPositive != wasPositive ? 1 : 0
                            wasPositive = isPositive
                        }
                    }
                    voice[frame] = voiceSum / Double(end - start)
                    crossingRate[frame] = Double(crossings) * sampleRate / Double(end - start)
                    start = end
                }
            }
        }
        }
        let width = max(1, Int((configuration.smoothingDuration / configuration.frameDuration).rounded()))
        return (Self.smoothedDecibels(voice, width: width),
                hasFricativeBand ? Self.smoothedDecibels(fricative, width: width) : nil,
                crossingRate)
    }

    /// Centred moving average of the mean squares over `width` frames, in dB. Averaging energy
    /// (not dB) narrows the spread of noise frames, so thresholds can sit closer to the floor and
    /// weak word endings stay above them.
    private static func smoothedDecibels(_ meanSquares: [Double], width: Int) -> [Double] {
        let count = meanSquares.count
        guard width > 1 else { return meanSquares.map(decibels) }
        let before = (width - 1) / 2
        var levels = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let lower = max(0, index - before)
            let upper = min(count, lower + width)
            var sum = 0.0
            for k in lower..<upper { sum += meanSquares[k] }
            levels[index] = decibels(sum / Double(upper - lower))
        }
        return levels
    }

    /// A NaN or zero mean square gives -infinity, which never passes a threshold.
    static func decibels(_ meanSquare: Double) -> Double {
        meanSquare > 0 ? 10 * log10(meanSquare) : -Double.infinity
    }
}
