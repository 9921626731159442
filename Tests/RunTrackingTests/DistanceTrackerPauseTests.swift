import Foundation
import Testing
import RunTracking

/// Pause and resume, as a running watch's buttons: nothing counts while paused, wherever the
/// runner goes, and the run counts on from the first fix after resuming without a line
/// across the pause.
struct DistanceTrackerPauseTests {
    static func fix(_ time: Double, east: Double, north: Double = 0, speed: Double? = nil) -> GPSFix {
        DistanceTrackerTests.fix(time, east: east, north: north, speed: speed, accuracy: 5)
    }

    /// 120 s due east at 3 m/s from `east`, a fix a second.
    static func run(_ tracker: inout DistanceTracker, from start: Double, east: Double, speed: Double? = nil) {
        for second in 0..<120 {
            _ = tracker.update(with: fix(start + Double(second), east: east + 3 * Double(second), speed: speed))
        }
    }

    @Test(arguments: [nil, 3.0])
    func whereTheRunnerWentWhilePausedIsNotCounted(speed: Double?) {
        var paused = DistanceTracker()
        Self.run(&paused, from: 0, east: 0, speed: speed)
        let atPause = paused.meters
        paused.pause()
        #expect(paused.meters == atPause)
        #expect(paused.speed == 0)
        // Five minutes walking 600 m north while paused: each fix is ignored.
        for second in 0..<300 {
            let reading = paused.update(with: Self.fix(120 + Double(second), east: 357, north: 2 * Double(second), speed: speed))
            #expect(reading.outcome == .paused)
            #expect(reading.meters == atPause)
        }
        paused.resume()
        // Then on, 120 s more due east from where the walk ended.
        var second = 420.0
        var first: DistanceTracker.Reading?
        for step in 0..<120 {
            let reading = paused.update(with: Self.fix(second, east: 357 + 3 * Double(step), north: 598, speed: speed))
            first = first ?? reading
            second += 1
        }
        #expect(first?.outcome == .started)
        #expect(first?.meters == atPause)

        // The same two stretches with no pause between them, as one run would count each.
        var stretch = DistanceTracker()
        Self.run(&stretch, from: 0, east: 0, speed: speed)
        // 357 m of the first stretch, and about as much of the second: never the 600 m walk,
        // nor the 600 m straight line a gap would bridge.
        #expect(abs(paused.meters - 2 * stretch.meters) < 10, "\(paused.meters) against \(2 * stretch.meters)")
    }

    @Test func pausingTwiceOrResumingUnpausedChangesNothing() {
        var tracker = DistanceTracker()
        Self.run(&tracker, from: 0, east: 0)
        let before = tracker
        tracker.resume()
        #expect(tracker == before)
        tracker.pause()
        let paused = tracker
        tracker.pause()
        #expect(tracker == paused)
    }

    @Test func aPausedTrackerIsSavedAndRestoredPaused() throws {
        var tracker = DistanceTracker()
        Self.run(&tracker, from: 0, east: 0)
        tracker.pause()
        let restored = try JSONDecoder().decode(DistanceTracker.self, from: JSONEncoder().encode(tracker))
        #expect(restored == tracker)
        #expect(restored.isPaused)
    }
}
