import Foundation
import Testing
import RunTracking

/// The tracker on paths whose length is known exactly, drawn in metres around a place.
struct DistanceTrackerTests {
    static let origin = (latitude: 47.37, longitude: 8.54)

    static func fix(_ time: Double, east: Double, north: Double, speed: Double? = nil, accuracy: Double? = nil) -> GPSFix {
        GPSFix(
            time: time, latitude: origin.latitude + north / 111_132.954,
            longitude: origin.longitude + east / (111_319.488 * cos(origin.latitude * .pi / 180)),
            horizontalAccuracy: accuracy, speed: speed)
    }

    /// A zigzag: legs of 40 m, turning 180° at each end 8 m further north.
    static func zigzag(at meters: Double) -> (east: Double, north: Double) {
        let lap = 48.0, leg = floor(meters / lap), along = meters - leg * lap
        let direction = leg.truncatingRemainder(dividingBy: 2) == 0 ? 1.0 : -1.0
        let start = direction > 0 ? 0.0 : 40.0
        if along <= 40 { return (start + direction * along, leg * 8) }
        return (start + direction * 40, leg * 8 + (along - 40))
    }

    @Test func dopplerSpeedCountsTheBendsBetweenSparseFixes() {
        // A walk at 1 m/s along a zigzag with a fix every 15 s: chords between the fixes cut
        // every turn, the speed does not.
        var tracker = DistanceTracker()
        var chords = 0.0
        var previous: (east: Double, north: Double)?
        for time in stride(from: 0.0, through: 960, by: 15) {
            let place = Self.zigzag(at: time)
            _ = tracker.update(with: Self.fix(time, east: place.east, north: place.north, speed: 1, accuracy: 5))
            if let previous { chords += ((place.east - previous.east) * (place.east - previous.east) + (place.north - previous.north) * (place.north - previous.north)).squareRoot() }
            previous = place
        }
        // 960 m walked. The speeds are exact: 15 s apart, they show it, and the noise bias the
        // tracker takes off fades from the 0.1 m/s it starts with (0.5%, 4.8 m) towards none.
        #expect(tracker.meters > 960 - 2.5 && tracker.meters <= 960, "\(tracker.meters)")
        #expect(chords < 900)
    }

    @Test func aStopWithLowDopplerSpeedsAddsNothing() {
        var tracker = DistanceTracker()
        var time = 0.0
        for _ in 0..<60 {  // 60 s at 3 m/s due east
            _ = tracker.update(with: Self.fix(time, east: time * 3, north: 0, speed: 3, accuracy: 5))
            time += 1
        }
        let before = tracker.meters
        for step in 0..<120 {  // two minutes at a traffic light, position wandering a little
            let wobble = Double(step % 7) - 3
            _ = tracker.update(with: Self.fix(time, east: 180 + wobble, north: wobble / 2, speed: 0.2, accuracy: 5))
            time += 1
        }
        #expect(tracker.isStill)
        #expect(tracker.meters - before < 3)
    }

    @Test func aRepeatedFixIsIgnoredAndNullIslandIsNoPlace() {
        var tracker = DistanceTracker()
        _ = tracker.update(with: Self.fix(0, east: 0, north: 0))
        _ = tracker.update(with: Self.fix(1, east: 3, north: 0))
        #expect(tracker.update(with: Self.fix(2, east: 3, north: 0)).outcome == .repeated)
        #expect(tracker.update(with: GPSFix(time: 3, latitude: 0, longitude: 0)).outcome == .invalidCoordinates)
        #expect(tracker.update(with: Self.fix(4, east: 9, north: 0)).outcome == .accepted)
    }

    @Test func aWalkWithAFixEveryFifteenSecondsIsCounted() {
        // 1.1 m/s, a fix every 15 s, positions only: with a gap limit under 15 s every fix
        // would be a gap, and the walk would count nothing.
        var tracker = DistanceTracker()
        for time in stride(from: 0.0, through: 1800, by: 15) {
            _ = tracker.update(with: Self.fix(time, east: time * 1.1, north: 0))
        }
        #expect(abs(tracker.meters - 1980) < 20, "\(tracker.meters)")
    }
}
