extension SpeechTrimmer {
    /// Where speech was found, what is kept, and the levels that decided it.
    ///
    /// Sample indices are half-open ranges (`start..<end`) into the samples given to the trimmer.
    public struct Measurement: Sendable, Equatable, Codable {
        /// The sample rate of the samples measured, in Hz.
        public var sampleRate: Int
        /// Number of samples given to the trimmer.
        public var inputSampleCount: Int
        /// First sample of detected speech.
        public var speechStartSample: Int
        /// One past the last sample of detected speech.
        public var speechEndSample: Int
        /// First kept sample: speech start minus the padding, clamped to the signal.
        public var keptStartSample: Int
        /// One past the last kept sample: speech end plus the padding, clamped to the signal.
        public var keptEndSample: Int
        /// The adaptive noise floor in the voice band, in dBFS.
        public var noiseFloorLevel: Double
        /// The adaptive noise floor in the fricative band, in dBFS; nil when the sample rate
        /// leaves no room for that band.
        public var fricativeNoiseFloorLevel: Double?
        /// The loudest frame in the voice band, in dBFS.
        public var peakFrameLevel: Double
        /// How far the most active frame rose above its band's noise floor, in dB: a rough
        /// signal-to-noise ratio of the message.
        public var peakLevelAboveFloor: Double

        /// `speechStartSample` in seconds.
        public var speechStartSeconds: Double { seconds(speechStartSample) }
        /// `speechEndSample` in seconds.
        public var speechEndSeconds: Double { seconds(speechEndSample) }
        /// `keptStartSample` in seconds.
        public var keptStartSeconds: Double { seconds(keptStartSample) }
        /// `keptEndSample` in seconds.
        public var keptEndSeconds: Double { seconds(keptEndSample) }
        /// Number of samples kept.
        public var keptSampleCount: Int { keptEndSample - keptStartSample }

        private func seconds(_ sample: Int) -> Double {
            Double(sample) / Double(sampleRate)
        }
    }
}
