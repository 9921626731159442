import RunTracking

/// Distance along a track's own points, independent of the tracker: point to point (WGS84
/// geodesics), leaving out points that jump faster than a runner can, and interpolated in
/// time between points. `simulate` measures each message's start on it.
struct RecordedPath {
    private var times: [Double] = []
    private var meters: [Double] = []

    /// - Parameter maximumSpeed: a point implying more than this (m/s) from the last point
    ///   kept is a spike, left out.
    init(_ fixes: [GPSFix], maximumSpeed: Double) {
        var last: GPSFix?
        var total = 0.0
        for fix in fixes where fix.hasValidCoordinates && fix.time.isFinite {
            if let previous = last {
                guard fix.time > previous.time else { continue }
                let step = Geodesic.distance(
                    fromLatitude: previous.latitude, longitude: previous.longitude,
                    toLatitude: fix.latitude, longitude: fix.longitude)
                guard step <= maximumSpeed * (fix.time - previous.time) else { continue }
                total += step
            }
            last = fix
            times.append(fix.time)
            meters.append(total)
        }
    }

    /// The whole path's length.
    var length: Double { meters.last ?? 0 }

    /// Metres along the path at `time` (the fixes' clock).
    func meters(at time: Double) -> Double {
        guard let firstTime = times.first, time > firstTime else { return meters.first ?? 0 }
        guard time < times[times.count - 1] else { return meters[meters.count - 1] }
        var low = 0, high = times.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if times[middle] <= time { low = middle } else { high = middle }
        }
        let share = (time - times[low]) / (times[high] - times[low])
        return meters[low] + share * (meters[high] - meters[low])
    }
}
