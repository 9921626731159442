import Foundation
import RunTracking
import Testing
import TestSupport

/// A course kept with fewer places: every place dropped lies within the tolerance of what is
/// kept, the bends stay, and the way back of an out-and-back is not folded onto the way out.
struct CourseSimplifiedTests {
    let world = CourseWorld()

    /// Metres from `place` to the nearest stretch of `course`, in the world's flat metres.
    func distance(from place: (east: Double, north: Double), to course: Course) -> Double {
        let flat = course.points.map { point in
            (east: (point.longitude - world.origin.longitude) * 111_319.488 * cos(world.origin.latitude * .pi / 180),
             north: (point.latitude - world.origin.latitude) * 111_132.954)
        }
        var best = Double.infinity
        for (a, b) in zip(flat, flat.dropFirst()) {
            let east = b.east - a.east, north = b.north - a.north
            let span = east * east + north * north
            let share = span > 0 ? min(max(((place.east - a.east) * east + (place.north - a.north) * north) / span, 0), 1) : 0
            let dx = place.east - (a.east + share * east), dy = place.north - (a.north + share * north)
            best = min(best, (dx * dx + dy * dy).squareRoot())
        }
        return best
    }

    @Test(arguments: [0.5, 2.0, 10.0])
    func everyPlaceDroppedLiesWithinTheTolerance(tolerance: Double) throws {
        // A sine of 40 m over 300 m, drawn every metre or so, with 20 cm of jitter: 6 km.
        var random = SeededGenerator(seed: 7)
        let places = (0...6_000).map { step -> (east: Double, north: Double) in
            let east = Double(step)
            return (east, 40 * sin(2 * .pi * east / 300) + Double.random(in: -0.2...0.2, using: &random))
        }
        let course = try world.course(places.map { ($0.east, $0.north) })
        let simplified = try course.simplified(within: tolerance)
        #expect(simplified.points.first == course.points.first && simplified.points.last == course.points.last)
        #expect(simplified.points.count < course.points.count / 10, "\(simplified.points.count) places kept")
        // The flat frame each stretch is judged in differs from the world's by millimetres here.
        let worst = places.map { distance(from: $0, to: simplified) }.max()!
        #expect(worst <= tolerance + 0.01, "a place \(worst) m from the course kept")
        // Shorter only by the jitter and the chords across the bends.
        #expect(simplified.length <= course.length && simplified.length >= course.length * 0.97)
    }

    @Test func theWayBackOfAnOutAndBackIsKept() throws {
        // Out 2 km east and back 1 m to the north of the way out: every place of the way back
        // is within 2 m of the line out, but not of the stretch it belongs to.
        let course = try world.course([(0, 0), (1_000, 0), (2_000, 0), (2_000, 1), (1_000, 1), (0, 1)])
        let simplified = try course.simplified(within: 2)
        // Out and back still: 4 km, not folded into 2 (the turn's metre may be cut).
        #expect(abs(simplified.length - course.length) < 2, "\(simplified.length) m of \(course.length)")
        #expect(simplified.points.count >= 3)
    }

    @Test func jitterAroundOnePlaceIsNoCourse() throws {
        // 150 m of steps back and forth within a metre: simplified, under 100 m.
        let course = try world.course((0..<300).map { ($0.isMultiple(of: 2) ? 0 : 0.5, 0) })
        #expect(throws: RunTrackingError.self) { try course.simplified(within: 2) }
    }

    @Test func aLongCourseIsSimplifiedInSpansAndKeepsItsEnds() throws {
        // 30,000 places on a straight line: the span ends are kept, nothing else.
        let course = try world.course((0..<30_000).map { (Double($0) * 2, 0) })
        let simplified = try course.simplified(within: 2)
        #expect(simplified.points.count <= 30_000 / 1_000 + 2)
        #expect(abs(simplified.length - course.length) < 0.01)
    }
}
