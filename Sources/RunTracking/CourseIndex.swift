/// A course cut into straight pieces, each in a flat frame of its own, so that where a fix lies
/// along the course is found in time that does not grow with the course's length.
///
/// A piece's frame is east/north metres around its start, linear in latitude and longitude, so
/// the piece (straight on the map) is exactly straight in it and a fix near it lands within a
/// part in 10⁵ of its true place. Pieces are at most `longestPiece` long: a course drawn with
/// places kilometres apart is cut finer, where a frame's scale would start to drift.
///
/// Consecutive pieces are bounded in blocks, and blocks in groups, each by a circle that holds
/// them: looking for the course near a fix far along it (a runner off the course, who may
/// come back anywhere ahead) skips every group and block whose circle is too far away.
struct CourseIndex: Sendable {
    /// A straight piece of the course: where it starts, which way it runs, how long it is, and
    /// where it lies along the course.
    struct Piece: Sendable {
        /// East/north metres around the piece's start.
        var frame: LocalTangentPlane
        /// The unit vector along the piece.
        var direction: PlanePoint
        /// In the frame's metres; `metersPerLength` course metres to each of them.
        var length: Double
        var metersPerLength: Double
        /// Metres along the course at the piece's start.
        var startMeters: Double

        /// How far a heading (a unit vector, east and north) runs along the piece: 1 the
        /// same way, −1 against it.
        @inline(__always)
        func agreement(east: Double, north: Double) -> Double { direction.east * east + direction.north * north }

        /// Where a place projects onto the piece: metres along the course, and the squared
        /// metres from the place to there.
        @inline(__always)
        func project(latitude: Double, longitude: Double) -> (meters: Double, squared: Double) {
            let (east, north) = frame.offset(latitude: latitude, longitude: longitude)
            let along = min(max(agreement(east: east, north: north), 0), length)
            let offEast = east - along * direction.east, offNorth = north - along * direction.north
            return (startMeters + along * metersPerLength, offEast * offEast + offNorth * offNorth)
        }
    }

    /// A circle holding consecutive pieces (or blocks), and the metres along the course they span.
    struct Bound: Sendable {
        /// East/north metres around the circle's centre.
        var frame: LocalTangentPlane
        var radius: Double
        var first: Int
        var end: Int
        var startMeters: Double
        var endMeters: Double
    }

    static let longestPiece = 1000.0
    static let fanout = 32

    private(set) var pieces: [Piece] = []
    /// Blocks of `fanout` pieces, and groups of `fanout` blocks (`first` and `end` count blocks).
    private(set) var blocks: [Bound] = []
    private(set) var groups: [Bound] = []
    /// The course's end: where its last piece ends.
    private(set) var endMeters = 0.0

    init(points: [Course.Point], cumulative: [Double]) {
        let kept = Self.kept(points, cumulative: cumulative)
        for (index, next) in zip(kept, kept.dropFirst()) {
            let from = points[index], to = points[next]
            let meters = cumulative[next] - cumulative[index]
            let parts = max(1, Int((meters / Self.longestPiece).rounded(.up)))
            let deltaLongitude = Geodesic.normalizedDegrees(to.longitude - from.longitude)
            for part in 0..<parts {
                let share = Double(part) / Double(parts), next = Double(part + 1) / Double(parts)
                appendPiece(
                    from: (from.latitude + share * (to.latitude - from.latitude), from.longitude + share * deltaLongitude),
                    to: (from.latitude + next * (to.latitude - from.latitude), from.longitude + next * deltaLongitude),
                    startMeters: cumulative[index] + share * meters, meters: meters / Double(parts))
            }
        }
        endMeters = cumulative[cumulative.count - 1]
        blocks = Self.bounds(count: pieces.count) { pieceIndex in
            let piece = pieces[pieceIndex]
            let start = (piece.frame.originLatitude, piece.frame.originLongitude)
            let end = piece.frame.unproject(east: piece.direction.east * piece.length, north: piece.direction.north * piece.length)
            return ([start, end], piece.startMeters, piece.startMeters + piece.length * piece.metersPerLength, 0)
        }
        groups = Self.bounds(count: blocks.count) { blockIndex in
            let block = blocks[blockIndex]
            return ([(block.frame.originLatitude, block.frame.originLongitude)], block.startMeters, block.endMeters, block.radius)
        }
    }

    /// How far a place of the course may be from the pieces that stand for it: 25 cm, far
    /// below any fix's error. A course drawn every few centimetres (a planner's, or a
    /// 10 Hz receiver's) is then searched in pieces of metres, so the cost of a fix does not
    /// grow with how densely the course is drawn; distances along it stay the places' own.
    static let simplification = 0.25
    /// A piece stands for at most this many of the course's own stretches, which bounds the
    /// work of choosing them: at most 64² / 2 checks a piece.
    static let longestRun = 64

    /// The places the pieces run between: the first, the last, and each one after which the
    /// straight line from the last kept place would pass farther than `simplification` from
    /// a place between, or run more than `longestRun` places or `longestPiece` metres.
    private static func kept(_ points: [Course.Point], cumulative: [Double]) -> [Int] {
        var kept = [0]
        var anchor = 0
        var frame = LocalTangentPlane(originLatitude: points[0].latitude, originLongitude: points[0].longitude)
        func fits(to end: Int) -> Bool {
            guard end - anchor <= longestRun, cumulative[end] - cumulative[anchor] <= longestPiece else { return false }
            let chord = frame.project(latitude: points[end].latitude, longitude: points[end].longitude)
            let span = chord.east * chord.east + chord.north * chord.north
            for between in (anchor + 1)..<end {
                let place = frame.project(latitude: points[between].latitude, longitude: points[between].longitude)
                let share = span > 0 ? min(max((place.east * chord.east + place.north * chord.north) / span, 0), 1) : 0
                let east = place.east - share * chord.east, north = place.north - share * chord.north
                if east * east + north * north > simplification * simplification { return false }
            }
            return true
        }
        for end in 2..<max(points.count, 2) where !fits(to: end) {
            anchor = end - 1
            kept.append(anchor)
            frame = LocalTangentPlane(originLatitude: points[anchor].latitude, originLongitude: points[anchor].longitude)
        }
        kept.append(points.count - 1)
        return kept
    }

    private mutating func appendPiece(
        from: (latitude: Double, longitude: Double), to: (latitude: Double, longitude: Double), startMeters: Double, meters: Double
    ) {
        let frame = LocalTangentPlane(originLatitude: from.latitude, originLongitude: from.longitude)
        let end = frame.project(latitude: to.latitude, longitude: to.longitude)
        let length = planarLength(end.east, end.north)
        pieces.append(Piece(
            frame: frame,
            direction: length > 0 ? PlanePoint(east: end.east / length, north: end.north / length) : PlanePoint(east: 1, north: 0),
            length: length, metersPerLength: length > 0 ? meters / length : 1, startMeters: startMeters))
    }

    /// Circles over runs of `fanout` consecutive items, each item given as its places, its
    /// metres along the course and its own radius around those places.
    private static func bounds(
        count: Int, item: (Int) -> (places: [(Double, Double)], start: Double, end: Double, radius: Double)
    ) -> [Bound] {
        var bounds: [Bound] = []
        var first = 0
        while first < count {
            let end = min(first + fanout, count)
            let reference = item(first).places[0]
            var south = Double.infinity, north = -Double.infinity, west = Double.infinity, east = -Double.infinity
            for index in first..<end {
                for place in item(index).places {
                    south = min(south, place.0)
                    north = max(north, place.0)
                    let longitude = reference.1 + Geodesic.normalizedDegrees(place.1 - reference.1)
                    west = min(west, longitude)
                    east = max(east, longitude)
                }
            }
            let frame = LocalTangentPlane(originLatitude: (south + north) / 2, originLongitude: (west + east) / 2)
            var radius = 0.0
            for index in first..<end {
                let held = item(index)
                for place in held.places {
                    let point = frame.project(latitude: place.0, longitude: place.1)
                    radius = max(radius, planarLength(point.east, point.north) + held.radius)
                }
            }
            // A flat frame's scale drifts by a part in 10³ over tens of kilometres: the circle
            // is widened by more, so that it never leaves out a piece it holds.
            bounds.append(Bound(
                frame: frame,
                radius: radius * 1.01 + 1, first: first, end: end,
                startMeters: item(first).start, endMeters: item(end - 1).end))
            first = end
        }
        return bounds
    }

    /// The piece whose span along the course holds `meters` (the first or last past the ends).
    func piece(at meters: Double) -> Int {
        var low = 0, high = pieces.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if pieces[middle].startMeters <= meters { low = middle } else { high = middle }
        }
        return low
    }

    /// The same, walking from piece `hint` (the last one matched) when it is near, as it is
    /// from one fix to the next, and by halves otherwise.
    func piece(at meters: Double, near hint: Int) -> Int {
        guard pieces.indices.contains(hint) else { return piece(at: meters) }
        var found = hint
        for _ in 0..<8 {
            if pieces[found].startMeters > meters, found > 0 {
                found -= 1
            } else if found + 1 < pieces.count, pieces[found + 1].startMeters <= meters {
                found += 1
            } else {
                return found
            }
        }
        return piece(at: meters)
    }

    /// From piece `index`, the nearest place of the course where the distance to the place
    /// stops shrinking, staying within `low...high` metres along it: the foot of the place on
    /// the stretch of course around that piece.
    static func descend(
        _ pieces: UnsafeBufferPointer<Piece>, latitude: Double, longitude: Double, from index: Int, low: Double, high: Double
    ) -> (piece: Int, meters: Double, squared: Double) {
        var best = index
        var found = pieces[index].project(latitude: latitude, longitude: longitude)
        var moved = false
        while best + 1 < pieces.count, pieces[best + 1].startMeters <= high {
            let next = pieces[best + 1].project(latitude: latitude, longitude: longitude)
            guard next.squared < found.squared else { break }
            (best, found, moved) = (best + 1, next, true)
        }
        while !moved, best > 0, pieces[best].startMeters >= low {
            let previous = pieces[best - 1].project(latitude: latitude, longitude: longitude)
            guard previous.squared < found.squared else { break }
            (best, found) = (best - 1, previous)
        }
        return (best, found.meters, found.squared)
    }

    /// How far a place is from a bound's circle at least (0 inside it).
    @inline(__always)
    static func gap(latitude: Double, longitude: Double, to bound: Bound) -> Double {
        let (east, north) = bound.frame.offset(latitude: latitude, longitude: longitude)
        return max(0, planarLength(east, north) - bound.radius)
    }

    /// The pieces within `radius` metres of a place, in order along the course from `from`
    /// metres to `through`, each handed to `visit` (piece, metres along, squared distance)
    /// until it returns true; groups and blocks whose circles lie farther away are skipped.
    func scan(
        latitude: Double, longitude: Double, from: Double, through: Double, radius: Double,
        visit: (Int, Double, Double) -> Bool
    ) {
        let squaredRadius = radius * radius
        let firstBlock = piece(at: from) / Self.fanout
        for group in groups[(firstBlock / Self.fanout)...] {
            if group.startMeters > through { return }
            guard group.endMeters >= from, Self.gap(latitude: latitude, longitude: longitude, to: group) <= radius else { continue }
            for block in blocks[max(group.first, firstBlock)..<group.end] {
                if block.startMeters > through { return }
                guard block.endMeters >= from, Self.gap(latitude: latitude, longitude: longitude, to: block) <= radius else { continue }
                for index in block.first..<block.end {
                    let start = pieces[index].startMeters
                    if start > through { return }
                    guard start + pieces[index].length * pieces[index].metersPerLength >= from else { continue }
                    let found = pieces[index].project(latitude: latitude, longitude: longitude)
                    if found.squared <= squaredRadius, visit(index, found.meters, found.squared) { return }
                }
            }
        }
    }
}
