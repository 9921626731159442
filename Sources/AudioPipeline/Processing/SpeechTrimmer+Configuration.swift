extension SpeechTrimmer {
    /// Every threshold the trimmer uses, with defaults tuned for voice messages recorded on phones
    /// and in browsers, after the Conditioner has removed DC and rumble.
    ///
    /// Levels are in dB relative to full scale, measured in two bands: the voice band, where
    /// vowels and voiced consonants are loud, and the fricative band, where "s", "f" and "sh" are.
    /// Each band has its own noise floor and margins, and a frame counts by whichever band stands
    /// out more. Room noise is mostly low-pitched, so an "s" at the start or the end
    /// of a message often stands out only in the fricative band.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Length of one analysis frame, in seconds. Default 10 ms: short enough to place an edge
        /// well within the ±50 ms the trim must hit, long enough for a stable level.
        public var frameDuration: Double = 0.010

        /// Frame energies are averaged over this many seconds (centred) before thresholds apply.
        /// Default 30 ms: it steadies the level of noise frames, so the exit threshold can sit
        /// closer to the floor and keep a word's quiet ending, at the cost of edges that are
        /// blurred by one frame (which errs towards keeping more).
        public var smoothingDuration: Double = 0.030

        /// Lower edge of the band whose energy is measured, in Hz. Default 200 Hz: below it lie
        /// handling noise, wind and room rumble rather than the words.
        public var voiceBandLowFrequency: Double = 200

        /// Upper edge of that band, in Hz. Default 4000 Hz: most speech energy lies below it and
        /// most hiss above it. It is lowered to 45% of the sample rate when the rate is low.
        public var voiceBandHighFrequency: Double = 4000

        /// Lower edge of the fricative band, in Hz. Default 4000 Hz.
        public var fricativeBandLowFrequency: Double = 4000

        /// Upper edge of the fricative band, in Hz. Default 10 kHz: above it there is more hiss
        /// than speech. The band is left out when the sample rate leaves no room for it.
        public var fricativeBandHighFrequency: Double = 10_000

        /// Which fraction of the frames is taken as the noise floor, from 0 to 1. Default 0.10:
        /// every message has at least a tenth of its time between or around the words, and a low
        /// percentile ignores the loud part, so the floor adapts to each recording's room.
        public var noiseFloorPercentile: Double = 0.10

        /// Frames quieter than this (dBFS, per band) are digital silence. Default -100 dBFS.
        /// They say nothing about the room, so they do not pull the noise floor down (a recording
        /// that starts with zeros from the app would otherwise make its room noise count as
        /// speech).
        public var digitalSilenceLevel: Double = -100

        /// The lowest the noise floor may go, in dBFS. Default -80 dBFS, so that in a clean,
        /// near-silent recording the thresholds stay above numerical dust.
        public var minimumNoiseFloor: Double = -80

        /// How far above the noise floor (dB) a frame must rise to start speech, at least.
        /// Default 8 dB: steady noise in smoothed 10 ms frames stays within about 3 dB of its
        /// floor. When the noise wavers more, the margin grows with `exitThreshold` (see
        /// `noiseSpreadFactor`), keeping the same distance above it.
        public var enterThreshold: Double = 8

        /// The enter thresholds that make sense, in dB: above 0 (speech must rise above the
        /// floor) and at most 40 (no voice rises further above a room's noise).
        public static let enterThresholdRange = 0.5...40.0

        /// How far above the noise floor (dB) a frame must stay to continue speech, and how far
        /// the edges are extended outwards, at least. Default 3 dB. Lower than `enterThreshold`
        /// (hysteresis), so weak onsets and decaying word ends are kept once speech is certain.
        public var exitThreshold: Double = 3

        /// The exit margin is at least this many times the spread (standard deviation, in dB) of
        /// the quietest frames. Default 4.5: white and pink noise waver by about 0.5 dB and keep
        /// the 3 dB margin, while low rumble (brown noise) wavers by about 0.9 dB and gets about
        /// 4 dB, so its swells neither start speech nor stretch its end.
        public var noiseSpreadFactor: Double = 4.5

        /// The largest spread (dB) the quietest frames may have and still be taken for noise.
        /// Default 2 dB; white, pink and brown noise waver by 0.3 to 1.2 dB. Above it the quiet
        /// frames are soft speech (a short clip with no pause, or clean speech with silent gaps),
        /// and the floor falls to their 2nd percentile.
        public var maximumNoiseSpread: Double = 2

        /// The largest exit margin the spread can ask for, in dB. Default 6 dB, so a recording
        /// with no quiet moments at all, whose "noise" frames are really soft speech, keeps
        /// thresholds that still catch the words.
        public var maximumExitThreshold: Double = 6

        /// How long (seconds) a burst must be above `exitThreshold` in total to count as speech.
        /// Default 150 ms: a click (about 30 ms), a tap or a short breath stays below it, while
        /// even a lone "go!" lasts longer.
        public var minimumSpeechDuration: Double = 0.150

        /// How long (seconds) a burst must hold voiced frames to count as speech. Default 50 ms.
        /// Every spoken word has a vowel; a breath, a rustle of clothing or a hiss of air does
        /// not, however long it lasts. 0 turns the check off (for whispered messages).
        public var minimumVoicedDuration: Double = 0.050

        /// The most zero crossings per second the voice-band signal may have in a voiced frame.
        /// Default 2500: vowels cross 400 to 1500 times a second (their first formants), breath
        /// and hiss 4000 to 7000 times.
        public var maximumVoicedCrossingRate: Double = 2500

        /// The longest dip below `exitThreshold` (seconds) that still belongs to the same burst.
        /// Default 300 ms, so a short first word ("Keep, going") or the closure of a "p" does not
        /// split speech into bursts that are each too short, while a click half a second before
        /// the speech stays separate. A click closer than this to the speech is kept with it:
        /// a little more air, never a clipped word.
        public var maximumGapWithinBurst: Double = 0.300

        /// After a dip, a run of frames that reaches only the exit threshold, never the enter
        /// threshold, extends the speech only when it lasts this long (seconds). Default 40 ms:
        /// a quiet "s" after the closure of a "p" ("champs") lasts longer, while a swell of room
        /// rumble after the last word is over sooner.
        public var minimumWeakSoundDuration: Double = 0.040

        /// Audio kept before the detected start of speech, in seconds. Default 150 ms.
        public var paddingBefore: Double = 0.150

        /// Audio kept after the detected end of speech, in seconds. Default 300 ms, longer than
        /// before because word endings and room decay trail off slowly.
        public var paddingAfter: Double = 0.300

        /// Length of the raised-cosine fade at each cut, in seconds. Default 8 ms: long enough to
        /// avoid an audible click, too short to hear as a fade. No fade where nothing was cut.
        public var fadeDuration: Double = 0.008

        /// The defaults above.
        public init() {}
    }
}
