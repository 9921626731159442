import Foundation
import Testing

/// One synthetic message with a known speech span: speech cropped to its true span, with exact
/// silence before and after, optionally pink noise 10 dB below the speech and a 30 ms click
/// half a second before it.
struct TrimCase: Sendable, CustomTestStringConvertible {
    var text: String
    var leading: Double
    var trailing: Double
    var isNoisy: Bool
    var click: TestSignals.ClickShape?
    /// Brown instead of pink noise, when the message is noisy.
    var isBrownNoise = false
    /// Speech RMS over noise RMS, in dB, when the message is noisy.
    var signalToNoise: Double = 10
    /// Gain applied to the speech, in dB (espeak-ng peaks near -2 dBFS).
    var gain: Double = 0
    /// Silence between the first utterance and `secondText`, when there is one.
    var secondText: String?
    var pause: Double = 1.2

    var testDescription: String {
        var parts = ["\"\(text.prefix(12))…\"", "lead \(leading) s", "trail \(trailing) s"]
        if secondText != nil { parts.append("two utterances, \(pause) s apart") }
        parts.append(isNoisy ? "\(isBrownNoise ? "brown" : "pink") noise at \(signalToNoise) dB SNR" : "clean")
        if let click { parts.append("\(click.rawValue) click") }
        if gain != 0 { parts.append("gain \(gain) dB") }
        return parts.joined(separator: ", ")
    }

    /// The message's samples and its true speech span (half-open, in samples).
    func build() throws -> (samples: [Float], truth: Range<Int>) {
        let scale = Float(pow(10, gain / 20))
        var speech = try Self.cropped(SpeechFixtures.speech(text)).map { $0 * scale }
        if let secondText {
            speech += [Float](repeating: 0, count: TestSignals.samples(seconds: pause))
            speech += try Self.cropped(SpeechFixtures.speech(secondText)).map { $0 * scale }
        }
        let lead = TestSignals.samples(seconds: leading)
        var samples = [Float](repeating: 0, count: lead) + speech
            + [Float](repeating: 0, count: TestSignals.samples(seconds: trailing))
        let truth = lead..<(lead + speech.count)
        let seed = UInt64(truncatingIfNeeded: testDescription.hashValueStable)

        if let click {
            let peak = speech.reduce(Float(0)) { max($0, abs($1)) }
            let start = truth.lowerBound - TestSignals.samples(seconds: 0.5)
            precondition(start >= 0, "a click needs at least 0.5 s before the speech")
            for (offset, value) in TestSignals.click(click, peak: peak, seed: seed).enumerated() {
                samples[start + offset] += value
            }
        }
        if isNoisy {
            let speechLevel = TestSignals.rms(speech[...])
            let noiseLevel = speechLevel / pow(10, signalToNoise / 20)
            let noise = isBrownNoise
                ? TestSignals.brownNoise(count: samples.count, seed: seed &+ 1)
                : TestSignals.pinkNoise(count: samples.count, seed: seed &+ 1)
            for index in samples.indices {
                samples[index] += Float(noiseLevel) * noise[index]
            }
        }
        return (samples, truth)
    }

    private static func cropped(_ speech: [Float]) -> [Float] {
        guard let span = TestSignals.truthSpan(of: speech) else { return [] }
        return Array(speech[span])
    }
}

extension String {
    /// FNV-1a, stable across runs (unlike `hashValue`), to seed each case's noise.
    var hashValueStable: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3
        }
        return hash
    }
}
