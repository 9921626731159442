import Foundation
import RunTracking
import TestSupport

/// Courses and runs drawn in metres east and north of a place, with the truth known exactly:
/// where along the course the runner is at every moment.
struct CourseWorld {
    var origin = (latitude: 47.37, longitude: 8.54)

    func place(east: Double, north: Double) -> Course.Point {
        let longitude = origin.longitude + east / (111_319.488 * cos(origin.latitude * .pi / 180))
        return Course.Point(
            latitude: origin.latitude + north / 111_132.954,
            longitude: longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude)
    }

    func course(_ points: [(Double, Double)]) throws -> Course {
        try Course(points: points.map { place(east: $0.0, north: $0.1) })
    }

    /// A polyline in metres, with the length along it at each vertex.
    struct Path {
        var points: [(east: Double, north: Double)]
        var cumulative: [Double]

        init(_ points: [(Double, Double)]) {
            self.points = points.map { (east: $0.0, north: $0.1) }
            var cumulative = [0.0]
            for index in points.indices.dropFirst() {
                let east = points[index].0 - points[index - 1].0, north = points[index].1 - points[index - 1].1
                cumulative.append(cumulative[index - 1] + (east * east + north * north).squareRoot())
            }
            self.cumulative = cumulative
        }

        var length: Double { cumulative.last! }

        /// `meters` along this path (a flat map's metres) as metres along `course`, drawn
        /// through the same places: the course measures geodesics on the ellipsoid, which differ
        /// from the map's metres by 0.05% here, 20 m over a marathon.
        func courseMeters(_ meters: Double, on course: Course) -> Double {
            let (low, high, share) = stretch(at: meters, along: cumulative)
            return course.cumulativeMeters[low] + share * (course.cumulativeMeters[high] - course.cumulativeMeters[low])
        }

        func locate(_ meters: Double) -> (east: Double, north: Double) {
            let (low, high, share) = stretch(at: meters, along: cumulative)
            return (points[low].east + share * (points[high].east - points[low].east),
                    points[low].north + share * (points[high].north - points[low].north))
        }
    }

    /// One runner's run: the fixes, and where along the course they truly were at each.
    struct Run {
        var fixes: [GPSFix]
        var truth: [Double]
    }

    /// A runner along `path` at `speed` m/s, a fix every `interval` s, each fix off by
    /// Gauss–Markov error of σ `sigma` per axis (correlated over `tau` s). `courseMeters` maps
    /// metres along the runner's own way to metres along the course; `standing` are stands as
    /// (metres along the way, seconds). Doppler speeds and accuracies when `phone`.
    func run(
        along path: Path, speed: Double = 3, interval: Double = 1, sigma: Double = 4, tau: Double = 30, seed: UInt64 = 1,
        phone: Bool = false, standing: [(at: Double, seconds: Double)] = [], courseMeters: (Double) -> Double = { $0 }
    ) -> Run {
        var random = SeededGenerator(seed: seed)
        var errorEast = sigma * random.gaussian(), errorNorth = sigma * random.gaussian()
        var fixes: [GPSFix] = [], truth: [Double] = []
        var time = 0.0, along = 0.0
        var stands = standing.sorted { $0.at < $1.at }
        var standUntil = -1.0
        while along < path.length {
            let place = path.locate(along)
            let moving = time >= standUntil
            let seen = self.place(east: place.east + errorEast, north: place.north + errorNorth)
            var fix = GPSFix(time: time, latitude: seen.latitude, longitude: seen.longitude)
            if phone {
                fix.horizontalAccuracy = max(sigma, 3) * 1.3
                fix.speed = moving ? max(0, speed + 0.1 * random.gaussian()) : abs(0.1 * random.gaussian())
            }
            fixes.append(fix)
            truth.append(courseMeters(along))
            time += interval
            if moving {
                along += speed * interval
                if let next = stands.first, along >= next.at {
                    along = next.at
                    standUntil = time + next.seconds
                    stands.removeFirst()
                }
            }
            let rho = exp(-interval / tau), drive = sigma * (1 - rho * rho).squareRoot()
            errorEast = rho * errorEast + drive * random.gaussian()
            errorNorth = rho * errorNorth + drive * random.gaussian()
        }
        return Run(fixes: fixes, truth: truth)
    }

    /// 400 m laps of a running track (two 84.39 m straights, bends of 36.8 m radius), unrolled.
    static func trackLaps(_ laps: Int) -> [(Double, Double)] {
        let straight = 84.39, radius = 36.8
        var lap: [(Double, Double)] = [(-straight / 2, -radius)]
        for step in 0...36 {
            let theta = -Double.pi / 2 + Double(step) * .pi / 36
            lap.append((straight / 2 + radius * cos(theta), radius * sin(theta)))
        }
        for step in 0...36 {
            let theta = Double.pi / 2 + Double(step) * .pi / 36
            lap.append((-straight / 2 + radius * cos(theta), radius * sin(theta)))
        }
        var points: [(Double, Double)] = []
        for _ in 0..<laps { points += lap.dropLast() }
        points.append(lap[0])
        return points
    }
}
