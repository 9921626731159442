import Foundation
import Testing
import RunTracking

/// The wake-up time comes with every answer, so a host never polls the scheduler.
struct PlaybackSchedulerAnswerTests {
    static func scheduler(_ markers: String..., gap: Double = 3) throws -> PlaybackScheduler {
        try PlaybackScheduler(
            messages: markers.enumerated().map { .init(id: "m\($0.offset)", marker: try DistanceMarker(parsing: $0.element)) },
            configuration: .init(minimumGapSeconds: gap))
    }

    @Test func aWakeUpIsAskedForOnlyWhileAMessageWaitsForTheGap() throws {
        var scheduler = try Self.scheduler("100m", "100m", "5km")
        #expect(scheduler.handle(.distanceUpdate(time: 0, meters: 0)) == .init())
        #expect(scheduler.handle(.distanceUpdate(time: 40, meters: 120)) == .init(action: .play(id: "m0", reason: .markerReached)))
        // Playing: no timer, the end of playback will come.
        #expect(scheduler.handle(.distanceUpdate(time: 41, meters: 123)).nextWakeUp == nil)
        // m1 is due and waits for the gap after m0.
        #expect(scheduler.handle(.playbackFinished(id: "m0", time: 45)) == .init(nextWakeUp: 48))
        // Every later answer repeats the time until it has come.
        #expect(scheduler.handle(.distanceUpdate(time: 46, meters: 126)) == .init(nextWakeUp: 48))
        // Paused: nothing may start, so no timer; resuming brings it back.
        #expect(scheduler.handle(.pause(time: 46.5)) == .init())
        #expect(scheduler.handle(.resume(time: 47)) == .init(nextWakeUp: 48))
        #expect(scheduler.handle(.tick(time: 48)) == .init(action: .play(id: "m1", reason: .catchingUp)))
        // m2 is not due after m1: nothing to wake up for.
        #expect(scheduler.handle(.playbackFinished(id: "m1", time: 50)) == .init())
        // The run ends inside the gap: m2 waits for it, then plays.
        #expect(scheduler.handle(.runFinished(time: 51)) == .init(nextWakeUp: 53))
        #expect(scheduler.handle(.tick(time: 53)) == .init(action: .play(id: "m2", reason: .runEnded)))
        #expect(scheduler.handle(.playbackFinished(id: "m2", time: 60)) == .init())
        #expect(scheduler.isComplete)
    }

    @Test func aRestoredSchedulerTellsItsWakeUpOnTheFirstTick() throws {
        var scheduler = try Self.scheduler("100m", "100m")
        _ = scheduler.handle(.distanceUpdate(time: 40, meters: 120))
        #expect(scheduler.handle(.playbackFinished(id: "m0", time: 45)).nextWakeUp == 48)
        var restored = try JSONDecoder().decode(PlaybackScheduler.self, from: JSONEncoder().encode(scheduler))
        #expect(restored == scheduler)
        #expect(restored.handle(.tick(time: 46)) == .init(nextWakeUp: 48))
    }

    @Test func savedBeforeTheFirstEvent() throws {
        // Nothing has happened yet; JSON must hold that state too.
        let scheduler = try Self.scheduler("1km")
        let data = try JSONEncoder().encode(scheduler)
        #expect(try JSONDecoder().decode(PlaybackScheduler.self, from: data) == scheduler)
    }
}
