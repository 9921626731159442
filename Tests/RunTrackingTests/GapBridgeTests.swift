import Foundation
import Testing
import RunTracking
import TestSupport

/// A gap of more than `gapSeconds` without fixes is bridged by the straight line, which cuts
/// the bends run in between; the Doppler speeds on both sides say how far the runner went,
/// up to 1.3 times the straight line.
struct GapBridgeTests {
    static let origin = (latitude: 48.137, longitude: 11.575)

    /// Fixes at 3 m/s, one a second, with the Doppler speed, along `legs` (east, north per
    /// second), leaving out the seconds in `asleep`.
    static func fixes(_ legs: [(seconds: Int, east: Double, north: Double)], asleep: ClosedRange<Int>) -> [GPSFix] {
        var fixes: [GPSFix] = []
        var east = 0.0, north = 0.0, second = 0
        for leg in legs {
            for _ in 0..<leg.seconds {
                if !asleep.contains(second) {
                    let place = LocalMeters.offset(origin, east: east, north: north)
                    let speed = (leg.east * leg.east + leg.north * leg.north).squareRoot()
                    fixes.append(GPSFix(
                        time: Double(second), latitude: place.latitude, longitude: place.longitude,
                        horizontalAccuracy: 5, speed: speed))
                }
                east += leg.east
                north += leg.north
                second += 1
            }
        }
        return fixes
    }

    static func tracked(_ fixes: [GPSFix]) -> Double {
        var tracker = DistanceTracker()
        for fix in fixes { _ = tracker.update(with: fix) }
        return tracker.meters
    }

    @Test func aCornerRunWhileAsleepCountsNearlyInFull() {
        // 80 s east, then north; asleep from 60 s to 105 s, round the corner. The straight
        // line across is 96 m of the 135 m run.
        let fixes = Self.fixes([(80, 3, 0), (60, 0, 3)], asleep: 60...104)
        let truth = 3.0 * 139
        let total = Self.tracked(fixes)
        print(String(format: "corner run asleep: truth %.0f m, tracker %.0f m", truth, total))
        #expect(total >= truth - 15 && total <= truth + 5)
    }

    @Test func aStopWhileAsleepAddsLittle() {
        // 60 s east, asleep for 45 s of which the runner stood 40 s and ran 5 s (15 m), then on
        // east: the speeds on both sides say 3 m/s, the straight line says 15 m.
        let fixes = Self.fixes([(60, 3, 0), (40, 0, 0), (45, 3, 0)], asleep: 60...104)
        let truth = 3.0 * 104
        let total = Self.tracked(fixes)
        print(String(format: "stop asleep: truth %.0f m, tracker %.0f m", truth, total))
        #expect(total >= truth - 10 && total <= truth + 6)
    }
}
