extension CourseTracker {
    /// Where a fix lies on the course: metres along it, and the squared metres from the fix.
    struct Match: Sendable, Equatable {
        var meters: Double
        var squared: Double
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
    func match(_ fix: GPSFix, expected: Double, variance: Double, sigma: Double, reach: Double) -> Match {
        let index = course.index
        let pieces = index.pieces
        let low = max(filter.meters - configuration.searchBehind, 0)
        let high = max(filter.meters, expected) + reach + configuration.searchBehind
        let (lowest, highest) = (index.piece(at: low), index.piece(at: high))
        let latitude = fix.latitude, longitude = fix.longitude
        let acrossWeight = 1 / (2 * sigma * sigma), alongWeight = 1 / (2 * variance)
        let (headingEast, headingNorth, headingWeight) = heading()
        @inline(__always)
        func cost(_ piece: Int) -> Double {
            let found = index.project(latitude: latitude, longitude: longitude, onto: piece)
            let along = found.meters - expected
            let agreement = pieces[piece].directionEast * headingEast + pieces[piece].directionNorth * headingNorth
            return found.squared * acrossWeight + along * along * alongWeight + headingWeight * (1 - agreement)
        }
        let first = min(max(index.piece(at: expected), lowest), highest)
        var best = first, bestCost = cost(first)
        var piece = first + 1
        while piece <= highest {
            let ahead = pieces[piece].startMeters - expected
            if ahead > 0, ahead * ahead * alongWeight >= bestCost { break }
            let found = cost(piece)
            if found < bestCost { (best, bestCost) = (piece, found) }
            piece += 1
        }
        piece = first - 1
        while piece >= lowest {
            let behind = expected - pieces[piece + 1].startMeters
            if behind > 0, behind * behind * alongWeight >= bestCost { break }
            let found = cost(piece)
            if found < bestCost { (best, bestCost) = (piece, found) }
            piece -= 1
        }
        let foot = index.descend(latitude: latitude, longitude: longitude, from: best, lowest: lowest, highest: highest)
        return Match(meters: foot.meters, squared: foot.squared)
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
            if judgesHeading, pieces[piece].directionEast * headingEast + pieces[piece].directionNorth * headingNorth < 0 {
                return false
            }
            first = piece
            return true
        }
        guard let first else { return nil }
        let foot = index.descend(
            latitude: fix.latitude, longitude: fix.longitude, from: first,
            lowest: index.piece(at: start), highest: index.piece(at: through))
        return Match(meters: foot.meters, squared: foot.squared)
    }
}
