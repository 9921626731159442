import Foundation
import GPXReplay
import RunTracking
import TestSupport

/// How a tracker did on a course run, judged along the course from where the runner truly was
/// (see `CourseLayout.courseMeters`): the course tracker given the course, or the tracker from
/// positions alone on the same fixes, for comparison.
struct CourseResult: Sendable {
    var variant: CorpusVariant
    var withCourse: Bool
    /// 15 m at 1 Hz, 25 m every 5 s.
    var bound: Double
    /// Each message's start, the true metres along the course then less its marker's; the
    /// markers a short cut skipped, and those that played only as the run ended, left out.
    var latenesses: [Double]
    var messageCount: Int
    /// Every message played once, in marker order.
    var playedInOrderOnce: Bool
    /// Messages whose marker lies past where the runner left the course that started while
    /// the runner was truly off it: more than `offCourseMeters` from it.
    var playedOffCourse: Int { offCourseStarts.count }
    /// When those started (seconds on the fixes' clock).
    var offCourseStarts: [Double]
    /// The markers a short cut skipped: seconds from when the runner was truly back on the
    /// course to their start (negative: before).
    var skippedStarts: [Double]
    /// What the distance grew by over the 5-minute stand from 30 s into it (the time the
    /// odometer takes to find a stand from positions alone) to its end.
    var standAdds: Double
    /// How far past the place where the runner stood the distance was at the stand's end (0
    /// when at or short of it): the fixes' error along the course there, and any overshoot.
    var standOvershoot: Double
    /// What the tracker said of the course: where the runner left it and came back.
    var excursions: [RunSimulator.Excursion]
    var tracked: Double
    var truth: Double

    /// A runner this far from the course is off it, for `playedOffCourse`: 3σ of the noisiest
    /// fixes here (σ 8 m with 2.5 m white on top) is 25 m, and nearer than that no tracker can
    /// tell the runner from one on the course.
    static let offCourseMeters = 25.0

    var within: Int { latenesses.filter { abs($0) <= bound }.count }
    var worst: Double { latenesses.farthestFromZero }

    init(_ run: CorpusRun, course: Course?, configuration: CourseTracker.Configuration = .init()) throws {
        let layout = run.layout!
        variant = run.variant
        withCourse = course != nil
        bound = run.variant.interval.longest <= 1 ? 15 : 25
        let messages = run.markers.enumerated().map {
            RunSimulator.Message(file: "m\($0.offset)", marker: $0.element, durationSeconds: 5)
        }
        messageCount = messages.count
        let timeline = try RunSimulator.simulate(
            fixes: run.fixes, messages: messages,
            configuration: .init(scheduler: .init(plannedDistance: run.plannedDistance), course: course, courseTracker: configuration))
        excursions = timeline.course?.excursions ?? []
        tracked = timeline.distanceMeters
        truth = run.trueCourseDistance(at: run.fixes.last!.time)
        playedInOrderOnce = timeline.plays.map(\.file) == messages.map(\.file) && timeline.unplayed.isEmpty
        let start = run.fixes.first!.time
        let runnerStart = run.motion.distance(at: start)
        let skipped = layout.excursion.map { $0.courseFrom < $0.courseTo ? ($0.courseFrom + 1e-9)...$0.courseTo : nil } ?? nil
        var latenesses: [Double] = [], skippedStarts: [Double] = [], offCourseStarts: [Double] = []
        for play in timeline.plays where play.reason != .runEnded {
            let time = start + play.startSeconds
            let runner = run.motion.distance(at: time)
            if let excursion = layout.excursion, play.markerMeters > excursion.courseFrom, layout.isOffCourse(atRunner: runner),
               layout.course.distance(toPlace: layout.runner.locate(runner)) > Self.offCourseMeters {
                offCourseStarts.append(time)
            }
            if let skipped, skipped.contains(play.markerMeters), let excursion = layout.excursion {
                skippedStarts.append(time - run.motion.time(atDistance: excursion.runnerTo))
            } else {
                latenesses.append(run.trueCourseDistance(at: time) - play.markerMeters)
            }
        }
        self.latenesses = latenesses
        self.skippedStarts = skippedStarts
        self.offCourseStarts = offCourseStarts
        // The stand: the one piece of the motion at rest.
        var elapsed = 0.0, stand: ClosedRange<Double>?
        for piece in run.motion.pieces {
            if piece.speed == 0 { stand = elapsed...(elapsed + piece.seconds) }
            elapsed += piece.seconds
        }
        func trackedMeters(at time: Double) -> Double { timeline.distance.last { $0.seconds <= time - start }?.meters ?? 0 }
        if let stand {
            let place = layout.courseMeters(atRunner: run.motion.distance(at: stand.lowerBound)) - layout.courseMeters(atRunner: runnerStart)
            standAdds = trackedMeters(at: stand.upperBound) - trackedMeters(at: stand.lowerBound + 30)
            standOvershoot = max(0, trackedMeters(at: stand.upperBound) - place)
        } else {
            standAdds = 0
            standOvershoot = 0
        }
    }
}

extension TruePath {
    /// How far a place is from the path: from the nearest of its straight pieces.
    func distance(toPlace place: (latitude: Double, longitude: Double, east: Double, north: Double)) -> Double {
        foot(latitude: place.latitude, longitude: place.longitude)?.off ?? .infinity
    }

    /// The foot of a place on the path, on the nearest of its straight pieces that reach into
    /// `range` metres along it (the whole path by default): metres along the path there, and
    /// how far the place is from it. Nil when no piece reaches into the range.
    func foot(latitude: Double, longitude: Double, within range: ClosedRange<Double> = -.infinity ... .infinity) -> (along: Double, off: Double)? {
        let perEast = LocalMeters.perDegreeLongitude(at: latitude)
        var best: (along: Double, off: Double)?
        for index in latitudes.indices.dropLast() where cumulative[index + 1] >= range.lowerBound && cumulative[index] <= range.upperBound {
            let ax = (longitudes[index] - longitude) * perEast, ay = (latitudes[index] - latitude) * LocalMeters.perDegreeLatitude
            let bx = (longitudes[index + 1] - longitude) * perEast, by = (latitudes[index + 1] - latitude) * LocalMeters.perDegreeLatitude
            let dx = bx - ax, dy = by - ay, span = dx * dx + dy * dy
            let share = span > 0 ? min(1, max(0, -(ax * dx + ay * dy) / span)) : 0
            let x = ax + share * dx, y = ay + share * dy
            let off = (x * x + y * y).squareRoot()
            if best == nil || off < best!.off {
                best = (cumulative[index] + share * (cumulative[index + 1] - cumulative[index]), off)
            }
        }
        return best
    }
}
