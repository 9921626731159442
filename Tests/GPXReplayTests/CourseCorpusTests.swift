import Foundation
import Testing
import RunTracking
import TestSupport

/// The tracker corpus's course runs (`TrackerCorpus.courseVariants`), both sets, through the
/// course tracker given the course: every message once and in order; each started within 15 m
/// of its marker at 1 Hz and 25 m every 5 s, measured along the course from where the runner
/// truly was; none while the runner was off the course; standing still adds nothing; wrong
/// turns and short cuts said. `scripts/tracker-corpus.sh` prints the same runs' figures, and
/// the tracker from positions alone beside them.
///
/// Where the fixes' own error along the course is too large for any tracker to meet a bound,
/// the run is a known issue, printed and counted, as `TrackerCorpusMessageStartTests` does for
/// the tracker from positions alone; the set's totals are held all the same.
struct CourseCorpusTests {
    static let variants = TrackerCorpus.courseVariants(.tuning) + TrackerCorpus.courseVariants(.heldOut)

    /// Replayed once, off the cooperative pool, as `TrackerCorpusTests.replay` is.
    static let replay = Task { await replayOffThePool() }

    static var results: [CourseResult] { get async { await replay.value } }

    private static func replayOffThePool() async -> [CourseResult] {
        try! await offThePool(count: variants.count) { index in
            let run = try CorpusRun(variants[index], samples: TrackerCorpusTests.samples)
            return try CourseResult(run, course: run.layout!.trackerCourse())
        }
    }

    /// The fixes' error per axis, their wander and their white error together (metres).
    static func sigma(_ variant: CorpusVariant) -> Double {
        guard let noise = variant.noise else { return 0 }
        return (noise.sigma * noise.sigma + noise.white * noise.white).squareRoot()
    }

    @Test func theCourseRunsHaveEveryShapeTheIssueAsksFor() throws {
        for split in TrackerCorpus.Split.allCases {
            let variants = TrackerCorpus.courseVariants(split)
            for shape in CourseShape.allCases {
                for seconds in [1.0, 5] {
                    #expect(variants.contains { $0.course == shape && $0.interval.longest == seconds }, "\(split) \(shape) every \(seconds) s")
                }
            }
        }
        let samples = TrackerCorpusTests.samples
        let laps = try #require(Self.variants.first { $0.course == .laps })
        #expect(try CorpusRun(laps, samples: samples).layout!.course.length >= 10 * 400 - 10)
        // The pen: 60 to 150 m before the line, on the track's last stretch.
        let pen = try CorpusRun(try #require(Self.variants.first { $0.course == .pen }), samples: samples)
        let lead = try #require(pen.layout?.excursion).runnerTo
        #expect((60...150).contains(lead), "\(lead) m")
        let first = pen.layout!.runner.locate(0), start = pen.layout!.course.locate(0)
        let off = pen.layout!.course.distance(toPlace: first)
        let fromStart = Geodesic.localDistance(fromLatitude: first.latitude, longitude: first.longitude, toLatitude: start.latitude, longitude: start.longitude)
        #expect(off < 1 && fromStart >= 50, "\(off) m from the course, \(fromStart) m from its start")
        for shape in [CourseShape.wrongTurn, .shortCut] {
            let run = try CorpusRun(try #require(Self.variants.first { $0.course == shape }), samples: samples)
            let excursion = try #require(run.layout?.excursion)
            if shape == .wrongTurn {
                // Up a spur of 100 to 200 m and back.
                #expect((200...400).contains(excursion.runnerTo - excursion.runnerFrom), "\(excursion)")
            } else {
                // 300 to 500 m of the course left out, with a marker in it.
                #expect((300...500).contains(excursion.courseTo - excursion.courseFrom), "\(excursion)")
                #expect(run.markers.contains { (try? $0.resolvedMeters(plannedDistance: run.plannedDistance)).map { $0 > excursion.courseFrom && $0 < excursion.courseTo } ?? false })
            }
        }
    }

    @Test(arguments: variants.indices)
    func everyMessageOnceInOrderAndAtItsSign(_ index: Int) async {
        let result = await Self.results[index]
        let name = result.variant.description
        #expect(result.playedInOrderOnce, "\(name)")
        // Past σ 5 m, 3σ of the fixes' error along the course is past 15 m, and every few
        // hundred fixes one is that far off for a while: no tracker then meets the bound on
        // every message (docs/tracker.md, "What the trail runs' fixes allow").
        withKnownIssue("fixes of σ \(Self.sigma(result.variant)) m", isIntermittent: true) {
            for lateness in result.latenesses {
                #expect(abs(lateness) <= result.bound, "\(name): a start \(lateness) m from its marker")
            }
        } when: {
            Self.sigma(result.variant) > 5
        }
    }

    @Test(arguments: variants.indices)
    func noMessageStartsOffTheCourse(_ index: Int) async {
        let result = await Self.results[index]
        withKnownIssue("fixes of σ 8 m: a short cut parting at a slant is followed along the course for up to 3.5σ", isIntermittent: true) {
            #expect(result.playedOffCourse == 0, "\(result.variant.description)")
            // The markers a short cut skipped play once the runner is back near the course.
            #expect(result.skippedStarts.allSatisfy { $0 >= -10 }, "\(result.variant.description): \(result.skippedStarts)")
        } when: {
            Self.sigma(result.variant) >= 8
        }
    }

    @Test(arguments: variants.indices)
    func standingStillAddsNothing(_ index: Int) async {
        let result = await Self.results[index]
        let phone = result.variant.device.speedSigma != nil
        withKnownIssue("from positions alone, a wander along the course can pass for setting off", isIntermittent: true) {
            #expect(result.standAdds <= 0.01, "\(result.variant.description): the stand added \(result.standAdds) m")
        } when: {
            !phone
        }
    }

    @Test(arguments: variants.indices.filter { [.wrongTurn, .shortCut].contains(variants[$0].course) })
    func wrongTurnsAndShortCutsAreSaid(_ index: Int) async {
        let result = await Self.results[index]
        let excursion = result.excursions.first { $0.rejoinedMeters != nil }
        #expect(excursion != nil, "\(result.variant.description): never left the course and came back")
        if result.variant.course == .shortCut {
            #expect((excursion?.skippedMeters ?? 0) >= 300, "\(result.variant.description): \(result.excursions)")
        } else {
            #expect(abs(excursion?.skippedMeters ?? 99) < CourseTracker.shortCutMeters, "\(result.variant.description): \(result.excursions)")
        }
    }

    /// A run begun in the start's pen, on the track's last stretch where every lap and the
    /// finish come in: taken up at the line (a fix or two past it every 5 s), not where a lap's
    /// end passes the pen.
    @Test(arguments: variants.indices.filter { variants[$0].course == .pen })
    func aRunBegunInTheStartsPenIsTakenUpAtTheLine(_ index: Int) async {
        let result = await Self.results[index]
        let way = result.excursions.first
        #expect(way?.leftSeconds == 0 && way?.leftMeters == 0, "\(result.variant.description): \(result.excursions)")
        #expect((way?.rejoinedMeters ?? .infinity) <= 50, "\(result.variant.description): \(result.excursions)")
    }

    /// The sets' totals, known issues included: at 1 Hz at least 97.5% of starts within 15 m,
    /// every 5 s at least 99% within 25 m; none played while the runner was off the course
    /// on more than 2 runs in a set; none twice or out of order.
    @Test func theTotalsArePrintedAndHeld() async {
        let results = await Self.results
        for split in TrackerCorpus.Split.allCases {
            let set = results.filter { result in TrackerCorpus.courseVariants(split).contains { $0.seed == result.variant.seed } }
            for seconds in [1.0, 5] {
                let group = set.filter { $0.variant.interval.longest == seconds }
                let within = group.reduce(0) { $0 + $1.within }, starts = group.reduce(0) { $0 + $1.latenesses.count }
                print(String(format: "course runs, %@, every %.0f s: %d of %d starts within %.0f m, worst %+.1f m",
                             split.rawValue, seconds, within, starts, group.first?.bound ?? 0, group.map(\.worst).farthestFromZero))
                #expect(starts > 500)
                #expect(Double(within) >= (seconds == 1 ? 0.975 : 0.99) * Double(starts), "\(split) every \(seconds) s: \(within) of \(starts)")
            }
            #expect(set.filter { $0.playedOffCourse > 0 }.count <= 2)
            #expect(set.allSatisfy { $0.playedInOrderOnce })
        }
    }
}
