import Foundation
import GPXReplay
import RunTracking

/// How the tracker and the scheduler did on one corpus run, judged against the truth the run
/// was made from.
struct CorpusResult: Sendable, CustomStringConvertible {
    var variant: CorpusVariant
    var truth: Double
    var tracked: Double
    /// The plain point-to-point sum of the fixes, for comparison.
    var pointToPoint: Double
    /// Each message's start measured along the true path: true metres at its start minus its
    /// marker's metres. Messages whose marker the runner passed while the app slept, or before
    /// the first fresh fix after, are left out: no message can start on time then.
    var latenesses: [Double]
    /// The same measured on the tracker's own distance (what the scheduler reckoned): how late
    /// the scheduler started it.
    var trackedLatenesses: [Double]
    /// The distance the scheduler went by at each of those starts minus the true distance
    /// then: the tracker's accumulated error (and the scheduler's reckoning between fixes).
    /// A start's lateness along the true path is its tracked lateness minus this.
    var distanceErrors: [Double]
    /// The bound for these: 15 m when fixes come every 5 s or more often, else 40 m.
    var latenessBound: Double
    var messageCount: Int
    /// Every message played once, in marker order.
    var playedInOrderOnce: Bool

    /// Starts within `latenessBound` along the true path.
    var onTimeStarts: Int { latenesses.filter { abs($0) <= latenessBound }.count }
    var lateStarts: Int { latenesses.count - onTimeStarts }
    var worstLateness: Double { latenesses.farthestFromZero }
    var worstTrackedLateness: Double { trackedLatenesses.farthestFromZero }

    var error: Double { (tracked - truth) / truth }

    var description: String {
        String(
            format: "%+6.2f%%  truth %6.0f m  tracker %6.0f m  point-to-point %+6.1f%%  worst start %+6.1f m (bound %2.0f; by tracker %+5.1f)  %@%@",
            error * 100, truth, tracked, (pointToPoint - truth) / truth * 100, worstLateness, latenessBound, worstTrackedLateness,
            playedInOrderOnce ? "" : "ORDER/ONCE BROKEN  ", variant.description)
    }

    /// Replays the run through `RunSimulator` with its markers (every 500 m and the finish;
    /// the planned distance is the truth).
    init(_ run: CorpusRun, tracker configuration: DistanceTracker.Configuration = .init()) throws {
        variant = run.variant
        truth = run.truth
        pointToPoint = CleanPath.rawSum(of: run.fixes)
        let messages = run.markers.enumerated().map {
            RunSimulator.Message(file: "m\($0.offset)", marker: $0.element, durationSeconds: 5)
        }
        let timeline = try RunSimulator.simulate(
            fixes: run.fixes, messages: messages,
            configuration: .init(tracker: configuration, scheduler: .init(plannedDistance: run.plannedDistance)))
        tracked = timeline.distanceMeters
        messageCount = messages.count
        playedInOrderOnce = timeline.plays.map(\.file) == messages.map(\.file) && timeline.unplayed.isEmpty
        let startTime = run.fixes.first!.time
        // Finish messages play when the run ends (or the plan is reached), not at a marker.
        let timed = timeline.plays.filter { play in
            guard play.reason != .runEnded else { return false }
            guard let blind = run.blind else { return true }
            return !blind.contains(run.motion.time(atDistance: run.motion.distance(at: startTime) + play.markerMeters))
        }
        latenesses = timed.map { run.trueDistance(at: startTime + $0.startSeconds) - $0.markerMeters }
        trackedLatenesses = timed.map(\.latenessMeters)
        distanceErrors = timed.map { $0.startMeters - run.trueDistance(at: startTime + $0.startSeconds) }
        latenessBound = run.variant.interval.longest <= 5 ? 15 : 40
    }
}

extension CorpusResult {
    /// The fix intervals the issue bounds starts by, each with the runs it holds.
    static let intervalClasses: [(name: String, holds: @Sendable (CorpusVariant.Interval) -> Bool)] = [
        ("every 1-5 s", { $0.longest <= 5 }),
        ("every 10 s", { if case .steady(10) = $0 { return true }; return false }),
        ("every 15 s", { if case .steady(15) = $0 { return true }; return false }),
        ("every 1-15 s", { if case .varying = $0 { return true }; return false }),
    ]

    /// How a class's starts did along the true path: on time, the worst, and what the worst
    /// was made of. Along the true path a start is late by the scheduler's part (by the
    /// tracker's own distance) minus the distance error at that moment.
    static func startSummary(_ name: String, of group: [CorpusResult]) -> String {
        String(
            format: "%@ (bound %.0f m): %d of %d on time; worst %+.1f m; of it, distance error up to %+.1f m, scheduler up to %+.1f m",
            name, group.first?.latenessBound ?? 0, group.reduce(0) { $0 + $1.onTimeStarts }, group.reduce(0) { $0 + $1.latenesses.count },
            group.flatMap(\.latenesses).farthestFromZero, group.flatMap(\.distanceErrors).farthestFromZero,
            group.flatMap(\.trackedLatenesses).farthestFromZero)
    }
}

extension Sequence<Double> {
    /// The value largest in magnitude, with its sign (0 when there is none): the worst miss.
    var farthestFromZero: Double { self.max { abs($0) < abs($1) } ?? 0 }
}
