/// Exponential backoff with jitter: attempt n waits about base·2^(n-1), capped, and spread over
/// the upper half of that so retries of a burst do not land together.
struct RetryBackoff: Sendable {
    var baseSeconds: Double
    var maxSeconds: Double

    /// The delay before retrying after failed attempt `attempt` (1-based); `unit` in 0...1 picks
    /// the point in the jitter range (random in production, fixed in tests).
    func delay(afterAttempt attempt: Int, unit: Double = Double.random(in: 0...1)) -> Double {
        let exponent = Double(max(attempt - 1, 0))
        let ceiling = min(maxSeconds, baseSeconds * Double.pow2(exponent))
        return ceiling / 2 + ceiling / 2 * min(max(unit, 0), 1)
    }
}

extension Double {
    fileprivate static func pow2(_ exponent: Double) -> Double {
        // Beyond 2^60 the cap wins anyway; avoid overflowing to infinity.
        var value = 1.0
        for _ in 0..<Int(Swift.min(exponent, 60)) { value *= 2 }
        return value
    }
}
