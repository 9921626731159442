import Foundation
import RunTracking
import Testing

/// What a course is made of, and what cannot be one.
struct CourseTests {
    let world = CourseWorld()

    @Test func lengthsAreGeodesicsAndDuplicatePlacesAreDropped() throws {
        let points = [world.place(east: 0, north: 0), world.place(east: 0, north: 0), world.place(east: 300, north: 0),
                      world.place(east: 300, north: 0), world.place(east: 300, north: 400)]
        let course = try Course(points: points)
        #expect(course.points == [points[0], points[2], points[4]])
        let first = Geodesic.distance(
            fromLatitude: points[0].latitude, longitude: points[0].longitude, toLatitude: points[2].latitude, longitude: points[2].longitude)
        #expect(course.cumulativeMeters[1] == first)
        // The world's metres are a flat map's: within 0.2% of the ellipsoid's here.
        #expect(abs(course.length - 700) < 1.4)
        // Halfway along the second stretch.
        let middle = course.place(at: first + 200)
        #expect(abs(middle.latitude - world.place(east: 300, north: 200).latitude) < 2e-6)
        #expect(course.place(at: -5) == points[0] && course.place(at: 10_000) == points[4])
    }

    @Test(arguments: [
        ([], RunTrackingError.Code.courseTooFewPoints, "the course has no points"),
        ([(0.0, 0.0)], .courseTooFewPoints, "at least 2 distinct points; it has 1"),
        ([(0, 0), (0, 0), (0, 0)], .courseTooFewPoints, "at least 2 distinct points; it has 1"),
        ([(0, 0), (60, 0)], .courseTooShort, "the course is 60 m long; a course must be at least 100 m"),
        ([(0, 0), (0, 1_200_000)], .courseTooLong, "km long; a course must be at most 1000 km"),
    ])
    func whatCannotBeACourseIsRefusedInWords(points: [(Double, Double)], code: RunTrackingError.Code, words: String) {
        #expect {
            _ = try world.course(points)
        } throws: { error in
            guard let error = error as? RunTrackingError else { return false }
            return error.code == code && error.description.contains(words)
        }
    }

    @Test func aPlaceThatCannotBeOnEarthIsRefused() {
        for bad in [Course.Point(latitude: .nan, longitude: 8), Course.Point(latitude: 91, longitude: 8), Course.Point(latitude: 47, longitude: 181)] {
            #expect(throws: RunTrackingError.self) { _ = try Course(points: [world.place(east: 0, north: 0), bad, world.place(east: 500, north: 0)]) }
        }
        do {
            _ = try Course(points: [world.place(east: 0, north: 0), Course.Point(latitude: 100, longitude: 8)])
        } catch {
            #expect(error.code == .invalidCoursePoint && error.description == "point 2 of the course is not a place on Earth (latitude and longitude out of range)")
        }
    }

    @Test func moreThan200000PlacesAreRefusedAndExactlySoManyAreTaken() throws {
        let many = (0...Course.maximumPointCount).map { world.place(east: Double($0) * 0.5, north: 0) }
        #expect {
            _ = try Course(points: many)
        } throws: { error in
            (error as? RunTrackingError)?.code == .courseTooManyPoints
                && (error as? RunTrackingError)?.description == "the course has 200001 points; at most 200000 are taken"
        }
        #expect(try Course(points: Array(many.dropLast())).points.count == Course.maximumPointCount)
    }

    @Test func aCourseAcrossTheAntimeridianIsFollowed() throws {
        // Taveuni, Fiji: 2 km east across 180°.
        let world = CourseWorld(origin: (latitude: -16.8, longitude: 179.99))
        let points: [(Double, Double)] = [(0, 0), (1000, 0), (2000, 0)]
        let course = try world.course(points)
        #expect(course.points[2].longitude < -179.9)
        #expect(abs(course.length - 2000) < 4)
        let run = world.run(along: .init(points), sigma: 3, seed: 1)
        var tracker = CourseTracker(course: course)
        for (index, fix) in run.fixes.enumerated() {
            let reading = tracker.update(with: fix)
            if index >= 15 { #expect(abs(reading.meters - run.truth[index]) <= 12 + 4, "fix \(index): \(reading.meters) m") }
        }
    }
}
