extension SpeechTrimmer {
    /// The kept samples, with fades at the cuts, and how they were found.
    public struct TrimmedAudio: Sendable, Equatable {
        /// `measurement.keptSampleCount` samples, faded in and out where a cut happened.
        public var samples: [Float]
        /// Where the speech was found, and what was kept.
        public var measurement: Measurement
    }
}
