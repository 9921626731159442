import Foundation
import GPXReplay
import RunTracking
import TestSupport

/// Adds realistic GPS error to a clean path: first-order Gauss–Markov (exponentially
/// correlated) position error per axis, dropped fixes, and single-fix spikes.
///
/// Consumer GNSS error wanders: it is correlated over tens of seconds (multipath,
/// atmosphere), so white noise would flatter any filter. The discrete process is
/// `n[k] = ρ n[k-1] + σ √(1-ρ²) w[k]` with `ρ = exp(-Δt/τ)`, which keeps σ stationary.
struct GaussMarkovNoise {
    struct Configuration {
        /// Standard deviation of the error per axis, metres.
        var sigma: Double = 5
        /// Correlation time, seconds.
        var timeConstant: Double = 30
        /// Chance that any fix is lost.
        var dropoutProbability: Double = 0.01
        /// How many single fixes jump away.
        var spikeCount: Int = 0
        /// How far a spike jumps, metres.
        var spikeMeters: Double = 100
    }

    var configuration: Configuration
    var seed: UInt64

    /// The noisy fixes, with the indices of spikes in the result.
    func apply(to clean: [GPSFix]) -> (fixes: [GPSFix], spikeIndices: [Int]) {
        var random = SeededGenerator(seed: seed)
        var east = configuration.sigma * random.gaussian()
        var north = configuration.sigma * random.gaussian()
        var previousTime = clean.first?.time ?? 0
        var spikeAt = Set<Int>()
        if clean.count > 20 {
            while spikeAt.count < configuration.spikeCount {
                spikeAt.insert(Int.random(in: 10..<(clean.count - 10), using: &random))
            }
        }
        var result: [GPSFix] = []
        var spikeIndices: [Int] = []
        for (index, fix) in clean.enumerated() {
            let rho = exp(-(fix.time - previousTime) / configuration.timeConstant)
            previousTime = fix.time
            let drive = configuration.sigma * (1 - rho * rho).squareRoot()
            east = rho * east + drive * random.gaussian()
            north = rho * north + drive * random.gaussian()
            if Double.random(in: 0..<1, using: &random) < configuration.dropoutProbability { continue }
            var offset = (east: east, north: north)
            if spikeAt.contains(index) {
                let angle = Double.random(in: 0..<(2 * .pi), using: &random)
                offset.east += configuration.spikeMeters * cos(angle)
                offset.north += configuration.spikeMeters * sin(angle)
                spikeIndices.append(result.count)
            }
            result.append(Self.moved(fix, east: offset.east, north: offset.north))
        }
        return (result, spikeIndices)
    }

    /// `fix` moved by metres east and north (small offsets, local scale).
    static func moved(_ fix: GPSFix, east: Double, north: Double) -> GPSFix {
        var moved = fix
        let latitude = fix.latitude * .pi / 180
        moved.latitude += north / 111_132.954
        moved.longitude += east / (111_319.488 * cos(latitude))
        return moved
    }
}
