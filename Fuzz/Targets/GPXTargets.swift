import Foundation

// GPX through libexpat, as `voicemsg simulate --gpx` and the GPX tests read it; and GPX read as
// a race's course, as `simulate --course` and the server read it, then simplified as the server
// keeps it and followed by the course tracker, so that strange shapes (a course crossing the
// antimeridian, one of two places 1000 km apart, one doubling back on itself) reach the course
// index and the tracker too.
let fuzzTargets: [String: ([UInt8]) -> Void] = [
    "gpx": { bytes in
        if let track = try? GPXReader.read(data: Data(bytes), name: "fuzz.gpx") { _ = track.points.count }
    },
    "course": { bytes in
        guard let read = try? GPXReader.readCourse(data: Data(bytes), name: "fuzz.gpx") else { return }
        let course = (try? read.simplified(within: 0.5)) ?? read
        // The course's own places as fixes, a second apart, there and back: on the course, then
        // going the wrong way along it.
        var tracker = CourseTracker(course: course)
        let places = course.points.prefix(2_000)
        for (second, place) in (Array(places) + places.reversed()).enumerated() {
            _ = tracker.update(with: GPSFix(
                time: Double(second), latitude: place.latitude, longitude: place.longitude, horizontalAccuracy: 5))
        }
    },
]
