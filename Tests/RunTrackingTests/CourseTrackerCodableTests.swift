import Foundation
import RunTracking
import Testing

/// An app saves the tracker when the system suspends it and restores it after a relaunch, or
/// after an update: the run carries on as if it had never stopped.
struct CourseTrackerCodableTests {
    let world = CourseWorld()

    /// A wrong turn and back, a stand, and a phone's speeds: every state the tracker has.
    func runs() throws -> [(course: Course, run: CourseWorld.Run)] {
        let course = try world.course([(0, 0), (1500, 0)])
        let spur = world.run(
            along: .init([(0, 0), (600, 0), (600, 150), (600, 0), (1500, 0)]), sigma: 4, seed: 3, standing: [(300, 120)]
        ) { $0 <= 600 ? $0 : $0 < 900 ? 600 : $0 - 300 }
        let phone = world.run(along: .init([(0, 0), (1500, 0)]), interval: 5, sigma: 5, seed: 4, phone: true, standing: [(900, 90)])
        return [(course, spur), (course, phone)]
    }

    @Test func savedAndRestoredBeforeEveryFixGivesTheSameReadings() throws {
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        for (course, run) in try runs() {
            var straight = CourseTracker(course: course)
            var restored = straight
            var events = 0
            for (index, fix) in run.fixes.enumerated() {
                restored = try decoder.decode(CourseTracker.self, from: encoder.encode(restored))
                #expect(restored == straight, "state differs after restoring before fix \(index)")
                let expected = straight.update(with: fix)
                #expect(restored.update(with: fix) == expected, "fix \(index)")
                if expected.event != nil { events += 1 }
            }
            #expect(straight.meters > 1400)
            // The spur's run leaves the course and comes back: those states were saved too.
            #expect(events == 0 || events == 2)
        }
    }

    @Test func aTrackerSavedWithOnlyWhatIsRequiredRestoresAndCountsOn() throws {
        for (course, run) in try runs() {
            var straight = CourseTracker(course: course)
            let half = run.fixes.count / 2
            for fix in run.fixes[..<half] { _ = straight.update(with: fix) }
            // Saved in the middle of the run: on the spur, for the run with a wrong turn.
            var saved = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(straight)) as? [String: Any])
            // What a later version may add is optional: an earlier one saved none of it.
            for key in ["configuration", "isOffCourse", "lateral", "leftAt", "filter", "lastUsedTime", "strayedFixes",
                        "leftTime", "nearFixes", "nearMeters", "isHolding", "lateralVariance"] {
                saved.removeValue(forKey: key)
            }
            var restored = try JSONDecoder().decode(CourseTracker.self, from: JSONSerialization.data(withJSONObject: saved))
            #expect(restored.meters == straight.meters)
            for (index, fix) in run.fixes.enumerated().dropFirst(half) {
                let reading = restored.update(with: fix)
                #expect(abs(reading.meters - run.truth[index]) <= 25, "fix \(index): \(reading.meters) m against \(run.truth[index]) m")
            }
        }
    }

    @Test func aSavedCourseThatIsNoLongerACourseIsAnErrorNotACourse() throws {
        let tracker = CourseTracker(course: try world.course([(0, 0), (500, 0)]))
        var saved = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(tracker)) as? [String: Any])
        saved["course"] = ["points": [["latitude": 47.37, "longitude": 8.54]]]
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(CourseTracker.self, from: JSONSerialization.data(withJSONObject: saved))
        }
    }

    @Test func eitherTrackerRestoresAsTheRunsTracker() throws {
        let course = try world.course([(0, 0), (1500, 0)])
        let run = world.run(along: .init([(0, 0), (1500, 0)]), sigma: 4, seed: 8)
        for start in [RunTracker.positions(DistanceTracker()), .course(CourseTracker(course: course))] {
            var straight = start, restored = start
            for fix in run.fixes.prefix(200) {
                restored = try JSONDecoder().decode(RunTracker.self, from: JSONEncoder().encode(restored))
                #expect(restored.update(with: fix) == straight.update(with: fix))
            }
            #expect(restored == straight && restored.meters > 500)
        }
        // A DistanceTracker saved alone, as apps saved it before there was a RunTracker.
        var alone = DistanceTracker()
        for fix in run.fixes.prefix(100) { _ = alone.update(with: fix) }
        let restored = try JSONDecoder().decode(RunTracker.self, from: JSONEncoder().encode(alone))
        #expect(restored == .positions(alone))
    }
}
