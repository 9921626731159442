import Foundation
import Testing
import GPXReplay
import RunTracking
import TestSupport

/// The tracker on a clean path (a real track, smoothed heavily) with
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

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8, 9, 10], [false, true])
    func tenMinutesStandingStillAddsLessThanFiveMeters(seed: UInt64, reportsSpeed: Bool) {
        // σ 5 m of wandering position; as a phone reports, also an accuracy and a Doppler
        // speed that is the length of a velocity with σ 0.15 m/s of noise.
        var random = SeededGenerator(seed: seed)
        var position = GaussMarkovProcess(sigma: 5, timeConstant: 30, random: &random)
        var velocity = GaussMarkovProcess(sigma: 0.15, timeConstant: 3, random: &random)
        var fixes: [GPSFix] = []
        for second in 0..<600 {
            position.advance(by: 1, random: &random)
            velocity.advance(by: 1, random: &random)
            let place = LocalMeters.offset((52.52, 13.405), east: position.east, north: position.north)
            fixes.append(GPSFix(
                time: Double(second), latitude: place.latitude, longitude: place.longitude,
                horizontalAccuracy: reportsSpeed ? 5 : nil,
                speed: reportsSpeed ? (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot() : nil))
        }
        let total = Self.trackerTotal(fixes)
        let raw = CleanPath.rawSum(of: fixes)
        print(String(format: "standing still seed %llu%@: raw point-to-point %.0f m, tracker %.1f m", seed, reportsSpeed ? " (phone)" : "", raw, total))
        #expect(total < 5)
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
