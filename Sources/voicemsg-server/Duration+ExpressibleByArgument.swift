import ArgumentParser
import VoicemsgServer

/// Durations on the command line are in seconds, as each option's name says (`--lease-seconds
/// 30`, `--poll-seconds 0.2`); the commands check their ranges.
extension Duration: @retroactive ExpressibleByArgument {
    public init?(argument: String) {
        // A billion seconds is 31 years: past it the number is a typo, and `.seconds` would
        // overflow on the way.
        guard let seconds = Double(argument), seconds.isFinite, seconds.magnitude < 1e9 else { return nil }
        self = .seconds(seconds)
    }

    public var defaultValueDescription: String {
        let seconds = inSeconds
        return seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
    }
}
