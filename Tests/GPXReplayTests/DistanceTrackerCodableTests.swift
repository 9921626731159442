import Foundation
import Testing
import GPXReplay
import RunTracking

/// An app saves the tracker when it is suspended and restores it after a relaunch: the run
/// must carry on exactly as if it had never stopped.
struct DistanceTrackerCodableTests {
    /// Every real track: gaps, spikes around a gap, pauses, duplicate times and standing still
    /// put the tracker in each of its states at some fix.
    @Test(arguments: PlaybackFixtures.trackNames)
    func savedAndRestoredAtEveryFixGivesTheSameReadings(file: String) throws {
        let fixes = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath(file)).fixes()
        var straight = DistanceTracker()
        var restored = DistanceTracker()
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        for (index, fix) in fixes.enumerated() {
            // Save and restore before every fix, through JSON as an app would store it.
            restored = try decoder.decode(DistanceTracker.self, from: encoder.encode(restored))
            #expect(restored == straight, "state differs after restoring before fix \(index)")
            let expected = straight.update(with: fix)
            let reading = restored.update(with: fix)
            #expect(reading == expected, "fix \(index)")
        }
        #expect(restored.meters == straight.meters)
        #expect(straight.meters > 0)
    }

    /// A phone's fixes, with Doppler speeds, stops at a traffic light and stale fixes after a
    /// sleep: the Doppler odometry's state is saved too.
    @Test(arguments: TrackerCorpus.variants.filter { $0.device.speedSigma != nil && ($0.staleFixes || { if case .trafficLight = $0.movement { return true }; return false }($0)) }.map(\.description))
    func aPhoneRunSavedAndRestoredAtEveryFixGivesTheSameReadings(_ description: String) throws {
        let variant = try #require(TrackerCorpus.variants.first { $0.description == description })
        let fixes = try CorpusRun(variant, samples: TrackerCorpusTests.samples).fixes
        var straight = DistanceTracker(), restored = DistanceTracker()
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        for (index, fix) in fixes.enumerated() {
            restored = try decoder.decode(DistanceTracker.self, from: encoder.encode(restored))
            #expect(restored.update(with: fix) == straight.update(with: fix), "fix \(index)")
        }
        #expect(restored == straight)
    }

    /// A tracker saved in the first format, without the every-other-fix wander and the settled
    /// mean (an app updated during a run), still restores, takes the wander it had learnt for
    /// the wander to take off chords, and counts on from where it was: over the rest of the
    /// run it ends within 1% of the tracker that never stopped.
    @Test(arguments: PlaybackFixtures.trackNames)
    func aTrackerSavedByTheEarlierVersionRestoresAndCountsOn(file: String) throws {
        let fixes = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath(file)).fixes()
        var straight = DistanceTracker()
        let half = fixes.count / 2
        for fix in fixes[..<half] { _ = straight.update(with: fix) }
        var saved = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(straight)) as? [String: Any])
        let added = ["pairStart", "pairStartTime", "previousPairStep", "previousPairSeconds", "wanderRateAtDouble",
                     "unwanderingRate", "learnsAtDouble", "settled", "inverseSquaredFullAccelerationSpeed"]
        for key in added { #expect(saved.removeValue(forKey: key) != nil, "\(key) is no longer saved") }
        var restored = try JSONDecoder().decode(DistanceTracker.self, from: JSONSerialization.data(withJSONObject: saved))
        #expect(restored.meters == straight.meters)
        let learnt = try #require(saved["wanderRate"] as? Double)
        let resumed = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(restored)) as? [String: Any])
        let taken = try #require(resumed["unwanderingRate"] as? Double)
        #expect(learnt > 0 ? taken >= learnt : taken == 0, "wander rate \(learnt) m²/s restored as \(taken) m²/s")
        for fix in fixes[half...] {
            let reading = restored.update(with: fix)
            #expect(reading.meters >= 0 && reading.meters.isFinite)
            _ = straight.update(with: fix)
        }
        #expect(abs(restored.meters - straight.meters) <= 0.01 * straight.meters,
                "\(restored.meters) m against \(straight.meters) m")
    }

    @Test func aNewTrackerSavesAndRestores() throws {
        // Before the first fix the tracker holds no time yet; JSON must still hold it.
        let data = try JSONEncoder().encode(DistanceTracker())
        var tracker = try JSONDecoder().decode(DistanceTracker.self, from: data)
        #expect(tracker == DistanceTracker())
        #expect(tracker.update(with: GPSFix(time: 0, latitude: 48, longitude: 11)).outcome == .started)
    }
}

/// A tracker saved by an earlier version, kept as its JSON in samples/tracker: today's tracker
/// restores it and counts on, within 1% of a tracker that ran the whole track without stopping.
struct DistanceTrackerSavedStateTests {
    @Test func aTrackerSavedBy310523aRestoresAndCountsOn() throws {
        let saved = try Data(contentsOf: PlaybackFixtures.packageRoot.appendingPathComponent("samples/tracker/saved-by-310523a.json"))
        var restored = try JSONDecoder().decode(DistanceTracker.self, from: saved)
        let fixes = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath("strava-run-with-pauses.gpx")).fixes()
        let savedMeters = restored.meters
        #expect(savedMeters > 5_000)
        var straight = DistanceTracker()
        for fix in fixes[..<800] { _ = straight.update(with: fix) }
        #expect(abs(straight.meters - savedMeters) <= 0.01 * savedMeters, "\(straight.meters) m against \(savedMeters) m saved")
        for fix in fixes[800...] {
            let reading = restored.update(with: fix)
            #expect(reading.meters >= savedMeters && reading.meters.isFinite)
            _ = straight.update(with: fix)
        }
        #expect(abs(restored.meters - straight.meters) <= 0.01 * straight.meters, "\(restored.meters) m against \(straight.meters) m")
    }
}
