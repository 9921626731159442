#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SpeechTrimmer {
    /// What the frame analysis found: the speech frames, if any, and the levels behind the choice.
    struct Analysis {
        var frameLength: Int
        /// Half-open range of frames holding speech, nil when there is none.
        var speechFrames: Range<Int>?
        var voiceNoiseFloor: NoiseFloor
        var fricativeNoiseFloor: NoiseFloor?
        var voicePeakLevel: Double
        var fricativePeakLevel: Double?
        /// How far the most active frame rose above its band's floor, in dB.
        var peakActivity: Double
        var longestBurstSeconds: Double
    }

    func analyze(_ levels: FrameLevels, sampleRate: Int) -> Analysis {
        let rate = Double(sampleRate)
        let frameLength = levels.frameLength
        let voiceFloor = NoiseFloor(levels: levels.voice, configuration: configuration)
        let fricativeFloor = levels.fricative.map { NoiseFloor(levels: $0, configuration: configuration) }

        // A frame counts by whichever band stands out more against its own floor.
        var score = levels.voice.map(voiceFloor.score)
        var peakActivity = (levels.voice.max() ?? -Double.infinity) - voiceFloor.level
        if let fricative = levels.fricative, let fricativeFloor {
            for index in score.indices {
                score[index] = max(score[index], fricativeFloor.score(fricative[index]))
            }
            peakActivity = max(peakActivity, (fricative.max() ?? -Double.infinity) - fricativeFloor.level)
        }

        // Voiced frames: the voice band is active and its waveform is slow enough to be a vowel
        // or a voiced consonant rather than a breath, hiss or rustle.
        let voiced = levels.voice.indices.map { index in
            levels.voice[index] >= voiceFloor.exitLevel
                && levels.crossingRate[index] <= configuration.maximumVoicedCrossingRate
        }

        let framesPerSecond = rate / Double(frameLength)
        let bursts = findSpeech(
            score,
            voiced: voiced,
            minimumVoicedFrames: Int((configuration.minimumVoicedDuration * framesPerSecond).rounded()),
            minimumFrames: max(1, Int((configuration.minimumSpeechDuration * framesPerSecond).rounded())),
            maximumGap: max(0, Int((configuration.maximumGapWithinBurst * framesPerSecond).rounded())),
            minimumWeakRun: max(1, Int((configuration.minimumWeakSoundDuration * framesPerSecond).rounded()))
        )
        return Analysis(
            frameLength: frameLength,
            speechFrames: bursts.speech,
            voiceNoiseFloor: voiceFloor,
            fricativeNoiseFloor: fricativeFloor,
            voicePeakLevel: levels.voice.max() ?? -Double.infinity,
            fricativePeakLevel: levels.fricative?.max(),
            peakActivity: peakActivity,
            longestBurstSeconds: Double(bursts.longestActiveFrames) / framesPerSecond
        )
    }

    /// Hysteresis over the frame scores (see `NoiseFloor.score`).
    ///
    /// A burst starts at a frame scoring 1 (the enter level) and goes on through runs of frames
    /// scoring 0 or more (the exit level), across dips of up to `maximumGap` frames. It ends with
    /// its last run that counts: one that reached the enter level, or one that stayed above the exit
    /// level for `minimumWeakRun` frames (a quiet fricative after a stop). A run that only grazes
    /// the exit level for a moment after the words is a swell of the noise, not a word. A burst is speech when at least `minimumFrames`
    /// of its frames are active. Speech spans the first to the last such burst, so pauses between
    /// them are kept.
    func findSpeech(
        _ activity: [Double], voiced: [Bool], minimumVoicedFrames: Int, minimumFrames: Int, maximumGap: Int,
        minimumWeakRun: Int
    )
        -> (speech: Range<Int>?, longestActiveFrames: Int)
    {
        let enter = 1.0
        let exit = 0.0
        var first: Int?
        var last: Int?
        var longest = 0
        var previousEnd = 0
        var inBurst = false
        var burstStart = 0
        var lastActive = 0
        var activeCount = 0
        // The current run of active frames counts: it reached the enter level, or it lasted.
        var runCounts = false
        var runLength = 0
        // End of the last strong run, and the active frames counted up to it.
        var strongEnd = 0
        var strongCount = 0

        // Extends the burst back through weak onset frames (never into the previous burst) and
        // keeps it only when it was active long enough to be speech rather than a click.
        func closeBurst() {
            inBurst = false
            var start = burstStart
            var count = strongCount
            while start > previousEnd, activity[start - 1] >= exit {
                start -= 1
                count += 1
            }
            longest = max(longest, count)
            var voicedCount = 0
            for index in start..<strongEnd where voiced[index] { voicedCount += 1 }
            if count >= minimumFrames, voicedCount >= minimumVoicedFrames {
                if first == nil { first = start }
                last = strongEnd
            }
            previousEnd = strongEnd
        }

        for (index, value) in activity.enumerated() {
            if !inBurst {
                guard value >= enter else { continue }
                inBurst = true
                burstStart = index
                lastActive = index - 1
                activeCount = 0
                runLength = 0
                runCounts = true
            }
            if value >= exit {
                if index > lastActive + 1 {
                    // A new run after a dip: it counts once it reaches the enter level or lasts
                    // `minimumWeakRun` frames, as the quiet "s" after the "p" in "champs" does.
                    runCounts = false
                    runLength = 0
                }
                lastActive = index
                activeCount += 1
                runLength += 1
                if value >= enter || runLength >= minimumWeakRun { runCounts = true }
                if runCounts {
                    strongEnd = index + 1
                    strongCount = activeCount
                }
            } else if index - lastActive > maximumGap {
                closeBurst()
            }
        }
        if inBurst { closeBurst() }

        guard let first, let last else { return (nil, longest) }
        return (first..<last, longest)
    }
}
