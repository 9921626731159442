import Foundation
import Testing
import TestSupport
import GPXReplay
import RunTracking

/// Replays the GPX fuzz corpus (Fuzz/Corpus/gpx; see scripts/fuzz.sh) without the sanitizer
/// build: each input gives a track or a GPXError naming the file, never a trap.
@Suite struct GPXFuzzCorpusReplayTests {
    @Test func gpxCorpus() throws {
        let inputs = try FuzzCorpus.inputs("gpx")
        try #require(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let data = Data(bytes)
            do {
                let track = try GPXReader.read(data: data, name: name)
                #expect(!track.points.isEmpty, "\(name)")
            } catch let error as GPXError {
                #expect(!name.hasPrefix("seed-"), "seed \(name) is a real track: \(error)")
                #expect(error.description.contains(name), "\(name): \(error)")
            }
        }
    }
}

/// Replays the course fuzz corpus (Fuzz/Corpus/course) as the server and `simulate --course`
/// read a course: each input is a course or a GPXError naming the file, never a trap. A course,
/// simplified as the server keeps it, is then run along at 3 m/s, a fix a second: the distance
/// never goes back and ends at the course's end, and a seed (a real course) is never left.
@Suite struct CourseFuzzCorpusReplayTests {
    @Test func courseCorpus() throws {
        let inputs = try FuzzCorpus.inputs("course")
        try #require(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let course: Course
            do {
                course = try GPXReader.readCourse(data: Data(bytes), name: name).simplified(within: 0.5)
            } catch let error as GPXError {
                #expect(!name.hasPrefix("seed-"), "seed \(name) is a real course: \(error)")
                #expect(error.description.contains(name), "\(name): \(error)")
                continue
            }
            var tracker = CourseTracker(course: course)
            var meters = 0.0
            var wasOff = false
            // At most 20 km of it: the replay stays quick whatever course an input holds.
            let run = min(course.length, 20_000)
            for second in 0...Int(run / 3) + 10 {
                let place = course.place(at: Double(second) * 3)
                let reading = tracker.update(with: GPSFix(
                    time: Double(second), latitude: place.latitude, longitude: place.longitude, horizontalAccuracy: 5))
                #expect(reading.meters >= meters && reading.meters <= course.length, "\(name): \(reading.meters) after \(meters)")
                meters = reading.meters
                wasOff = wasOff || reading.isOffCourse
            }
            #expect(abs(meters - run) < 15, "\(name): \(meters) m of \(run)")
            if name.hasPrefix("seed-") { #expect(!wasOff, "\(name) was left") }
        }
    }
}
