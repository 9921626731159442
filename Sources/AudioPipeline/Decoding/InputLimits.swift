/// What the decoder accepts. Anything outside gets a clear `unsupportedInput` error, before the
/// samples are read where the header allows, and while reading where it does not.
public struct InputLimits: Sendable, Equatable {
    /// The longest recording, in seconds. Default: 10 minutes.
    public var maximumDurationSeconds: Double = 600
    /// The most channels. Default: 8.
    public var maximumChannelCount: Int = 8
    /// The accepted sample rates, in Hz. Default: 8 kHz to 384 kHz.
    public var sampleRates: ClosedRange<Int> = 8_000...384_000

    public init() {}

    public static let `default` = InputLimits()
}
