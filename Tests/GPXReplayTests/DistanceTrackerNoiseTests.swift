import Foundation
import Testing
import GPXReplay
import RunTracking

/// The acceptance tests of issue 3: a clean path (a real track, smoothed heavily) with
/// realistic noise (Gauss–Markov σ 5 m per axis, τ 30 s, 1 Hz, 1% dropouts, 100 m spikes).
struct DistanceTrackerNoiseTests {
    static let noise = GaussMarkovNoise.Configuration(
        sigma: 5, timeConstant: 30, dropoutProbability: 0.01, spikeCount: 5, spikeMeters: 100)

    static func cleanPath(_ name: String) throws -> (fixes: [GPSFix], length: Double) {
        let track = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath(name))
        let path = CleanPath.make(from: track.points, window: 31, speed: 3)
        return (path.fixes, CleanPath.length(of: path.fixes))
    }

    static func trackerTotal(_ fixes: [GPSFix]) -> Double {
        var tracker = DistanceTracker()
        for fix in fixes { _ = tracker.update(with: fix) }
        return tracker.meters
    }

    @Test(arguments: ["strava-run-with-pauses.gpx", "strava-run-gap.gpx"], [UInt64(1), 2, 3])
    func noisyPathWithinTwoPercent(track: String, seed: UInt64) throws {
        let clean = try Self.cleanPath(track)
        let noisy = GaussMarkovNoise(configuration: Self.noise, seed: seed).apply(to: clean.fixes)
        let total = Self.trackerTotal(noisy.fixes)
        let raw = CleanPath.rawSum(of: noisy.fixes)
        let error = (total - clean.length) / clean.length
        print(String(
            format: "%@ seed %llu: clean %.0f m, raw point-to-point %.0f m (%+.1f%%), tracker %.0f m (%+.2f%%)",
            track, seed, clean.length, raw, (raw - clean.length) / clean.length * 100, total, error * 100))
        #expect(abs(error) < 0.02)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func tenMinutesStandingStillAddsLessThanFifteenMeters(seed: UInt64) {
        let still = (0..<600).map { GPSFix(time: Double($0), latitude: 52.52, longitude: 13.405) }
        let noisy = GaussMarkovNoise(configuration: Self.noise, seed: seed).apply(to: still)
        let total = Self.trackerTotal(noisy.fixes)
        let raw = CleanPath.rawSum(of: noisy.fixes)
        print(String(format: "standing still seed %llu: raw point-to-point %.0f m, tracker %.1f m", seed, raw, total))
        #expect(total < 15)
    }

    @Test(arguments: [UInt64(7), 8])
    func standingStillInTheMiddleOfARun(seed: UInt64) throws {
        // Run, wait ten minutes at a crossing, run on: the wait must add next to nothing.
        let clean = try Self.cleanPath("strava-run-gap.gpx")
        let half = clean.fixes.count / 2
        let stop = clean.fixes[half - 1]
        var fixes = Array(clean.fixes[..<half])
        fixes += (1...600).map { GPSFix(time: stop.time + Double($0), latitude: stop.latitude, longitude: stop.longitude) }
        fixes += clean.fixes[half...].map { var fix = $0; fix.time += 600; return fix }
        let noisy = GaussMarkovNoise(configuration: Self.noise, seed: seed).apply(to: fixes)
        let total = Self.trackerTotal(noisy.fixes)
        #expect(abs(total - clean.length) < clean.length * 0.02 + 15, "\(total) vs \(clean.length)")
    }
}
