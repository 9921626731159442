/// What the decoder accepts. Anything outside gets a clear `unsupportedInput` error, before the
/// samples are read where the header allows, and while reading where it does not.
///
/// The limits are those of a voice message, so that an upload outside them is refused in the
/// first moments of its decode, not after minutes of resampling: no phone or browser records
/// above 192 kHz or more than 8 channels, and none records half a minute of digital silence.
public struct InputLimits: Sendable, Equatable {
    /// The longest recording, in seconds. Default: 10 minutes.
    public var maximumDurationSeconds: Double = 600
    /// The most channels. Default: 8.
    public var maximumChannelCount: Int = 8
    /// The accepted sample rates, in Hz. Default: 8 kHz to 192 kHz (the highest rate any
    /// recorder offers; a voice message needs 48 kHz at most).
    public var sampleRates: ClosedRange<Int> = 8_000...192_000
    /// The longest digital silence (every sample below -100 dBFS) a message may open with, in
    /// seconds, before it is refused as holding no speech without decoding the rest. Checked
    /// when a message is encoded, not by `inspect`, which describes whatever it is given.
    /// Default: 30 s. nil: no limit.
    public var maximumLeadingSilenceSeconds: Double? = 30

    /// The defaults above.
    public init() {}

    /// The defaults above.
    public static let `default` = InputLimits()
}
