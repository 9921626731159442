/// Loudness and peak of a piece of audio, per ITU-R BS.1770-4 / EBU R128.
public struct LoudnessMeasurement: Sendable, Equatable, Codable {
    /// Integrated loudness in LUFS; nil for digital silence.
    public var integratedLoudness: Double?
    /// True peak in dBTP (4× oversampled at 48 kHz); nil for digital silence.
    public var truePeak: Double?
    /// True when the audio is shorter than one 400 ms gating block, so the loudness is the
    /// ungated K-weighted level of the whole clip instead of the gated integrated loudness.
    public var isUngated: Bool

    /// A measurement of these values.
    public init(integratedLoudness: Double?, truePeak: Double?, isUngated: Bool = false) {
        self.integratedLoudness = integratedLoudness
        self.truePeak = truePeak
        self.isUngated = isUngated
    }
}
