/// voicemsg's version: what `voicemsg --version` and `voicemsg-server --version` print, and
/// what every file it encodes names in its `ENCODER` tag. It lives here, in the one module both
/// programs link, so that it is written once.
public enum VoicemsgVersion {
    /// The version, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
