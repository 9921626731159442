extension CourseTracker {
    /// Where a fix lies on the course: metres along it, and the squared metres from the fix.
    struct Match: Sendable, Equatable {
        var meters: Double
        var squared: Double
        var piece: Int
    }

    /// The runner's heading as a unit vector east and north, and how much a stretch of course
    /// running against it counts (0 when the odometer's speed is too low to tell a heading).
    @inline(__always)
    func heading() -> (east: Double, north: Double, weight: Double) {
        let velocity = odometer.filter
        let speed = velocity.speed
        guard speed >= 0.5 else { return (0, 0, 0) }
        // Full weight from 2 m/s: below that, wander turns the filtered heading as often as
        // the runner does.
        let weight = configuration.headingWeight * min(1, speed * speed / 4)
        return (velocity.velocityEast / speed, velocity.velocityNorth / speed, weight)
    }

    /// The fix on the course near `expected` metres along it: among the stretches of course
    /// from `searchBehind` behind the current place to `reach` beyond it, the one whose foot
    /// is likeliest given the fix's error (σ `sigma`), the expected place (with `variance`)
    /// and the heading; then the fix's foot on that stretch.
    ///
    /// The walk out from the expected place stops in each direction once the distance along
    /// the course alone makes a piece less likely than the best found, so a dense course costs
    /// a few more pieces per fix, and a long one none.
    ///
    /// Inlined: called as a function from `follow`, which holds `self` for mutation, it was
    /// handed a copy of the whole tracker on every fix, as `DistanceTracker.update` once was.
    @inline(__always)
    func match(_ fix: GPSFix, expected: Double, variance: Double, sigma: Double, reach: Double) -> Match {
        let low = max(filter.meters - configuration.searchBehind, 0)
        let high = max(filter.meters, expected) + reach + configuration.searchBehind
        let latitude = fix.latitude, longitude = fix.longitude
        let acrossWeight = 1 / (2 * sigma * sigma), alongWeight = 1 / (2 * variance)
        let (headingEast, headingNorth, headingWeight) = heading()
        // Never expected behind where the runner has been put: the filter may fall back with
        // the fixes' error, the runner does not.
        let current = meters, expected = max(expected, meters)
        let first = course.index.piece(at: min(max(expected, low), high), near: pieceHint)
        // Through a buffer: the pieces are read a few dozen times a fix, without a bounds check
        // or a reference count each.
        return course.index.pieces.withUnsafeBufferPointer { pieces in
            @inline(__always)
            func cost(_ piece: Int) -> Double {
                let found = pieces[piece].project(latitude: latitude, longitude: longitude)
                let along = found.meters - expected
                let agreement = pieces[piece].agreement(east: headingEast, north: headingNorth)
                // Behind the current place only the fix's own error can put the runner: at
                // the turn of an out-and-back, where the way out and the way home are as near
                // and as far along the course either way, and the heading is still turning.
                let back = max(current - found.meters, 0)
                return (found.squared + back * back) * acrossWeight + along * along * alongWeight + headingWeight * (1 - agreement)
            }
            var best = first, bestCost = cost(first)
            var piece = first + 1
            while piece < pieces.count, pieces[piece].startMeters <= high {
                let ahead = pieces[piece].startMeters - expected
                if ahead > 0, ahead * ahead * alongWeight >= bestCost { break }
                let found = cost(piece)
                if found < bestCost { (best, bestCost) = (piece, found) }
                piece += 1
            }
            piece = first - 1
            while piece >= 0, pieces[piece + 1].startMeters >= low {
                let behind = expected - pieces[piece + 1].startMeters
                if behind > 0, behind * behind * alongWeight >= bestCost { break }
                let found = cost(piece)
                if found < bestCost { (best, bestCost) = (piece, found) }
                piece -= 1
            }
            let foot = CourseIndex.descend(pieces, latitude: latitude, longitude: longitude, from: best, low: low, high: high)
            return Match(meters: foot.meters, squared: foot.squared, piece: foot.piece)
        }
    }

    /// Off the course: the first place along it from `from` metres to `through` within
    /// `radius` of the fix and not running against the runner's heading, then the fix's foot
    /// on that stretch. Nil when the course is nowhere that near.
    func firstMatch(_ fix: GPSFix, from: Double, through: Double, within radius: Double) -> Match? {
        let index = course.index
        let pieces = index.pieces
        let (headingEast, headingNorth, headingWeight) = heading()
        // Sure of the heading: a stretch of course running the other way (the way home of an
        // out-and-back, the other road through a crossing) is not where the runner rejoins.
        let judgesHeading = headingWeight >= configuration.headingWeight / 2
        var first: Int?
        let start = max(from, 0)
        index.scan(latitude: fix.latitude, longitude: fix.longitude, from: start, through: through, radius: radius) { piece, _, _ in
            if judgesHeading, pieces[piece].agreement(east: headingEast, north: headingNorth) < 0 {
                return false
            }
            first = piece
            return true
        }
        guard let first else { return nil }
        let foot = index.pieces.withUnsafeBufferPointer { pieces in
            CourseIndex.descend(pieces, latitude: fix.latitude, longitude: fix.longitude, from: first, low: start, high: through)
        }
        return Match(meters: foot.meters, squared: foot.squared, piece: foot.piece)
    }
}
