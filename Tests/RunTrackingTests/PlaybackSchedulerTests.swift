import Foundation
import Testing
import RunTracking

struct PlaybackSchedulerTests {
    static func messages(_ markers: String...) throws -> [PlaybackScheduler.Message] {
        try markers.enumerated().map { .init(id: "m\($0.offset)", marker: try DistanceMarker(parsing: $0.element)) }
    }

    @Test func markersCrossedTogetherAfterAGapAllPlayInOrder() throws {
        var scheduler = try PlaybackScheduler(messages: Self.messages("2km", "1km", "1km", "3km"))
        #expect(scheduler.handle(.distanceUpdate(time: 0, meters: 0)).action == nil)
        #expect(scheduler.handle(.distanceUpdate(time: 600, meters: 2500)).action == .play(id: "m1", reason: .markerReached))
        let gap = scheduler.handle(.playbackFinished(id: "m1", time: 610))
        #expect(gap.action == nil)  // the 3 s gap
        #expect(gap.nextWakeUp == 613)
        #expect(scheduler.handle(.tick(time: 613)).action == .play(id: "m2", reason: .catchingUp))
        #expect(scheduler.handle(.playbackFinished(id: "m2", time: 620)).action == nil)
        #expect(scheduler.handle(.distanceUpdate(time: 623, meters: 2510)).action == .play(id: "m0", reason: .catchingUp))
        #expect(scheduler.handle(.playbackFinished(id: "m0", time: 630)).action == nil)
        #expect(scheduler.handle(.distanceUpdate(time: 640, meters: 2540)).action == nil)
        #expect(scheduler.handle(.runFinished(time: 650)).action == .play(id: "m3", reason: .runEnded))
        #expect(scheduler.handle(.playbackFinished(id: "m3", time: 655)).action == nil)
        #expect(scheduler.isComplete)
    }

    @Test func leadStartsAMessageEarlyAtTheCurrentPace() throws {
        var scheduler = try PlaybackScheduler(
            messages: Self.messages("100m"), configuration: .init(leadSeconds: 2, speedTimeConstant: 0.001, anticipatesNextUpdate: false))
        var action: PlaybackScheduler.Action?
        var meters = 0.0
        for second in 0...40 where action == nil {
            meters = Double(second) * 3
            action = scheduler.handle(.distanceUpdate(time: Double(second), meters: meters)).action
        }
        #expect(action == .play(id: "m0", reason: .markerReached))
        #expect(meters == 96)  // the first fix within 2 s at 3 m/s (6 m) of 100 m
    }

    @Test func pauseHoldsMessagesUntilResume() throws {
        var scheduler = try PlaybackScheduler(messages: Self.messages("50m"))
        _ = scheduler.handle(.distanceUpdate(time: 0, meters: 0))
        #expect(scheduler.handle(.pause(time: 1)).action == nil)
        #expect(scheduler.handle(.distanceUpdate(time: 20, meters: 60)).action == nil)
        #expect(scheduler.handle(.resume(time: 30)).action == .play(id: "m0", reason: .catchingUp))
    }

    @Test func reachingThePlannedDistancePlaysFinishAndEverythingLeft() throws {
        var scheduler = try PlaybackScheduler(
            messages: Self.messages("finish", "12km", "halfway"), configuration: .init(minimumGapSeconds: 0, plannedDistance: 10_000))
        #expect(scheduler.queue.map(\.meters) == [5000, 10_000, 12_000])
        _ = scheduler.handle(.distanceUpdate(time: 0, meters: 0))
        #expect(scheduler.handle(.distanceUpdate(time: 1800, meters: 5000)).action == .play(id: "m2", reason: .markerReached))
        #expect(scheduler.handle(.playbackFinished(id: "m2", time: 1805)).action == nil)
        #expect(scheduler.handle(.distanceUpdate(time: 3600, meters: 10_000)).action == .play(id: "m0", reason: .markerReached))
        #expect(scheduler.handle(.playbackFinished(id: "m0", time: 3605)).action == .play(id: "m1", reason: .runEnded))
    }

    @Test func reachingTheEndBeforeThePlannedDistancePlaysEverythingLeft() throws {
        // A course of 9,996 m planned as 10 km: the course tracker's distance stops at 9,996.
        var scheduler = try PlaybackScheduler(
            messages: Self.messages("finish", "12km", "11km", "halfway"),
            configuration: .init(minimumGapSeconds: 0, plannedDistance: 10_000, endDistance: 9996))
        // Past the end is at the end, in marker order.
        #expect(scheduler.queue.map(\.message.id) == ["m3", "m0", "m2", "m1"])
        #expect(scheduler.queue.map(\.meters) == [5000, 9996, 9996, 9996])
        _ = scheduler.handle(.distanceUpdate(time: 0, meters: 0))
        #expect(scheduler.handle(.distanceUpdate(time: 1800, meters: 5000)).action == .play(id: "m3", reason: .markerReached))
        #expect(scheduler.handle(.playbackFinished(id: "m3", time: 1805)).action == nil)
        #expect(scheduler.handle(.distanceUpdate(time: 3598, meters: 9995)).action == nil)
        #expect(scheduler.handle(.distanceUpdate(time: 3600, meters: 9996)).action == .play(id: "m0", reason: .markerReached))
        #expect(scheduler.handle(.playbackFinished(id: "m0", time: 3605)).action == .play(id: "m2", reason: .catchingUp))
        #expect(scheduler.handle(.playbackFinished(id: "m2", time: 3610)).action == .play(id: "m1", reason: .catchingUp))
    }

    @Test func alongACourseTheRunEndsAtItsEndOrAtAnEndGivenSooner() throws {
        // About 1,112 m north.
        let course = try Course(points: [.init(latitude: 0, longitude: 8), .init(latitude: 0.01, longitude: 8)])
        let along = PlaybackScheduler.Configuration().along(course)
        #expect(along.plannedDistance == course.length && along.endDistance == course.length)
        let planned = PlaybackScheduler.Configuration(plannedDistance: 1000).along(course)
        #expect(planned.plannedDistance == 1000 && planned.endDistance == course.length)
        #expect(PlaybackScheduler.Configuration(endDistance: 900).along(course).endDistance == 900)
        #expect(PlaybackScheduler.Configuration(endDistance: 5000).along(course).endDistance == course.length)
    }

    @Test func relativeMarkerWithoutPlannedDistanceIsAClearError() throws {
        let error = try #require(throws: RunTrackingError.self) {
            try PlaybackScheduler(messages: Self.messages("1km", "halfway"))
        }
        #expect(error.code == .invalidMarker)
        #expect(error.description.contains("planned distance"))
    }

    @Test func unknownMarkerIsAClearError() throws {
        let error = try #require(throws: RunTrackingError.self) { try Self.messages("somewhere") }
        #expect(error.code == .invalidMarker)
    }

    @Test func staleFinishedEventsChangeNothing() throws {
        var scheduler = try PlaybackScheduler(messages: Self.messages("0m", "0m"), configuration: .init(minimumGapSeconds: 0))
        #expect(scheduler.handle(.distanceUpdate(time: 0, meters: 0)).action == .play(id: "m0", reason: .markerReached))
        #expect(scheduler.handle(.playbackFinished(id: "m1", time: 1)).action == nil)
        #expect(scheduler.handle(.playbackFinished(id: "m0", time: 2)).action == .play(id: "m1", reason: .catchingUp))
        #expect(scheduler.handle(.playbackFinished(id: "m0", time: 3)).action == nil)
    }
}
