#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SpeechTrimmer {
    /// The trimmer's per-frame levels of a signal that arrives in pieces: mean-square level of
    /// each frame in each band (voice, and fricatives when the sample rate leaves room), and
    /// how often the voice-band signal crosses zero per second (a vowel's low formants cross
    /// about 400 to 1500 times a second, a breath or hiss 4000 times and more). The band
    /// filters run inline, one pass, nothing kept per sample.
    struct FrameLevelMeter {
        let frameLength: Int
        let sampleRate: Double
        let hasFricativeBand: Bool
        private var voiceHighPass, voiceLowPass, fricativeHighPass, fricativeLowPass: Biquad
        private(set) var voice: [Double] = []
        private(set) var fricative: [Double] = []
        private(set) var crossingRate: [Double] = []
        private var voiceSum = 0.0, fricativeSum = 0.0
        private var crossings = 0, inFrame = 0
        private var wasPositive = false

        init(configuration: Configuration, frameLength: Int, sampleRate: Double) {
            self.frameLength = frameLength
            self.sampleRate = sampleRate
            let nyquistGuard = 0.45 * sampleRate
            let voiceHigh = min(configuration.voiceBandHighFrequency, nyquistGuard)
            let voiceLow = min(configuration.voiceBandLowFrequency, 0.5 * voiceHigh)
            voiceHighPass = Biquad.highPass(cutoff: voiceLow, sampleRate: sampleRate)
            voiceLowPass = Biquad.lowPass(cutoff: voiceHigh, sampleRate: sampleRate)
            let fricativeHigh = min(configuration.fricativeBandHighFrequency, nyquistGuard)
            let fricativeLow = configuration.fricativeBandLowFrequency
            hasFricativeBand = fricativeHigh > 1.25 * fricativeLow
            fricativeHighPass = Biquad.highPass(cutoff: min(fricativeLow, 0.5 * nyquistGuard), sampleRate: sampleRate)
            fricativeLowPass = Biquad.lowPass(cutoff: fricativeHigh, sampleRate: sampleRate)
        }

        mutating func append(_ samples: UnsafeBufferPointer<Float>) {
            for sample in samples {
                let x = Double(sample)
                let v = voiceLowPass.process(voiceHighPass.process(x))
                voiceSum += v * v
                if hasFricativeBand {
                    let f = fricativeLowPass.process(fricativeHighPass.process(x))
                    fricativeSum += f * f
                }
                let isPositive = v >= 0
                crossings &+= isPositive != wasPositive ? 1 : 0
                wasPositive = isPositive
                inFrame += 1
                if inFrame == frameLength { closeFrame() }
            }
        }

        private mutating func closeFrame() {
            let length = Double(inFrame)
            voice.append(voiceSum / length)
            if hasFricativeBand { fricative.append(fricativeSum / length) }
            crossingRate.append(Double(crossings) * sampleRate / length)
            voiceSum = 0
            fricativeSum = 0
            crossings = 0
            inFrame = 0
        }

        /// The levels in dBFS, smoothed over `smoothingDuration`, once all samples are in.
        mutating func finish(configuration: Configuration) -> FrameLevels {
            if inFrame > 0 { closeFrame() }
            let width = max(1, Int((configuration.smoothingDuration / configuration.frameDuration).rounded()))
            return FrameLevels(
                frameLength: frameLength,
                voice: SpeechTrimmer.smoothedDecibels(voice, width: width),
                fricative: hasFricativeBand ? SpeechTrimmer.smoothedDecibels(fricative, width: width) : nil,
                crossingRate: crossingRate)
        }
    }

    /// What `FrameLevelMeter` found, ready for the speech decision.
    struct FrameLevels {
        var frameLength: Int
        var voice: [Double]
        var fricative: [Double]?
        var crossingRate: [Double]
    }

    func frameLevelMeter(sampleRate: Int) -> FrameLevelMeter {
        let frameLength = max(1, Int((configuration.frameDuration * Double(sampleRate)).rounded()))
        return FrameLevelMeter(configuration: configuration, frameLength: frameLength, sampleRate: Double(sampleRate))
    }

    /// Centred moving average of the mean squares over `width` frames, in dB. Averaging energy
    /// (not dB) narrows the spread of noise frames, so thresholds can sit closer to the floor and
    /// weak word endings stay above them.
    static func smoothedDecibels(_ meanSquares: [Double], width: Int) -> [Double] {
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
