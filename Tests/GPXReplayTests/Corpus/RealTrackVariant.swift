import Foundation
import GPXReplay
import RunTracking
import TestSupport

/// A real track as recorded, time-scaled to another pace and resampled to another fix
/// interval, with no noise added: the point-to-point sum of its fixes is an upper bound on
/// what the tracker may report, and the jitter is all it may remove.
struct RealTrackVariant: Sendable, CustomStringConvertible {
    var file: String
    /// The moving speed to scale the recording to, m/s.
    var speed: Double
    var interval: CorpusVariant.Interval
    var seed: UInt64 = 1

    var description: String {
        let every: String
        switch interval {
        case .steady(let seconds): every = String(format: "every %.0f s", seconds)
        case .varying(let range): every = String(format: "every %.0f-%.0f s", range.lowerBound, range.upperBound)
        }
        return String(format: "%@ at %.1f m/s, %@", file, speed, every)
    }

    /// The recording's fixes at the new pace and interval.
    func fixes(samples directory: String) throws -> [GPSFix] {
        let original = try GPXReader.read(contentsOfFile: directory + "/" + file).fixes()
        // The recording's moving speed: distance over time, leaving out pauses and gaps
        // (steps longer than 20 s) and spikes (steps faster than 12 m/s).
        var meters = 0.0, seconds = 0.0
        for (a, b) in zip(original, original.dropFirst()) {
            let elapsed = b.time - a.time
            let step = Geodesic.distance(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
            guard elapsed > 0, elapsed <= 20, step <= 12 * elapsed else { continue }
            meters += step
            seconds += elapsed
        }
        let scale = meters / seconds / speed
        let start = original[0].time
        let scaled = original.map { fix -> GPSFix in
            var fix = fix
            fix.time = start + (fix.time - start) * scale
            return fix
        }
        // Keep the first fix at or after each sampling time, as a device recording less often.
        var random = SeededGenerator(seed: seed)
        var result: [GPSFix] = []
        var next = -Double.infinity
        for fix in scaled where fix.time >= next {
            result.append(fix)
            switch interval {
            case .steady(let seconds): next = fix.time + seconds
            case .varying(let range): next = fix.time + Double.random(in: range, using: &random).rounded()
            }
        }
        if let last = scaled.last, result.last != last { result.append(last) }
        return result
    }
}
