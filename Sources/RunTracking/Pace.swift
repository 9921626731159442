/// A running pace, as people write it: `6:00/km`, `5:30/mi`, or `6:00` (per kilometre).
public struct Pace: Hashable, Sendable, CustomStringConvertible {
    /// Seconds per metre, the unit the arithmetic wants.
    public var secondsPerMeter: Double

    public init(secondsPerKilometer: Double) {
        secondsPerMeter = secondsPerKilometer / 1000
    }

    /// Parses `M:SS`, `M:SS/km` or `M:SS/mi` (case-insensitive, spaces ignored).
    public init(parsing text: String) throws(RunTrackingError) {
        let compact = text.lowercased().filter { !$0.isWhitespace }
        func fail() -> RunTrackingError {
            RunTrackingError(
                .invalidPace,
                "invalid pace '\(text)': expected minutes:seconds per km or mi, as in 6:00/km or 9:40/mi")
        }
        var body = Substring(compact)
        var unitMeters = 1000.0
        if body.hasSuffix("/km") {
            body = body.dropLast(3)
        } else if body.hasSuffix("/mi") {
            body = body.dropLast(3)
            unitMeters = 1609.344
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let minutes = Int(parts[0]), minutes >= 0, parts[1].count == 2,
              let seconds = Int(parts[1]), (0..<60).contains(seconds)
        else { throw fail() }
        // Found by fuzzing: minutes * 60 trapped on overflow for a 19-digit minute count.
        let (minuteSeconds, overflow) = minutes.multipliedReportingOverflow(by: 60)
        guard !overflow else { throw fail() }
        let perUnit = Double(minuteSeconds) + Double(seconds)
        guard perUnit > 0 else {
            throw RunTrackingError(.invalidPace, "invalid pace '\(text)': a pace must be slower than 0:00")
        }
        secondsPerMeter = perUnit / unitMeters
    }

    public var secondsPerKilometer: Double { secondsPerMeter * 1000 }

    /// `m:ss/km`.
    public var description: String {
        let total = Int(secondsPerKilometer.rounded())
        let seconds = total % 60
        return "\(total / 60):\(seconds < 10 ? "0" : "")\(seconds)/km"
    }
}

#if !hasFeature(Embedded)
extension Pace: Codable {}
#endif
