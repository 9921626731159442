import RunTracking
extension GPXTrack {
    /// The points as timed fixes, ready for the distance tracker.
    ///
    /// - Points without a time between two timed points get a time interpolated by distance.
    /// - Points before the first or after the last timed point are timed at `pace` when given,
    ///   otherwise at the average pace of the timed part.
    /// - With no time at all (every route, some exports) `pace` is required; the run then
    ///   starts at time 0.
    /// - A segment that starts before the previous one ended (times running backwards between
    ///   tracks) is shifted as a whole to start 1 s after it, keeping its own spacing. Within a
    ///   segment, a point earlier than its predecessor is dropped. Duplicate times are kept; the
    ///   tracker ignores a fix that does not advance the clock.
    public func fixes(pace: Pace? = nil) throws -> [GPSFix] {
        var cumulative = [Double](repeating: 0, count: points.count)
        for index in points.indices.dropFirst() {
            let previous = points[index - 1], point = points[index]
            cumulative[index] = cumulative[index - 1] + Geodesic.localDistance(
                fromLatitude: previous.latitude, longitude: previous.longitude,
                toLatitude: point.latitude, longitude: point.longitude)
        }
        let timedIndices = points.indices.filter { points[$0].time != nil }
        var times = [Double](repeating: 0, count: points.count)

        if timedIndices.isEmpty {
            guard let pace else {
                throw GPXError(
                    .invalidTrack,
                    "no point has a time; give a pace (for example --pace 6:00/km) to replay it",
                    source: source)
            }
            for index in points.indices { times[index] = cumulative[index] * pace.secondsPerMeter }
        } else {
            let ordered = monotonicTimes(at: timedIndices)
            for (position, index) in timedIndices.enumerated() { times[index] = ordered[position] ?? .nan }
            let timedIndices = timedIndices.filter { !times[$0].isNaN }
            let first = timedIndices.first!, last = timedIndices.last!
            let averagePace: Double = {
                let span = cumulative[last] - cumulative[first]
                let duration = times[last] - times[first]
                return span > 0 && duration > 0 ? duration / span : 0.36  // 6:00/km
            }()
            let secondsPerMeter = pace?.secondsPerMeter ?? averagePace
            for index in points.indices where points[index].time == nil {
                if index < first {
                    times[index] = times[first] - (cumulative[first] - cumulative[index]) * secondsPerMeter
                } else if index > last {
                    times[index] = times[last] + (cumulative[index] - cumulative[last]) * secondsPerMeter
                } else {
                    // Between two timed points: interpolate by distance.
                    let before = timedIndices.last(where: { $0 < index })!
                    let after = timedIndices.first(where: { $0 > index })!
                    let span = cumulative[after] - cumulative[before]
                    let share = span > 0 ? (cumulative[index] - cumulative[before]) / span
                        : Double(index - before) / Double(after - before)
                    times[index] = times[before] + share * (times[after] - times[before])
                }
            }
        }

        var result: [GPSFix] = []
        result.reserveCapacity(points.count)
        for (index, point) in points.enumerated() where !times[index].isNaN {
            result.append(GPSFix(
                time: times[index], latitude: point.latitude, longitude: point.longitude,
                horizontalAccuracy: point.horizontalAccuracy, speed: point.speed))
        }
        return result
    }

    /// The times of the timed points, shifted so segments never run backwards; nil for a
    /// point dropped for going back in time within its segment.
    private func monotonicTimes(at timedIndices: [Int]) -> [Double?] {
        var result: [Double?] = []
        result.reserveCapacity(timedIndices.count)
        var shift = 0.0
        var latest = -Double.infinity
        var segment = -1
        for index in timedIndices {
            let point = points[index]
            var time = point.time! + shift
            if point.segment != segment {
                segment = point.segment
                if time < latest {
                    shift += latest + 1 - time
                    time = latest + 1
                }
            } else if time < latest {
                result.append(nil)
                continue
            }
            latest = time
            result.append(time)
        }
        return result
    }
}
