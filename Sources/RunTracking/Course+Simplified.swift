extension Course {
    /// The course with the places dropped that lie within `tolerance` metres of the straight
    /// line between the places kept on either side (Douglas–Peucker). A server keeps and sends
    /// a course this way: a planner's file drawn every metre becomes a few places a bend, and
    /// the page draws and follows the same line to within `tolerance`.
    ///
    /// The first and the last place are always kept. Each stretch is judged in a flat frame of
    /// its own (`LocalTangentPlane` at its first place), and the distance to it is to the
    /// stretch between its ends, not the whole line through them, so the way back of an
    /// out-and-back is never folded onto the way out. The course is simplified in spans of at
    /// most `spanPoints` places, which bounds the work on any file (a worst case of splitting
    /// off one place at a time costs spanPoints² per span, not points²).
    ///
    /// - Throws: `RunTrackingError` when what is left is no course: a course of jitter within
    ///   `tolerance` of one place becomes shorter than `minimumLength`.
    public func simplified(within tolerance: Double) throws(RunTrackingError) -> Course {
        guard points.count > 2, tolerance > 0 else { return self }
        var keep = [Bool](repeating: false, count: points.count)
        var start = 0
        while start < points.count - 1 {
            let end = min(start + Self.spanPoints, points.count - 1)
            markKept(from: start, to: end, tolerance: tolerance, into: &keep)
            start = end
        }
        var kept: [Point] = []
        for index in points.indices where keep[index] { kept.append(points[index]) }
        return try Course(points: kept)
    }

    /// The places one simplification span holds at most.
    static let spanPoints = 1_000

    /// Marks `first`, `last` and every place Douglas–Peucker keeps between them; a stack, not
    /// recursion, so a span never deepens the call stack.
    private func markKept(from first: Int, to last: Int, tolerance: Double, into keep: inout [Bool]) {
        keep[first] = true
        keep[last] = true
        var pending = [(first, last)]
        while let (low, high) = pending.popLast() {
            guard high - low > 1 else { continue }
            let frame = LocalTangentPlane(originLatitude: points[low].latitude, originLongitude: points[low].longitude)
            let end = frame.project(latitude: points[high].latitude, longitude: points[high].longitude)
            let span = end.east * end.east + end.north * end.north
            var farthest = low
            var farthestSquared = tolerance * tolerance
            for index in (low + 1)..<high {
                let place = frame.project(latitude: points[index].latitude, longitude: points[index].longitude)
                let share = span > 0 ? min(max((place.east * end.east + place.north * end.north) / span, 0), 1) : 0
                let east = place.east - share * end.east
                let north = place.north - share * end.north
                let squared = east * east + north * north
                if squared > farthestSquared {
                    farthestSquared = squared
                    farthest = index
                }
            }
            guard farthest != low else { continue }
            keep[farthest] = true
            pending.append((low, farthest))
            pending.append((farthest, high))
        }
    }
}
