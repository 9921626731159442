import Foundation
import Testing
import RunTracking

/// Messages start on time, judged along the true path: every message starts
/// within 15 m of its marker when fixes come every 5 s or more often, within 40 m at 15 s.
///
/// A start's lateness along the true path is the scheduler's part (how far past the marker the
/// tracker's own distance was) minus the tracker's distance error at that moment. The
/// scheduler's part is held to the bound everywhere. Where the tracker's accumulated error
/// at a start is itself beyond the bound, the start cannot be on time whatever the scheduler
/// does: those variants are a known issue, counted and printed, until the tracker's error
/// along the way is smaller than the bound.
struct TrackerCorpusMessageStartTests {
    @Test(arguments: TrackerCorpus.variants.indices)
    func everyMessageStartsWithinItsBoundAlongTheTruePath(_ index: Int) async {
        let result = await TrackerCorpusTests.results[index]
        #expect(result.playedInOrderOnce, "\(result)")
        for lateness in result.trackedLatenesses {
            #expect(abs(lateness) <= result.latenessBound, "scheduler late by the tracker's distance: \(result)")
        }
        let distanceOff = result.distanceErrors.farthestFromZero
        withKnownIssue(
            "the tracker's distance was \(String(format: "%+.1f", distanceOff)) m off the true path at a start",
            isIntermittent: true
        ) {
            for lateness in result.latenesses {
                #expect(abs(lateness) <= result.latenessBound, "\(result)")
            }
        } when: {
            abs(distanceOff) > result.latenessBound
        }
    }

    @Test func startsOnTimeByFixIntervalArePrinted() async {
        let results = await TrackerCorpusTests.results
        var classified = 0
        for (name, holds) in CorpusResult.intervalClasses {
            let group = results.filter { holds($0.variant.interval) }
            classified += group.count
            print("message starts " + CorpusResult.startSummary(name, of: group))
            #expect(!group.flatMap(\.latenesses).isEmpty, "no message starts \(name)")
        }
        #expect(classified == results.count)
    }
}
