import Foundation
import GPXReplay
import RunTracking

/// One run of the tracker corpus: a clean path on real coordinates, how the runner moves
/// along it, how often the device reports, what error it adds, and what it reports besides
/// the position.
struct CorpusVariant: Sendable, CustomStringConvertible {
    enum Route: Sendable {
        /// A real track from samples/gpx, cleaned (see `TruePath.cleaned`).
        case real(String)
        /// Laps of a 400 m track, drawn where the real tracks were recorded.
        case laps(Int)
        /// A switchback trail, 180° turns every 30–50 m, drawn at a real track's start.
        case switchbacks(Int)
        /// The first `meters` of a real track from samples/gpx, cleaned as `real`.
        case stretch(String, meters: Double)
    }

    enum Movement: Sendable {
        case steady(Double)
        /// Run at the first speed for 4 minutes, walk at the second for 1, and so on.
        case walkBreaks(run: Double, walk: Double)
        /// Steady, with a 75 s stop at a traffic light at 40% of the way.
        case trafficLight(Double)
        /// About this speed, swaying ±10% over 4 minutes, with a 5-minute stand at 40% of
        /// the way.
        case swayingWithStand(Double)
    }

    enum Interval: Sendable {
        case steady(Double)
        /// Each interval drawn anew in the range, as Garmin's smart recording does.
        case varying(ClosedRange<Double>)

        var longest: Double {
            switch self {
            case .steady(let seconds): return seconds
            case .varying(let range): return range.upperBound
            }
        }
    }

    /// Gauss–Markov position error: σ per axis, correlation time τ; on top of it, white
    /// error of its own at every fix (σ per axis, metres), as a receiver's measurement noise.
    struct Noise: Sendable {
        var sigma: Double
        var timeConstant: Double
        var white = 0.0
        /// Share of fixes lost.
        var dropout = 0.01
        /// Single fixes thrown this far away (metres, drawn in the range).
        var spikes = 0
        var spikeMeters: ClosedRange<Double> = 50...150
    }

    /// What the device reports besides the position.
    struct Device: Sendable {
        /// A horizontal accuracy with every fix, as phones give.
        var reportsAccuracy: Bool
        /// A Doppler speed with every fix, with this σ per axis (m/s) on the velocity; nil
        /// when the device reports none (most GPX files).
        var speedSigma: Double?

        static let gpx = Device(reportsAccuracy: false, speedSigma: nil)
    }

    var route: Route
    var movement: Movement
    var interval: Interval
    var noise: Noise?
    var device: Device
    /// The app is suspended for 45 s half-way, and on waking gets the last fix before it
    /// again: once with its old time, then 4 times stamped afresh.
    var staleFixes = false
    var seed: UInt64
    /// A course run: the race's course is known, and the runner follows it or strays from it
    /// as the shape says (see `CourseLayout`); nil for the runs from positions alone.
    var course: CourseShape?

    var description: String {
        let routeName: String
        switch route {
        case .real(let file): routeName = String(file.prefix { $0 != "." })
        case .laps(let laps): routeName = "\(laps) track laps"
        case .switchbacks(let legs): routeName = "\(legs) switchbacks"
        case .stretch(let file, let meters): routeName = String(format: "%@ to %.1f km", String(file.prefix { $0 != "." }), meters / 1000)
        }
        let pace: String
        switch movement {
        case .steady(let speed): pace = String(format: "%.1f m/s", speed)
        case .walkBreaks(let run, let walk): pace = String(format: "run %.1f/walk %.1f m/s", run, walk)
        case .trafficLight(let speed): pace = String(format: "%.1f m/s, traffic light", speed)
        case .swayingWithStand(let speed): pace = String(format: "%.1f m/s swaying, 5 min stand", speed)
        }
        let every: String
        switch interval {
        case .steady(let seconds): every = String(format: "every %.0f s", seconds)
        case .varying(let range): every = String(format: "every %.0f-%.0f s", range.lowerBound, range.upperBound)
        }
        let error = noise.map {
            String(format: "σ %@ m τ %.0f s%@%@", Self.decimal($0.sigma), $0.timeConstant,
                   $0.white > 0 ? " +" + Self.decimal($0.white) + " m white" : "", $0.spikes > 0 ? " +spikes" : "")
        } ?? "clean"
        let reports = device.speedSigma != nil ? "phone" : device.reportsAccuracy ? "accuracy" : "position only"
        let onCourse = course.map { ", course: \($0.rawValue)" } ?? ""
        return "\(routeName), \(pace), \(every), \(error), \(reports)\(staleFixes ? ", stale fixes" : "")\(onCourse)"
    }

    /// Gauss–Markov error whose own speed, σ√(2/τ) per axis, is 2 m/s or more: the fixes
    /// wander about as fast as the runner runs (the trail runs' σ 8 m over 10 s). No tracker
    /// here counts those within ±2% from positions alone; the tests hold them as a known issue.
    var wandersAsFastAsARunner: Bool {
        guard let noise, device.speedSigma == nil else { return false }
        return noise.sigma * (2 / noise.timeConstant).squareRoot() >= 2
    }

    /// Whole metres as before ("σ 4 m"), a fraction where there is one ("σ 3.5 m").
    private static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }
}
