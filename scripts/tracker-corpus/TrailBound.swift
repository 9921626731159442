import Foundation

/// BOUND=1: how well any estimator could place the trail runs' messages from the very fixes the
/// tracker sees. Two yardsticks that know more than the tracker can:
/// - an oracle smoother: a Rauch–Tung–Striebel smoother over the whole run (non-causal), given
///   each run's true noise model (σ, τ of the Gauss–Markov error and the white σ) and told
///   which fixes are the spikes; its state per axis is position, velocity (white acceleration
///   of spectral density q, q chosen per run in hindsight) and the Gauss–Markov error. Its
///   distance is the length of the smoothed path (and, as a second readout, its smoothed speed
///   integrated);
/// - the best simple smoothing in hindsight: the length of a centred moving average of the
///   fixes, or of every k-th fix, with the window chosen per run in hindsight (spikes
///   dropped for it too).
/// Each setting chosen in hindsight is the one that puts the most of the run's messages within
/// the bound (then the smallest worst miss), so the figures are upper bounds for each kind.
/// A message starts where an estimator's distance, read linearly between fixes, first reaches
/// its marker; its miss is the true distance then less the marker. The scheduler's own part is
/// left out, so these are pure distance misses.
enum TrailBound {
    /// Positions on a local plane (metres east and north of the first fix).
    struct Point {
        var east: Double
        var north: Double
        func distance(to other: Point) -> Double { ((east - other.east) * (east - other.east) + (north - other.north) * (north - other.north)).squareRoot() }
    }

    /// One estimator's distance at each kept fix, and what that makes of the messages.
    struct Outcome {
        var name: String
        var distances: [Double]
        var misses: [Double]
        var totalError: Double
        func within(_ bound: Double) -> Int { misses.filter { abs($0) <= bound }.count }
        var worst: Double { misses.map(abs).max() ?? 0 }
    }

    /// A run's fixes on the plane, without the spikes (more than 100 m off the true place, 12σ
    /// of the largest error drawn), with their times and the true places then.
    struct Fixes {
        var times: [Double]
        var measured: [Point]
        var truth: [Point]
        var spikes: Int
        var origin: (latitude: Double, longitude: Double)

        /// Lengths along `points` at each, as the truth is measured: WGS84 geodesics between
        /// the places (a flat plane's scale is off by a few metres over 8 km, which would show
        /// as misses).
        func length(_ points: [Point]) -> [Double] {
            let places = points.map { LocalMeters.offset(origin, east: $0.east, north: $0.north) }
            var sums = [0.0]
            for (before, place) in zip(places, places.dropFirst()) {
                sums.append(sums.last! + Geodesic.distance(
                    fromLatitude: before.latitude, longitude: before.longitude, toLatitude: place.latitude, longitude: place.longitude))
            }
            return sums
        }

        init(_ run: CorpusRun) {
            let origin = (latitude: run.fixes[0].latitude, longitude: run.fixes[0].longitude)
            self.origin = origin
            let east = LocalMeters.perDegreeLongitude(at: origin.latitude)
            func project(_ latitude: Double, _ longitude: Double) -> Point {
                Point(east: (longitude - origin.longitude) * east, north: (latitude - origin.latitude) * LocalMeters.perDegreeLatitude)
            }
            times = []
            measured = []
            truth = []
            spikes = 0
            for fix in run.fixes {
                let place = run.path.locate(run.motion.distance(at: fix.time))
                let real = project(place.latitude, place.longitude), seen = project(fix.latitude, fix.longitude)
                if seen.distance(to: real) > 100 {
                    spikes += 1
                    continue
                }
                times.append(fix.time)
                measured.append(seen)
                truth.append(real)
            }
        }
    }

    /// Each message's miss, for distances known at `times`: the markers every 500 m, and the
    /// finish (at the truth) when the distance reaches it before the run ends (else it plays
    /// when the run ends, not at a marker, and is left out, as in CorpusResult).
    static func misses(_ run: CorpusRun, times: [Double], distances: [Double]) -> [Double] {
        let markers = Array(stride(from: 500.0, to: run.truth - 50, by: 500))
        var misses: [Double] = []
        var index = 0
        for (number, marker) in (markers + [run.truth]).enumerated() {
            while index < distances.count && distances[index] < marker { index += 1 }
            guard index < distances.count else {
                // Never reached: a marker message would play only when the run ends.
                if number < markers.count { misses.append(run.trueDistance(at: times.last!) - marker) }
                continue
            }
            var time = times[index]
            if index > 0, distances[index] > distances[index - 1] {
                let share = (marker - distances[index - 1]) / (distances[index] - distances[index - 1])
                time = times[index - 1] + share * (times[index] - times[index - 1])
            }
            misses.append(run.trueDistance(at: time) - marker)
        }
        return misses
    }

    // MARK: The oracle smoother

    typealias Matrix = [Double]  // 3×3, row by row

    static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        var c = Matrix(repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { c[3 * i + j] += a[3 * i + k] * b[3 * k + j] } } }
        return c
    }
    static func transpose(_ a: Matrix) -> Matrix { [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]] }
    static func inverse(_ m: Matrix) -> Matrix {
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let determinant = m[0] * c00 + m[1] * c01 + m[2] * c02
        let adjugate: Matrix = [
            c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return adjugate.map { $0 / determinant }
    }
    static func apply(_ m: Matrix, _ x: [Double]) -> [Double] {
        (0..<3).map { i in m[3 * i] * x[0] + m[3 * i + 1] * x[1] + m[3 * i + 2] * x[2] }
    }

    /// One axis smoothed: the fix is position + Gauss–Markov error (σ, τ) + white error; the
    /// position moves with a velocity driven by white acceleration of density q. Returns the
    /// smoothed position and velocity at each fix. Linear in `measured`, so the smoother's
    /// output for the fixes is its output for the true places plus its output for the error.
    /// One axis's pass: the forward filter's states and predictions, the smoother's gains
    /// (they do not depend on the fixes) and the smoothed states.
    struct AxisPass {
        var filtered: [[Double]]
        var predicted: [[Double]]
        var gains: [Matrix]
        var smoothed: [[Double]]
        /// Each fix's innovation log-likelihood under this pass's model: what a tracker can
        /// score a candidate noise model by, from the fixes alone.
        var logLikelihoods: [Double] = []

        /// Positions `from`...`upTo` smoothed with the fixes up to `upTo` alone: what a
        /// fixed-lag smoother knows at that fix.
        func lagged(from first: Int, upTo last: Int) -> [Double] {
            var state = filtered[last], positions = [state[0]]
            for k in stride(from: last - 1, through: first, by: -1) {
                let step = apply(gains[k], (0..<3).map { state[$0] - predicted[k + 1][$0] })
                state = (0..<3).map { filtered[k][$0] + step[$0] }
                positions.append(state[0])
            }
            return positions.reversed()
        }
    }

    static func smooth(times: [Double], measured: [Double], sigma: Double, tau: Double, white: Double, q: Double) -> AxisPass {
        let count = times.count
        var filtered: [[Double]] = [], filteredCovariance: [Matrix] = []
        var predicted: [[Double]] = [[]], predictedCovariance: [Matrix] = [[]], transitions: [Matrix] = [[]]
        var x = [0.0, 0, 0]
        var p: Matrix = [1e8, 0, 0, 0, 100, 0, 0, 0, sigma * sigma]
        var logLikelihoods: [Double] = []
        let r = max(white * white, 0.01)
        for k in 0..<count {
            if k > 0 {
                let dt = times[k] - times[k - 1], rho = exp(-dt / tau)
                let f: Matrix = [1, dt, 0, 0, 1, 0, 0, 0, rho]
                let noise: Matrix = [q * dt * dt * dt / 3, q * dt * dt / 2, 0, q * dt * dt / 2, q * dt, 0, 0, 0, sigma * sigma * (1 - rho * rho)]
                x = apply(f, x)
                p = zip(multiply(multiply(f, p), transpose(f)), noise).map { $0 + $1 }
                predicted.append(x)
                predictedCovariance.append(p)
                transitions.append(f)
            }
            // The fix sees position + error: H = [1, 0, 1].
            let ph = [p[0] + p[2], p[3] + p[5], p[6] + p[8]]
            let s = ph[0] + ph[2] + r
            let gain = ph.map { $0 / s }
            let innovation = measured[k] - x[0] - x[2]
            // The first fix's prediction is uninformed (its variance is huge); it scores nothing.
            logLikelihoods.append(k == 0 ? 0 : -0.5 * (log(2 * .pi * s) + innovation * innovation / s))
            x = (0..<3).map { x[$0] + gain[$0] * innovation }
            let hp = [p[0] + p[6], p[1] + p[7], p[2] + p[8]]
            var updated = p
            for i in 0..<3 { for j in 0..<3 { updated[3 * i + j] -= gain[i] * hp[j] } }
            for i in 0..<3 {
                for j in 0..<3 {
                    let mirrored: Double = updated[3 * j + i]
                    p[3 * i + j] = (updated[3 * i + j] + mirrored) / 2
                }
            }
            filtered.append(x)
            filteredCovariance.append(p)
        }
        var smoothed = filtered, gains = [Matrix](repeating: [], count: count)
        for k in stride(from: count - 2, through: 0, by: -1) {
            gains[k] = multiply(multiply(filteredCovariance[k], transpose(transitions[k + 1])), inverse(predictedCovariance[k + 1]))
            let step = apply(gains[k], (0..<3).map { smoothed[k + 1][$0] - predicted[k + 1][$0] })
            smoothed[k] = (0..<3).map { filtered[k][$0] + step[$0] }
        }
        return AxisPass(filtered: filtered, predicted: predicted, gains: gains, smoothed: smoothed, logLikelihoods: logLikelihoods)
    }

    /// The distance a fixed-lag smoother would give at each fix (causal): places more than
    /// `lag` fixes back are final as smoothed then; the last `lag` are smoothed anew at each
    /// fix. Nothing is counted between two places both inside `stand`.
    static func fixedLag(_ fixes: Fixes, east: AxisPass, north: AxisPass, lag: Int, stand: ClosedRange<Double>) -> [Double] {
        let count = fixes.times.count
        func still(_ k: Int) -> Bool { stand.contains(fixes.times[k - 1]) && stand.contains(fixes.times[k]) }
        // Final places: each smoothed with the fixes up to `lag` after it.
        let final = (0..<count).map { j -> Point in
            let last = min(j + lag, count - 1)
            return Point(east: east.lagged(from: j, upTo: last)[0], north: north.lagged(from: j, upTo: last)[0])
        }
        var finalLength = [0.0]
        for k in 1..<count { finalLength.append(finalLength.last! + (still(k) ? 0 : fixes.length([final[k - 1], final[k]]).last!)) }
        return (0..<count).map { k in
            let first = max(0, k - lag)
            let tail = zip(east.lagged(from: first, upTo: k), north.lagged(from: first, upTo: k)).map { Point(east: $0, north: $1) }
            var length = finalLength[first]
            for i in 1..<max(1, tail.count) where !still(first + i) { length += tail[i - 1].distance(to: tail[i]) }
            return length
        }
    }

    /// The oracle's smoothed places (and speeds) for these measurements.
    /// The smoothed places and speeds, and the forward filter's places (what the same model
    /// knows at each fix from the fixes up to it: causal).
    static func oracle(_ fixes: Fixes, points: [Point], noise: CorpusVariant.Noise, q: Double) -> (places: [Point], speeds: [Double], filtered: [Point]) {
        let east = smooth(times: fixes.times, measured: points.map(\.east), sigma: noise.sigma, tau: noise.timeConstant, white: noise.white, q: q)
        let north = smooth(times: fixes.times, measured: points.map(\.north), sigma: noise.sigma, tau: noise.timeConstant, white: noise.white, q: q)
        return (zip(east.smoothed, north.smoothed).map { Point(east: $0[0], north: $1[0]) },
                zip(east.smoothed, north.smoothed).map { ($0[1] * $0[1] + $1[1] * $1[1]).squareRoot() },
                zip(east.filtered, north.filtered).map { Point(east: $0[0], north: $1[0]) })
    }

    // MARK: Simple smoothing

    static func movingAverage(_ points: [Point], window: Int) -> [Point] {
        let half = window / 2
        var sumEast = [0.0], sumNorth = [0.0]
        for point in points {
            sumEast.append(sumEast.last! + point.east)
            sumNorth.append(sumNorth.last! + point.north)
        }
        return points.indices.map { index in
            let low = max(0, index - half), high = min(points.count - 1, index + half), count = Double(high - low + 1)
            return Point(east: (sumEast[high + 1] - sumEast[low]) / count, north: (sumNorth[high + 1] - sumNorth[low]) / count)
        }
    }

    /// The length of the polyline through every `step`-th fix (and the last), read linearly in
    /// time at the fixes between.
    static func decimated(_ fixes: Fixes, _ points: [Point], step: Int) -> [Double] {
        let times = fixes.times
        var kept = Array(stride(from: 0, to: points.count, by: step))
        if kept.last != points.count - 1 { kept.append(points.count - 1) }
        let sums = fixes.length(kept.map { points[$0] })
        var distances: [Double] = []
        for segment in 0..<(kept.count - 1) {
            let a = kept[segment], b = kept[segment + 1]
            for index in a..<b {
                distances.append(sums[segment] + (sums[segment + 1] - sums[segment]) * (times[index] - times[a]) / (times[b] - times[a]))
            }
        }
        distances.append(sums.last!)
        return distances
    }

    /// Causal chords: a new chord starts at the first fix `seconds` or more after the last
    /// chord's start; the distance at each fix is the finished chords plus the straight line
    /// from the open chord's start.
    static func causalChords(_ fixes: Fixes, seconds: Double) -> [Double] {
        var anchor = 0, committed = 0.0, distances: [Double] = [0]
        let places = fixes.measured
        for index in places.indices.dropFirst() {
            let open = fixes.length([places[anchor], places[index]]).last!
            distances.append(committed + open)
            if fixes.times[index] - fixes.times[anchor] >= seconds {
                committed += open
                anchor = index
            }
        }
        return distances
    }

    static let oracleQs = [0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 3]

    /// The fixed-lag smoother's settings: q, the lag (seconds), the noise model it assumes (nil:
    /// the run's own), and whether it is told the stand.
    struct LagSetting {
        var q: Double
        var lag: Double
        var model: (sigma: Double, tau: Double, white: Double)?
        var standKnown = true

        var description: String {
            let assumed = model.map { String(format: "assumes σ %g τ %g white %g", $0.sigma, $0.tau, $0.white) } ?? "true model"
            return String(format: "q %g, lag %.0f s, %@%@", q, lag, assumed, standKnown ? "" : ", stand not told")
        }
    }
    static let fixedLagSettings: [LagSetting] = [0.1, 0.3, 1].flatMap { q in [10.0, 30, 60].map { LagSetting(q: q, lag: $0) } }
        + [LagSetting(q: 0.3, lag: 30, standKnown: false)]
        + [(3.0, 20.0), (5, 45), (5, 90), (8, 60)].map { LagSetting(q: 0.3, lag: 30, model: ($0.0, $0.1, 1.5)) }

    static let chordSeconds: [Double] = [10, 15, 20, 25, 30, 40]

    // MARK: The route known

    /// Not from positions alone: each fix put on the true path (the nearest point within 50 m
    /// back and 200 m on from the last fix's), its distance read along the path. What knowing
    /// the route's shape would give; the error left is the noise along the path.
    static func alongRoute(_ run: CorpusRun, _ fixes: Fixes) -> [Double] {
        let path = run.path
        let vertices = path.latitudes.indices.map {
            Point(east: (path.longitudes[$0] - fixes.origin.longitude) * LocalMeters.perDegreeLongitude(at: fixes.origin.latitude),
                  north: (path.latitudes[$0] - fixes.origin.latitude) * LocalMeters.perDegreeLatitude)
        }
        let start = run.motion.distance(at: fixes.times[0])
        var last = start, distances: [Double] = []
        for point in fixes.measured {
            var best = (off: Double.infinity, along: last)
            for index in vertices.indices.dropLast() where path.cumulative[index + 1] >= last - 50 && path.cumulative[index] <= last + 200 {
                let a = vertices[index], b = vertices[index + 1]
                let de = b.east - a.east, dn = b.north - a.north, span = de * de + dn * dn
                let share = span > 0 ? min(1, max(0, ((point.east - a.east) * de + (point.north - a.north) * dn) / span)) : 0
                let off = Point(east: a.east + share * de, north: a.north + share * dn).distance(to: point)
                if off < best.off { best = (off, path.cumulative[index] + share * (path.cumulative[index + 1] - path.cumulative[index])) }
            }
            last = best.along
            distances.append(last - start)
        }
        return distances
    }

    // MARK: One run

    struct Report {
        var run: CorpusRun
        var bound: Double
        var oracle: Outcome
        var oracleQ: Double
        /// The oracle's total error split: what smoothing the true places alone gives (corner
        /// cutting), and what its output for the error adds (noise inflation, the rest).
        var cornerCutting: Double
        var noiseInflation: Double
        /// Root-mean-square distance from the true places: the oracle's smoothed places, and
        /// the fixes themselves (spikes left out).
        var oracleRMS: Double
        var fixesRMS: Double
        var oracleSpeed: Outcome
        /// The oracle told the 5-minute stand too: its path's length with nothing counted
        /// between two places both inside the stand.
        var oracleStandKnown: Outcome
        /// The same model's forward filter alone (causal), told the stand too.
        var filterStandKnown: Outcome
        /// Both at each of `oracleQs`, one q for every run.
        var standKnownByQ: [Outcome]
        var filterByQ: [Outcome]
        /// A fixed-lag smoother (causal) told the stand, at each of `fixedLagSettings`.
        var fixedLag: [Outcome]
        /// The same smoother learning the noise model and finding the stand from the fixes
        /// (causal), at each of `learnedSettings`.
        var learned: [Outcome]
        var hindsight: Outcome
        /// The polyline through the true places at the kept fixes: what perfect fixes would
        /// give at this interval.
        var perfectFixes: Outcome
        var routeKnown: Outcome
        /// Causal chords of each of `chordSeconds`, one setting for every run.
        var chords: [Outcome]
    }

    static func report(_ run: CorpusRun) -> Report? {
        guard let noise = run.variant.noise else { return nil }
        let bound = run.variant.interval.longest == 1 ? 15.0 : 25.0
        let fixes = Fixes(run)
        let truthEnd = run.trueDistance(at: fixes.times.last!)
        func outcome(_ name: String, _ distances: [Double]) -> Outcome {
            Outcome(name: name, distances: distances, misses: misses(run, times: fixes.times, distances: distances),
                    totalError: distances.last! - truthEnd)
        }
        // In hindsight, the setting that puts the most messages within the bound, then the one
        // with the smallest worst miss: the most generous reading of each estimator.
        func better(_ a: Outcome, _ b: Outcome) -> Bool {
            if a.within(bound) != b.within(bound) { return a.within(bound) > b.within(bound) }
            return a.worst != b.worst ? a.worst < b.worst : abs(a.totalError) < abs(b.totalError)
        }
        // The oracle: q per run in hindsight (m²/s³).
        var standStart = 0.0, elapsed = 0.0
        for piece in run.motion.pieces {
            if piece.speed == 0 { standStart = elapsed }
            elapsed += piece.seconds
        }
        let stand = standStart...(standStart + 300)
        func withoutStand(_ places: [Point]) -> [Double] {
            var sums = [0.0]
            for k in 1..<places.count {
                let still = stand.contains(fixes.times[k - 1]) && stand.contains(fixes.times[k])
                sums.append(sums.last! + (still ? 0 : fixes.length([places[k - 1], places[k]]).last!))
            }
            return sums
        }
        var best: (outcome: Outcome, q: Double)?, bestSpeed: Outcome?, bestStandKnown: Outcome?, bestFilter: Outcome?
        var fixedQ: [Outcome] = [], fixedQFilter: [Outcome] = []
        for q in oracleQs {
            let (places, speeds, filtered) = oracle(fixes, points: fixes.measured, noise: noise, q: q)
            let found = outcome(String(format: "q %g", q), fixes.length(places))
            var integrated = [0.0]
            for k in 1..<speeds.count { integrated.append(integrated.last! + (speeds[k] + speeds[k - 1]) / 2 * (fixes.times[k] - fixes.times[k - 1])) }
            if best == nil || better(found, best!.outcome) { best = (found, q) }
            let speed = outcome(String(format: "q %g", q), integrated)
            if bestSpeed == nil || better(speed, bestSpeed!) { bestSpeed = speed }
            let standKnown = outcome(String(format: "q %g", q), withoutStand(places))
            if bestStandKnown == nil || better(standKnown, bestStandKnown!) { bestStandKnown = standKnown }
            let filter = outcome(String(format: "q %g", q), withoutStand(filtered))
            if bestFilter == nil || better(filter, bestFilter!) { bestFilter = filter }
            fixedQ.append(standKnown)
            fixedQFilter.append(filter)
        }
        // Fixed-lag smoothing (causal) told the stand, one setting for every run.
        var fixedLag: [Outcome] = []
        for setting in fixedLagSettings {
            let model = setting.model ?? (noise.sigma, noise.timeConstant, noise.white)
            let east = smooth(times: fixes.times, measured: fixes.measured.map(\.east), sigma: model.sigma, tau: model.tau, white: model.white, q: setting.q)
            let north = smooth(times: fixes.times, measured: fixes.measured.map(\.north), sigma: model.sigma, tau: model.tau, white: model.white, q: setting.q)
            let lag = Int((setting.lag / run.variant.interval.longest).rounded())
            let still = setting.standKnown ? stand : -2...(-1)
            fixedLag.append(outcome("fixed lag", Self.fixedLag(fixes, east: east, north: north, lag: lag, stand: still)))
        }
        let learned = Self.learned(fixes, interval: run.variant.interval.longest, settings: learnedSettings, truth: noise, stand: stand).map { outcome("learned", $0) }
        let smoothedTruth = oracle(fixes, points: fixes.truth, noise: noise, q: best!.q).places
        let cornerCutting = fixes.length(smoothedTruth).last! - truthEnd
        func rms(_ places: [Point]) -> Double {
            (zip(places, fixes.truth).reduce(0) { $0 + $1.0.distance(to: $1.1) * $1.0.distance(to: $1.1) } / Double(places.count)).squareRoot()
        }
        let oracleRMS = rms(oracle(fixes, points: fixes.measured, noise: noise, q: best!.q).places)
        // Simple smoothing: every odd window and every decimation step up to about 2τ of fixes.
        let interval = run.variant.interval.longest
        let widest = max(3, Int((2 * max(noise.timeConstant, 30) / interval).rounded()))
        var simple: Outcome?
        for window in stride(from: 1, through: widest | 1, by: 2) {
            let found = outcome("average of \(window)", fixes.length(movingAverage(fixes.measured, window: window)))
            if simple == nil || better(found, simple!) { simple = found }
        }
        for step in 2...widest {
            let found = outcome("every \(step) fixes", decimated(fixes, fixes.measured, step: step))
            if better(found, simple!) { simple = found }
        }
        return Report(
            run: run, bound: bound, oracle: best!.outcome, oracleQ: best!.q, cornerCutting: cornerCutting,
            noiseInflation: best!.outcome.totalError - cornerCutting,
            oracleRMS: oracleRMS, fixesRMS: rms(fixes.measured), oracleSpeed: bestSpeed!, oracleStandKnown: bestStandKnown!, filterStandKnown: bestFilter!, standKnownByQ: fixedQ, filterByQ: fixedQFilter, fixedLag: fixedLag, learned: learned, hindsight: simple!,
            perfectFixes: outcome("perfect fixes", fixes.length(fixes.truth)), routeKnown: outcome("route known", alongRoute(run, fixes)),
            chords: chordSeconds.map { outcome("chords", causalChords(fixes, seconds: $0)) })
    }
}
