import Foundation
import GPXReplay
import RunTracking
import TestSupport

/// A clean path on real coordinates: the ground truth of a corpus variant. Its length is the
/// sum of WGS84 geodesics between its vertices (Vincenty), computed without the tracker.
struct TruePath: Sendable {
    var name: String
    var latitudes: [Double]
    var longitudes: [Double]
    /// Metres along the path at each vertex.
    var cumulative: [Double]

    var length: Double { cumulative.last ?? 0 }

    init(name: String, points: [(latitude: Double, longitude: Double)]) {
        self.name = name
        latitudes = points.map(\.latitude)
        longitudes = points.map(\.longitude)
        var cumulative = [0.0]
        for index in points.indices.dropFirst() {
            cumulative.append(cumulative[index - 1] + Geodesic.distance(
                fromLatitude: latitudes[index - 1], longitude: longitudes[index - 1],
                toLatitude: latitudes[index], longitude: longitudes[index]))
        }
        self.cumulative = cumulative
    }

    /// The path's first `meters`, ending at that place.
    func prefix(_ meters: Double) -> TruePath {
        let end = locate(meters)
        var points: [(latitude: Double, longitude: Double)] = []
        for index in cumulative.indices where cumulative[index] < meters { points.append((latitudes[index], longitudes[index])) }
        points.append((end.latitude, end.longitude))
        return TruePath(name: name, points: points)
    }

    /// The place `meters` along the path, and the unit direction of travel there (east, north).
    func locate(_ meters: Double) -> (latitude: Double, longitude: Double, east: Double, north: Double) {
        let (low, high, share) = stretch(at: meters, along: cumulative)
        let latitude = latitudes[low] + share * (latitudes[high] - latitudes[low])
        let longitude = longitudes[low] + share * (longitudes[high] - longitudes[low])
        let north = (latitudes[high] - latitudes[low]) * LocalMeters.perDegreeLatitude
        let east = (longitudes[high] - longitudes[low]) * LocalMeters.perDegreeLongitude(at: latitude)
        let norm = max((east * east + north * north).squareRoot(), 1e-12)
        return (latitude, longitude, east / norm, north / norm)
    }
}

extension TruePath {
    /// A real track made into a clean path: spikes dropped (more than 12 m/s from the last
    /// point kept), then a centred moving average over `window` points, which keeps street
    /// corners with a radius of a few metres and removes the recording's jitter.
    static func cleaned(_ points: [GPXPoint], name: String, window: Int) -> TruePath {
        var kept: [GPXPoint] = []
        for point in points {
            if let last = kept.last, let t0 = last.time, let t1 = point.time {
                let meters = Geodesic.distance(
                    fromLatitude: last.latitude, longitude: last.longitude, toLatitude: point.latitude, longitude: point.longitude)
                if t1 <= t0 || meters > 12 * (t1 - t0) { continue }
            }
            kept.append(point)
        }
        let half = window / 2
        var smoothed: [(latitude: Double, longitude: Double)] = []
        for index in kept.indices {
            let range = max(0, index - half)...min(kept.count - 1, index + half)
            let count = Double(range.count)
            smoothed.append((
                range.reduce(0) { $0 + kept[$1].latitude } / count,
                range.reduce(0) { $0 + kept[$1].longitude } / count))
        }
        return TruePath(name: name, points: smoothed)
    }

    /// `laps` laps of lane 1 of a standard 400 m track (two 84.39 m straights, two bends of
    /// 36.80 m radius), drawn around `center` with its straights along `heading` degrees from
    /// north, anticlockwise as races run.
    static func trackLaps(_ laps: Int, center: (latitude: Double, longitude: Double), heading: Double) -> TruePath {
        let straight = 84.39, radius = 36.80
        let angle = heading * .pi / 180
        // Local frame: x along the straights, y to its left; rotated into east/north.
        func place(_ x: Double, _ y: Double) -> (latitude: Double, longitude: Double) {
            LocalMeters.offset(center, east: x * sin(angle) - y * cos(angle), north: x * cos(angle) + y * sin(angle))
        }
        var lap: [(Double, Double)] = []
        // Home straight at y = -radius from x = -straight/2 to +straight/2, then the bend
        // around (straight/2, 0), the back straight at y = +radius, the bend around (-straight/2, 0).
        lap.append((-straight / 2, -radius))
        for step in 0...180 {
            let theta = -Double.pi / 2 + Double(step) * .pi / 180
            lap.append((straight / 2 + radius * cos(theta), radius * sin(theta)))
        }
        for step in 0...180 {
            let theta = Double.pi / 2 + Double(step) * .pi / 180
            lap.append((-straight / 2 + radius * cos(theta), radius * sin(theta)))
        }
        var points: [(latitude: Double, longitude: Double)] = []
        for _ in 0..<laps {
            for (x, y) in lap where points.isEmpty || (x, y) != lap[0] { points.append(place(x, y)) }
        }
        points.append(place(lap[0].0, lap[0].1))
        return TruePath(name: "track\(laps)laps", points: points)
    }

    /// A switchback trail: legs of 30 to 50 m across a slope, each ending in a 180° hairpin of
    /// `radius` metres, climbing towards `heading` degrees from north.
    static func switchbacks(
        legs: Int, start: (latitude: Double, longitude: Double), heading: Double, radius: Double = 4, seed: UInt64
    ) -> TruePath {
        var random = SeededGenerator(seed: seed)
        let angle = heading * .pi / 180
        func place(_ x: Double, _ y: Double) -> (latitude: Double, longitude: Double) {
            // y climbs along the heading, x runs across the slope.
            LocalMeters.offset(start, east: y * sin(angle) + x * cos(angle), north: y * cos(angle) - x * sin(angle))
        }
        var points = [place(0, 0)]
        var x = 0.0, y = 0.0, direction = 1.0
        for _ in 0..<legs {
            x += direction * Double.random(in: 30...50, using: &random)
            points.append(place(x, y))
            // The hairpin: a half circle up the slope, turning back.
            for step in 1...36 {
                let theta = Double(step) * .pi / 36
                points.append(place(x + direction * radius * sin(theta), y + radius * (1 - cos(theta))))
            }
            y += 2 * radius
            direction = -direction
        }
        return TruePath(name: "switchbacks", points: points)
    }
}
