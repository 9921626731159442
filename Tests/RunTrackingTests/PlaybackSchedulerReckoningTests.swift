import Foundation
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

    @Test func aRunSavedWithTheMeanIntervalRestoresAndPlaysOnAtItsMarkers() throws {
        // Saved at 960 m, fixes 3 to 15 s apart at 4 m/s, while `updateInterval` held their
        // mean (12.4 s) rather than the usual longest: apps keep a saved run across updates
        // of the app, so the same fields restore, and the run plays on.
        let saved = """
            {"configuration":{"anticipatesNextUpdate":true,"leadSeconds":0,"minimumGapSeconds":3,"plannedDistance":5000,\
            "speedTimeConstant":10},"queue":[{"message":{"id":"1km","marker":"1000m"},"meters":1000,"order":0},\
            {"message":{"id":"2km","marker":"2000m"},"meters":2000,"order":1}],"state":{"running":{"_0":{"meters":960,\
            "nextIndex":0,"previousReach":960,"speed":3.999999321515872,"time":240,"updateInterval":12.35536812930399,\
            "updateTime":240}}}}
            """
        let restored = try JSONDecoder().decode(PlaybackScheduler.self, from: Data(saved.utf8))
        #expect(restored.progress.updateInterval == 12.35536812930399)
        var replay = PlaybackReplay(scheduler: restored, durations: ["1km": 5, "2km": 5])
        // The host ticks on restoring; the answer asks to be woken at the 1 km marker.
        var starts = replay.handle(.tick(time: 241))
        #expect(abs((replay.wakeUp ?? 0) - 250) < 0.01)
        var time = 240.0
        for interval in [15.0, 5, 12, 15, 6, 15, 9, 15, 3, 15, 11, 15, 5, 15, 12, 15, 8, 15, 10, 15, 7, 15, 9, 15] {
            time += interval
            starts += replay.handle(.distanceUpdate(time: time, meters: time * 4))
        }
        #expect(starts.map(\.id) == ["1km", "2km"])
        for start in starts {
            let marker = start.id == "1km" ? 1000.0 : 2000
            #expect(start.meters >= marker && start.meters <= marker + 12, "\(start)")
        }
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
