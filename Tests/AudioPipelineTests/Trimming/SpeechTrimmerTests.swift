import Foundation
import Testing
@testable import AudioPipeline

@Suite struct SpeechTrimmerTests {
    static let silences = [0, 0.3, 1, 2.5, 5]
    static let texts = [SpeechFixtures.halfway, SpeechFixtures.proud, SpeechFixtures.fricatives, SpeechFixtures.short]

    /// Every text with every leading and trailing silence, clean and in pink noise, and where
    /// there is room for it, a click of each shape half a second before the speech; in brown
    /// noise (low rumble), the same silence at both ends, with and without a click.
    static var grid: [TrimCase] {
        var cases: [TrimCase] = []
        for text in texts {
            for leading in silences {
                let clicks: [TestSignals.ClickShape?] = leading >= 0.5 ? [nil] + TestSignals.ClickShape.allCases : [nil]
                for trailing in silences {
                    for isNoisy in [false, true] {
                        for click in clicks {
                            cases.append(TrimCase(text: text, leading: leading, trailing: trailing, isNoisy: isNoisy, click: click))
                        }
                    }
                }
                for click in clicks.prefix(2) {
                    cases.append(TrimCase(text: text, leading: leading, trailing: leading, isNoisy: true, click: click,
                                          isBrownNoise: true))
                }
            }
        }
        // Level must not matter: very quiet and hot speech, in the same room noise relative to it.
        for gain in [-40.0, 4] {
            for isNoisy in [false, true] {
                cases.append(TrimCase(text: SpeechFixtures.halfway, leading: 1, trailing: 2.5, isNoisy: isNoisy, click: .burst, gain: gain))
            }
        }
        // Two utterances with an inner pause longer than a second.
        for isNoisy in [false, true] {
            for (leading, trailing) in [(0.0, 0.0), (1, 2.5), (5, 5)] {
                cases.append(TrimCase(text: SpeechFixtures.first, leading: leading, trailing: trailing, isNoisy: isNoisy,
                                      click: leading >= 1 ? .decaying : nil, secondText: SpeechFixtures.second))
            }
        }
        return cases
    }

    /// The detected edges within ±50 ms of the truth, nothing of the
    /// speech cut, at most padding + 100 ms of dead air left at each end, inner pauses kept.
    @Test func findsSpeechWithinFiftyMillisecondsAcrossTheGrid() throws {
        let trimmer = SpeechTrimmer()
        let rate = Double(TestSignals.sampleRate)
        var worstStart = (error: 0.0, name: "")
        var worstEnd = (error: 0.0, name: "")
        var worstLeadingAir = 0.0
        var worstTrailingAir = 0.0
        let cases = Self.grid
        for trimCase in cases {
            let (samples, truth) = try trimCase.build()
            let name = trimCase.testDescription
            let result = try trimmer.trim(samples)
            let measured = result.measurement

            let startError = Double(measured.speechStartSample - truth.lowerBound) / rate
            let endError = Double(measured.speechEndSample - truth.upperBound) / rate
            let leadingAir = Double(truth.lowerBound - measured.keptStartSample) / rate
            let trailingAir = Double(measured.keptEndSample - truth.upperBound) / rate
            if abs(startError) > abs(worstStart.error) { worstStart = (startError, name) }
            if abs(endError) > abs(worstEnd.error) { worstEnd = (endError, name) }
            worstLeadingAir = max(worstLeadingAir, leadingAir)
            worstTrailingAir = max(worstTrailingAir, trailingAir)

            #expect(abs(startError) <= 0.050, "start off by \(ms(startError)) in \(name)")
            #expect(abs(endError) <= 0.050, "end off by \(ms(endError)) in \(name)")
            #expect(measured.keptStartSample <= truth.lowerBound, "speech start cut in \(name)")
            #expect(measured.keptEndSample >= truth.upperBound, "speech end cut in \(name)")
            #expect(leadingAir <= 0.150 + 0.100, "\(ms(leadingAir)) of dead air before \(name)")
            #expect(trailingAir <= 0.300 + 0.100, "\(ms(trailingAir)) of dead air after \(name)")
            #expect(result.samples.count == measured.keptSampleCount)
        }
        print("""
            SpeechTrimmer grid: \(cases.count) messages; worst start error \(ms(worstStart.error)) \
            (\(worstStart.name)); worst end error \(ms(worstEnd.error)) (\(worstEnd.name)); \
            most dead air kept: \(ms(worstLeadingAir)) before, \(ms(worstTrailingAir)) after
            """)
    }

    /// Beyond the acceptance: at 6 dB SNR, in pink noise and in low brown rumble, the edges
    /// still fall within ±100 ms and the padding keeps every word (a quiet word ending can be
    /// found up to about 70 ms early at this level of noise).
    @Test(arguments: [false, true])
    func keepsEveryWordAtSixDecibelsSignalToNoise(isBrownNoise: Bool) throws {
        let rate = Double(TestSignals.sampleRate)
        var worst = (start: 0.0, end: 0.0)
        for text in Self.texts {
            for leading in [0.0, 1, 5] {
                for click: TestSignals.ClickShape? in leading >= 1 ? [nil, .burst] : [nil] {
                    let trimCase = TrimCase(text: text, leading: leading, trailing: 2.5, isNoisy: true, click: click,
                                            isBrownNoise: isBrownNoise, signalToNoise: 6)
                    let (samples, truth) = try trimCase.build()
                    let measured = try SpeechTrimmer().measure(samples)
                    let startError = Double(measured.speechStartSample - truth.lowerBound) / rate
                    let endError = Double(measured.speechEndSample - truth.upperBound) / rate
                    if abs(startError) > abs(worst.start) { worst.start = startError }
                    if abs(endError) > abs(worst.end) { worst.end = endError }
                    #expect(abs(startError) <= 0.100, "start off by \(ms(startError)) in \(trimCase.testDescription)")
                    #expect(abs(endError) <= 0.100, "end off by \(ms(endError)) in \(trimCase.testDescription)")
                    #expect(measured.keptStartSample <= truth.lowerBound && measured.keptEndSample >= truth.upperBound,
                            "speech cut in \(trimCase.testDescription)")
                }
            }
        }
        print("SpeechTrimmer at 6 dB SNR, \(isBrownNoise ? "brown" : "pink") noise: worst start \(ms(worst.start)), worst end \(ms(worst.end))")
    }

    /// A breath a second before the words, 20 to 40 dB below the speech, is not speech.
    @Test(arguments: [-40.0, -30, -20], [false, true])
    func ignoresABreathBeforeTheSpeech(relativeLevel: Double, isNoisy: Bool) throws {
        var (samples, truth) = try TrimCase(text: SpeechFixtures.halfway, leading: 2, trailing: 1, isNoisy: isNoisy,
                                            click: nil).build()
        let speechLevel = TestSignals.rms(samples[truth])
        let breath = TestSignals.breath(rms: speechLevel * pow(10, relativeLevel / 20), seed: 11)
        let start = truth.lowerBound - TestSignals.samples(seconds: 1)
        for (offset, value) in breath.enumerated() { samples[start + offset] += value }
        let measured = try SpeechTrimmer().measure(samples)
        let startError = Double(measured.speechStartSample - truth.lowerBound) / Double(TestSignals.sampleRate)
        #expect(abs(startError) <= 0.050, "start off by \(ms(startError))")
    }

    @Test(arguments: [false, true])
    func keepsAPauseOfOverASecondUntouched(isNoisy: Bool) throws {
        let trimCase = TrimCase(text: SpeechFixtures.first, leading: 2, trailing: 2, isNoisy: isNoisy,
                                click: nil, secondText: SpeechFixtures.second, pause: 1.2)
        let (samples, truth) = try trimCase.build()
        let result = try SpeechTrimmer().trim(samples)
        let kept = result.measurement.keptStartSample
        #expect(result.measurement.keptStartSample <= truth.lowerBound)
        #expect(result.measurement.keptEndSample >= truth.upperBound)
        // Between the fades, the kept audio is the input, sample for sample, pause included.
        let fade = TestSignals.samples(seconds: SpeechTrimmer.Configuration().fadeDuration)
        let inner = (kept + fade)..<(result.measurement.keptEndSample - fade)
        #expect(Array(samples[inner]) == Array(result.samples[(inner.lowerBound - kept)..<(inner.upperBound - kept)]))
    }

    @Test func fadesOnlyWhereItCuts() throws {
        let speech = try TrimCase(text: SpeechFixtures.halfway, leading: 0, trailing: 0, isNoisy: true, click: nil).build()
        // Nothing to cut: the output is the input.
        let untouched = try SpeechTrimmer().trim(speech.samples)
        #expect(untouched.samples == speech.samples)

        let padded = try TrimCase(text: SpeechFixtures.halfway, leading: 2, trailing: 2, isNoisy: true, click: nil).build()
        let trimmed = try SpeechTrimmer().trim(padded.samples)
        let start = trimmed.measurement.keptStartSample
        let fade = TestSignals.samples(seconds: SpeechTrimmer.Configuration().fadeDuration)
        #expect(start > 0 && trimmed.measurement.keptEndSample < padded.samples.count)
        // The first and last samples are close to silent, rising to unity gain at the fade's end.
        #expect(abs(trimmed.samples[0]) <= abs(padded.samples[start]) * 0.01)
        #expect(abs(trimmed.samples[trimmed.samples.count - 1]) <= abs(padded.samples[trimmed.measurement.keptEndSample - 1]) * 0.01)
        let gains = (0..<fade).map { Double(trimmed.samples[$0] / padded.samples[start + $0]) }
        #expect(zip(gains, gains.dropFirst()).allSatisfy { $0 <= $1 + 1e-6 }, "the fade-in rises monotonically")
        #expect(trimmed.samples[fade] == padded.samples[start + fade])
    }

    /// Recordings with no speech: each must be a `.noSpeech` error whose message gives levels.
    static let noSpeechCases: [(String, [Float])] = {
        let five = TestSignals.samples(seconds: 5)
        let pink = TestSignals.pinkNoise(count: five, seed: 7)
        let white = TestSignals.whiteNoise(count: five, seed: 8)
        let brown = TestSignals.brownNoise(count: five, seed: 10)
        func scaled(_ signal: [Float], _ dB: Double) -> [Float] {
            let gain = Float(pow(10, dB / 20))
            return signal.map { $0 * gain }
        }
        func withClick(_ base: [Float], _ shape: TestSignals.ClickShape, at seconds: [Double]) -> [Float] {
            var signal = base
            for time in seconds {
                let start = TestSignals.samples(seconds: time)
                for (offset, value) in TestSignals.click(shape, peak: 0.9, seed: 9).enumerated() {
                    signal[start + offset] += value
                }
            }
            return signal
        }
        return [
            ("empty", []),
            ("a few samples", [0.1, -0.2, 0.3]),
            ("pure silence", [Float](repeating: 0, count: five)),
            ("dither-level noise", scaled(white, -96)),
            ("quiet white noise", scaled(white, -60)),
            ("loud white noise", scaled(white, -6)),
            ("quiet pink noise", scaled(pink, -50)),
            ("loud pink noise", scaled(pink, -10)),
            ("quiet brown noise", scaled(brown, -50)),
            ("loud brown noise", scaled(brown, -10)),
            ("a lone burst click in silence", withClick([Float](repeating: 0, count: five), .burst, at: [2])),
            ("a lone decaying click in silence", withClick([Float](repeating: 0, count: five), .decaying, at: [2])),
            ("a click in pink noise", withClick(scaled(pink, -40), .burst, at: [2])),
            ("three clicks in pink noise", withClick(scaled(pink, -40), .decaying, at: [1, 2, 3])),
            ("a click in brown noise", withClick(scaled(brown, -40), .burst, at: [2])),
            ("a click in white noise", withClick(scaled(white, -40), .decaying, at: [2])),
            ("a breath in silence", [Float](repeating: 0, count: five / 2) + TestSignals.breath(rms: 0.05, seed: 12)
                + [Float](repeating: 0, count: five / 2)),
        ]
    }()

    @Test(arguments: 0..<noSpeechCases.count)
    func reportsNoSpeech(index: Int) {
        let (name, samples) = Self.noSpeechCases[index]
        let error = #expect(throws: AudioPipelineError.self, "\(name) must be no speech") {
            try SpeechTrimmer().trim(samples)
        }
        #expect(error?.code == .noSpeech)
        #expect(error?.message.hasPrefix("no speech found (") == true)
        if let error { print("\(name): \(error)") }
    }

    @Test func everyThresholdIsConfigurable() throws {
        let (samples, truth) = try TrimCase(text: SpeechFixtures.halfway, leading: 1, trailing: 1, isNoisy: false, click: nil).build()
        var configuration = SpeechTrimmer.Configuration()
        configuration.paddingBefore = 0
        configuration.paddingAfter = 0
        let tight = try SpeechTrimmer(configuration: configuration).measure(samples)
        #expect(tight.keptStartSample == tight.speechStartSample)
        #expect(tight.keptEndSample == tight.speechEndSample)
        // A minimum duration longer than the whole message leaves no speech.
        configuration.minimumSpeechDuration = Double(truth.count) / Double(TestSignals.sampleRate) + 1
        #expect(throws: AudioPipelineError.self) { try SpeechTrimmer(configuration: configuration).measure(samples) }
    }

    @Test func lowSampleRatesAndBadRatesAreHandled() throws {
        // At 8 kHz there is no room for the fricative band; the voice band alone still works.
        let speech = try SpeechFixtures.speech(SpeechFixtures.halfway)
        let decimated = stride(from: 0, to: speech.count, by: 6).map { speech[$0] }  // 48 kHz -> 8 kHz
        let padded = [Float](repeating: 0, count: 8_000) + decimated + [Float](repeating: 0, count: 8_000)
        let measured = try SpeechTrimmer().measure(padded, sampleRate: 8_000)
        #expect(measured.fricativeNoiseFloorLevel == nil)
        #expect(abs(measured.speechStartSeconds - 1) < 0.05)
        let error = #expect(throws: AudioPipelineError.self) { try SpeechTrimmer().measure(padded, sampleRate: 0) }
        #expect(error?.code == .unsupportedInput)
    }

    private func ms(_ seconds: Double) -> String {
        String(format: "%+.0f ms", seconds * 1000)
    }
}
