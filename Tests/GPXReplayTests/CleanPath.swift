import Foundation
import GPXReplay
import RunTracking

/// Ground truth for the distance tests: a real track, smoothed heavily and replayed at a
/// steady speed at 1 Hz, so its length is known exactly and it still turns like a real run.
enum CleanPath {
    /// The smoothed path of `points` (centred moving average over `window` points), walked
    /// at `speed` m/s with one fix per second. Returns the fixes and the path's length.
    static func make(
        from points: [GPXPoint], window: Int = 31, speed: Double = 3, startTime: Double = 0
    ) -> (fixes: [GPSFix], length: Double) {
        let half = window / 2
        var smoothed: [(latitude: Double, longitude: Double)] = []
        for index in points.indices {
            let range = max(0, index - half)...min(points.count - 1, index + half)
            var latitude = 0.0, longitude = 0.0
            for other in range {
                latitude += points[other].latitude
                longitude += points[other].longitude
            }
            let count = Double(range.count)
            smoothed.append((latitude / count, longitude / count))
        }
        return walk(smoothed, speed: speed, startTime: startTime)
    }

    /// Fixes every second along a polyline at a steady speed.
    static func walk(
        _ polyline: [(latitude: Double, longitude: Double)], speed: Double, startTime: Double
    ) -> (fixes: [GPSFix], length: Double) {
        var fixes = [GPSFix(time: startTime, latitude: polyline[0].latitude, longitude: polyline[0].longitude)]
        var leftover = 0.0  // metres walked along the current leg before the next fix
        var length = 0.0
        var previous = polyline[0]
        for point in polyline.dropFirst() {
            let leg = Geodesic.distance(
                fromLatitude: previous.latitude, longitude: previous.longitude,
                toLatitude: point.latitude, longitude: point.longitude)
            var position = speed - leftover
            while position <= leg {
                let share = position / leg
                fixes.append(GPSFix(
                    time: startTime + Double(fixes.count),
                    latitude: previous.latitude + share * (point.latitude - previous.latitude),
                    longitude: previous.longitude + share * (point.longitude - previous.longitude)))
                position += speed
            }
            leftover = leg - (position - speed)
            length += leg
            previous = point
        }
        return (fixes, length)
    }

    /// The length of the fixes' polyline (the clean path as sampled).
    static func length(of fixes: [GPSFix]) -> Double {
        zip(fixes, fixes.dropFirst()).reduce(0) { sum, pair in
            sum + Geodesic.distance(
                fromLatitude: pair.0.latitude, longitude: pair.0.longitude,
                toLatitude: pair.1.latitude, longitude: pair.1.longitude)
        }
    }

    /// The plain sum of point-to-point distances: what a naive tracker reports.
    static func rawSum(of fixes: [GPSFix]) -> Double { length(of: fixes) }
}
