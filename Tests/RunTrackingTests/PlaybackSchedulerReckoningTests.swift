import Testing
import RunTracking

/// Between sparse distance updates the scheduler reckons the distance on at the current pace
/// and asks to be woken when a marker falls due, so a message starts at its marker.
struct PlaybackSchedulerReckoningTests {
    @Test func aMarkerBetweenTwoFixesWakesTheSchedulerWhenItIsReached() throws {
        var scheduler = try PlaybackScheduler(messages: [.init(id: "km", marker: .absolute(meters: 1000))])
        // A fix every 15 s at 4 m/s: 60 m apart.
        var answer = PlaybackScheduler.Answer()
        var time = 0.0
        while time <= 240 {
            answer = scheduler.handle(.distanceUpdate(time: time, meters: time * 4))
            #expect(answer.action == nil)
            time += 15
        }
        // At 240 s (960 m) the marker is 10 s away, before the next fix: wake up then.
        let wake = try #require(answer.nextWakeUp)
        #expect(abs(wake - 250) < 0.01)
        #expect(scheduler.handle(.tick(time: wake)).action == .play(id: "km", reason: .markerReached))
        #expect(abs(scheduler.reckonedMeters(at: wake) - 1000) < 0.05)
    }

    @Test func noWakeUpBeyondTheNextFix() throws {
        var scheduler = try PlaybackScheduler(messages: [.init(id: "km", marker: .absolute(meters: 1000))])
        var answer = PlaybackScheduler.Answer()
        for time in stride(from: 0.0, through: 150, by: 15) {
            answer = scheduler.handle(.distanceUpdate(time: time, meters: time * 4))
        }
        // 600 m: the marker is 100 s away, many fixes from now.
        #expect(answer.nextWakeUp == nil)
    }

    @Test func aWakeUpLongAfterTheLastFixReckonsNoFurtherThanOneAndAHalfIntervals() throws {
        var scheduler = try PlaybackScheduler(messages: [.init(id: "km", marker: .absolute(meters: 1000))])
        for time in stride(from: 0.0, through: 240, by: 15) {
            _ = scheduler.handle(.distanceUpdate(time: time, meters: time * 4))
        }
        // The fixes stop (a tunnel): the distance is carried on for 22.5 s and no further.
        #expect(abs(scheduler.reckonedMeters(at: 600) - (960 + 4 * 22.5)) < 1)
    }

    /// How far ahead the scheduler reckons once the fixes stop, in seconds at its pace.
    static func reckoningSpan(_ scheduler: PlaybackScheduler) -> Double {
        (scheduler.reckonedMeters(at: scheduler.progress.time! + 1000) - scheduler.progress.meters) / scheduler.progress.speed
    }

    @Test func oneLongIntervalStretchesTheReckoningAtOnceAndForAWhile() throws {
        var scheduler = try PlaybackScheduler(messages: [.init(id: "far", marker: .absolute(meters: 100_000))])
        var time = 0.0
        func update(after seconds: Double) {
            time += seconds
            _ = scheduler.handle(.distanceUpdate(time: time, meters: time * 4))
        }
        _ = scheduler.handle(.distanceUpdate(time: 0, meters: 0))
        for _ in 0..<100 { update(after: 1) }
        #expect(abs(Self.reckoningSpan(scheduler) - 1.5) < 0.01)
        // One 15 s interval among 1 s ones: the next such gap between fixes is reckoned over
        // whole, at once.
        update(after: 15)
        #expect(abs(Self.reckoningSpan(scheduler) - 22.5) < 0.01)
        // Ten short intervals later it still is mostly: a watch's long intervals come every
        // few updates, not every one.
        for _ in 0..<10 { update(after: 1) }
        #expect(Self.reckoningSpan(scheduler) > 15)
        // Five minutes of fixes every second, and it is within a tenth of a second of 1.5 s.
        for _ in 0..<300 { update(after: 1) }
        #expect(Self.reckoningSpan(scheduler) < 1.6)
    }

    @Test func withoutAnticipationOnlyDistanceUpdatesStartMessages() throws {
        var scheduler = try PlaybackScheduler(
            messages: [.init(id: "km", marker: .absolute(meters: 1000))], configuration: .init(anticipatesNextUpdate: false))
        var answer = PlaybackScheduler.Answer()
        for time in stride(from: 0.0, through: 240, by: 15) {
            answer = scheduler.handle(.distanceUpdate(time: time, meters: time * 4))
        }
        #expect(answer.nextWakeUp == nil)
        #expect(scheduler.handle(.distanceUpdate(time: 255, meters: 1020)).action == .play(id: "km", reason: .markerReached))
    }
}
