import Foundation

extension SpeechTrimmer {
    /// What the frame analysis found: the speech frames, if any, and the levels behind the choice.
    struct Analysis {
        var frameLength: Int
        /// Half-open range of frames holding speech, nil when there is none.
        var speechFrames: Range<Int>?
        var voiceNoiseFloor: Double
        var fricativeNoiseFloor: Double?
        var voicePeakLevel: Double
        var fricativePeakLevel: Double?
        /// How far the most active frame rose above its band's floor, in dB.
        var peakActivity: Double
        var longestBurstSeconds: Double
    }

    func analyze(_ samples: UnsafeBufferPointer<Float>, sampleRate: Int) -> Analysis {
        let rate = Double(sampleRate)
        let frameLength = max(1, Int((configuration.frameDuration * rate).rounded()))
        let levels = frameLevels(samples, frameLength: frameLength, sampleRate: rate)
        let voiceFloor = noiseFloor(levels.voice)
        let fricativeFloor = levels.fricative.map(noiseFloor)

        // A frame's activity: how far the louder band rises above its own floor.
        var activity = levels.voice.map { $0 - voiceFloor }
        if let fricative = levels.fricative, let fricativeFloor {
            for index in activity.indices {
                activity[index] = max(activity[index], fricative[index] - fricativeFloor)
            }
        }

        let framesPerSecond = rate / Double(frameLength)
        let bursts = findSpeech(
            activity,
            minimumFrames: max(1, Int((configuration.minimumSpeechDuration * framesPerSecond).rounded())),
            maximumGap: max(0, Int((configuration.maximumGapWithinBurst * framesPerSecond).rounded()))
        )
        return Analysis(
            frameLength: frameLength,
            speechFrames: bursts.speech,
            voiceNoiseFloor: voiceFloor,
            fricativeNoiseFloor: fricativeFloor,
            voicePeakLevel: levels.voice.max() ?? -Double.infinity,
            fricativePeakLevel: levels.fricative?.max(),
            peakActivity: activity.max() ?? -Double.infinity,
            longestBurstSeconds: Double(bursts.longestActiveFrames) / framesPerSecond
        )
    }

    /// Hysteresis over the activity (dB above the floor): a burst starts at `enterThreshold`,
    /// continues while frames reach `exitThreshold` with dips up to `maximumGap` frames, and is
    /// speech when at least `minimumFrames` of its frames are active. Speech spans the first to the
    /// last such burst, so pauses between them are kept.
    func findSpeech(_ activity: [Double], minimumFrames: Int, maximumGap: Int)
        -> (speech: Range<Int>?, longestActiveFrames: Int)
    {
        let enter = configuration.enterThreshold
        let exit = min(configuration.exitThreshold, enter)
        var first: Int?
        var last: Int?
        var longest = 0
        var previousEnd = 0
        var burstStart = 0
        var lastActive = 0
        var activeCount = 0
        var inBurst = false

        // Extends the burst back through weak onset frames (never into the previous burst) and
        // keeps it only when it was active long enough to be speech rather than a click.
        func closeBurst() {
            inBurst = false
            var start = burstStart
            while start > previousEnd, activity[start - 1] >= exit {
                start -= 1
                activeCount += 1
            }
            let end = lastActive + 1
            longest = max(longest, activeCount)
            if activeCount >= minimumFrames {
                if first == nil { first = start }
                last = end
            }
            previousEnd = end
        }

        for (index, value) in activity.enumerated() {
            if !inBurst {
                if value >= enter {
                    inBurst = true
                    burstStart = index
                    lastActive = index
                    activeCount = 1
                }
            } else if value >= exit {
                lastActive = index
                activeCount += 1
            } else if index - lastActive > maximumGap {
                closeBurst()
            }
        }
        if inBurst { closeBurst() }

        guard let first, let last else { return (nil, longest) }
        return (first..<last, longest)
    }

    /// Mean-square level of each frame in each band, in dBFS.
    ///
    /// One pass over the samples with the band filters inline, and no allocation besides the
    /// results. The fricative band is nil when the sample rate leaves no room for it.
    func frameLevels(_ samples: UnsafeBufferPointer<Float>, frameLength: Int, sampleRate: Double)
        -> (voice: [Double], fricative: [Double]?)
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

        var voice = [Double](repeating: -Double.infinity, count: frameCount)
        var fricative = [Double](repeating: -Double.infinity, count: hasFricativeBand ? frameCount : 0)
        voice.withUnsafeMutableBufferPointer { voice in
            fricative.withUnsafeMutableBufferPointer { fricative in
                var start = 0
                for frame in 0..<frameCount {
                    let end = min(count, start + frameLength)
                    var voiceSum = 0.0
                    var fricativeSum = 0.0
                    if hasFricativeBand {
                        for index in start..<end {
                            let x = Double(samples[index])
                            let v = voiceLowPass.process(voiceHighPass.process(x))
                            let f = fricativeLowPass.process(fricativeHighPass.process(x))
                            voiceSum += v * v
                            fricativeSum += f * f
                        }
                        fricative[frame] = Self.decibels(fricativeSum / Double(end - start))
                    } else {
                        for index in start..<end {
                            let v = voiceLowPass.process(voiceHighPass.process(Double(samples[index])))
                            voiceSum += v * v
                        }
                    }
                    voice[frame] = Self.decibels(voiceSum / Double(end - start))
                    start = end
                }
            }
        }
        return (voice, hasFricativeBand ? fricative : nil)
    }

    /// A NaN or zero mean square gives -infinity, which never passes a threshold.
    private static func decibels(_ meanSquare: Double) -> Double {
        meanSquare > 0 ? 10 * log10(meanSquare) : -Double.infinity
    }

    /// A low percentile of the frame levels that are not digital silence, never below
    /// `minimumNoiseFloor`.
    func noiseFloor(_ levels: [Double]) -> Double {
        var audible = levels.filter { $0 > configuration.digitalSilenceLevel }
        guard !audible.isEmpty else { return configuration.minimumNoiseFloor }
        audible.sort()
        let fraction = min(1, max(0, configuration.noiseFloorPercentile))
        let index = Int((fraction * Double(audible.count - 1)).rounded(.down))
        return max(configuration.minimumNoiseFloor, audible[index])
    }
}
