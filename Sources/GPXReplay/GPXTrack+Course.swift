import RunTracking

extension GPXTrack {
    /// The file as a race's course: its track points, every `trkseg` of every `trk` joined in
    /// file order, or, when it has no track, its route points (`rte`, joined likewise). Planners
    /// export a course either way: Strava, Garmin Connect and Komoot as a track or a route.
    /// Times, speeds and waypoints play no part; consecutive duplicate points are dropped.
    ///
    /// - Throws: `GPXError` with code `invalidCourse` and `Course`'s reason in words: fewer
    ///   than two distinct points, under 100 m, over 1000 km, more than 200,000 points.
    public func course() throws(GPXError) -> Course {
        let track = points.filter { $0.kind == .track }
        let chosen = track.isEmpty ? points : track
        do {
            return try Course(points: chosen.map { Course.Point(latitude: $0.latitude, longitude: $0.longitude) })
        } catch {
            // The points the reader left out are in the file, and a person counting them would
            // not know why the course has fewer.
            let leftOut = rejectedPointCount == 0 ? ""
                : " (\(rejectedPointCount) more \(rejectedPointCount == 1 ? "point was" : "points were") left out: not a place on Earth)"
            throw GPXError(.invalidCourse, error.message + leftOut, source: source)
        }
    }
}
