import Foundation
import Testing
import RunTracking

/// A walker at 0.8 m/s whose device reports positions only: the filtered speed, give or take
/// the fixes' wander, often falls below `stillSpeed`. Each time was a stop, and the distance
/// stood still until the walker had left the still circle, then jumped 25 m (a message due
/// in between started late, or the scheduler saw the marker pass in one jump).
struct SlowWalkerTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func aSlowWalkerIsRarelyTakenForStandingStill(seed: UInt64) throws {
        let variant = CorpusVariant(
            route: .real("strava-run-gap.gpx"), movement: .steady(0.8), interval: .steady(1),
            noise: .init(sigma: 3, timeConstant: 30), device: .gpx, seed: seed)
        let run = try CorpusRun(variant, samples: TrackerCorpusTests.samples)
        var tracker = DistanceTracker()
        var still = 0
        for fix in run.fixes {
            _ = tracker.update(with: fix)
            if tracker.isStill { still += 1 }
        }
        let share = Double(still) / Double(run.fixes.count)
        print(String(format: "walker at 0.8 m/s, σ 3 m, seed %llu: taken for standing still at %.1f%% of the fixes", seed, share * 100))
        // Without the settling rule (`hasSettled`) far more (docs/tracker.md).
        #expect(share < 0.15)
    }
}
