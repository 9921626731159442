import Foundation

// COURSE_BOUND=1: what the course runs' fixes allow a tracker that plays as the run goes. An
// oracle told what no tracker can know: which stretch of the course each fix belongs to (the
// nearest place within 60 m of where the runner truly was), which fixes are spikes, when the
// runner stands, when they are off the course, and the noise model that drew the fixes' error
// (its Gauss-Markov wander, σ and τ, and the white error on top). It follows the place along
// the course from those feet alone with a Kalman filter whose state holds the wander as well as
// the place and the speed, at several acceleration noises, and keeps for each set the one that
// does best in hindsight. What it still misses is the part of the fixes' error along the course
// that no causal filter can tell from the runner's own movement.

/// The oracle's message starts on one run: each start's true metres along the course less
/// its marker's, as `CourseResult.latenesses` measures them.
func oracleLatenesses(_ run: CorpusRun, accelerationNoise q: Double) -> [Double] {
    let layout = run.layout!
    let course = layout.course
    let noise = run.variant.noise!
    let variance = noise.sigma * noise.sigma + noise.white * noise.white
    let start = run.fixes.first!.time
    let startMeters = layout.courseMeters(atRunner: run.motion.distance(at: start))
    let markers = run.markers.compactMap { try? $0.resolvedMeters(plannedDistance: run.plannedDistance) }
    let skipped = layout.excursion.map { ($0.courseFrom - startMeters)...($0.courseTo - startMeters) }
    var stands: [ClosedRange<Double>] = [], elapsed = start
    for piece in run.motion.pieces {
        if piece.speed == 0 { stands.append(elapsed...(elapsed + piece.seconds)) }
        elapsed += piece.seconds
    }
    var filter = WanderFilter(noise: noise, accelerationNoise: q), last: Double?, reported = 0.0, next = 0, latenesses: [Double] = []
    /// Starts the markers up to `place` metres from the start, each at `time(marker)`.
    func play(through place: Double, at time: (Double) -> Double) {
        while next < markers.count, place >= markers[next] {
            if !(skipped?.contains(markers[next]) ?? false) {
                latenesses.append(run.trueCourseDistance(at: time(markers[next])) - markers[next])
            }
            next += 1
        }
    }
    for fix in run.fixes {
        let runner = run.motion.distance(at: fix.time)
        guard !layout.isOffCourse(atRunner: runner) else {
            last = nil
            continue
        }
        let truth = layout.courseMeters(atRunner: runner)
        guard let foot = course.foot(latitude: fix.latitude, longitude: fix.longitude, within: (truth - 60)...(truth + 60)),
              foot.off <= 5 * variance.squareRoot() else { continue }
        let standing = stands.contains { $0.contains(fix.time) }
        if let previous = last, !standing, filter.x[1] > 0.5 {
            // Between fixes the place goes on at the filter's speed, as the scheduler's does.
            let place = filter.x[0] - startMeters, speed = filter.x[1]
            play(through: place + speed * (fix.time - previous)) { previous + max($0 - place, 0) / speed }
        }
        if let previous = last {
            filter.predict(by: fix.time - previous, standing: standing)
            filter.correct(foot.along)
        } else {
            filter.restart(at: foot.along, speed: run.motion.speed(at: fix.time))
        }
        last = fix.time
        reported = max(reported, filter.x[0] - startMeters)
        play(through: reported) { _ in fix.time }
    }
    return latenesses
}

/// The oracle beside the course tracker, for each set's course runs without Doppler speeds
/// (the oracle reads positions alone): messages within the bound at 1 Hz and every 5 s.
func printCourseBound(_ sets: [(set: String, pairs: [CoursePair])]) throws {
    print("\n== Course runs from positions alone: the course tracker, and an oracle told each fix's stretch of course, the spikes,")
    print("   the stand, the excursion and the noise model, its acceleration noise q (m²/s³) chosen per set in hindsight")
    let qs = [0.03, 0.1, 0.3, 1.0, 3.0]
    for (name, pairs) in sets {
        for seconds in [1.0, 5.0] {
            let chosen = pairs.filter { $0.course.variant.interval.longest == seconds && $0.course.variant.device.speedSigma == nil }
            let bound = seconds == 1 ? 15.0 : 25.0
            let tracked = chosen.flatMap(\.course.latenesses)
            var best: (q: Double, within: Int, count: Int, worst: Double)?
            for q in qs {
                var latenesses: [Double] = []
                for pair in chosen {
                    latenesses += oracleLatenesses(try CorpusRun(pair.course.variant, samples: samples), accelerationNoise: q)
                }
                let within = latenesses.filter { abs($0) <= bound }.count
                if best == nil || within > best!.within { best = (q, within, latenesses.count, latenesses.farthestFromZero) }
            }
            print(String(format: "%@ every %.0f s, %d runs: the tracker %d of %d within %.0f m, worst %+.1f m; the oracle (q %g) %d of %d, worst %+.1f m",
                         name, seconds, chosen.count, tracked.filter { abs($0) <= bound }.count, tracked.count, bound, tracked.farthestFromZero,
                         best!.q, best!.within, best!.count, best!.worst))
        }
    }
}

/// A Kalman filter along the course with the state (place, speed, wander): the fix's foot is
/// the place plus the wander (Gauss-Markov, σ and τ as the corpus drew it) plus white error.
/// Standing, the place is known not to move.
struct WanderFilter {
    var x = [0.0, 0.0, 0.0]
    var p = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    let sigma: Double, tau: Double, white: Double, q: Double
    var wasStanding = false

    init(noise: CorpusVariant.Noise, accelerationNoise: Double) {
        sigma = noise.sigma
        tau = noise.timeConstant
        white = max(noise.white, 0.1)
        q = accelerationNoise
    }

    mutating func restart(at meters: Double, speed: Double) {
        x = [meters, speed, 0]
        p = [[white * white, 0, 0], [0, 1, 0], [0, 0, sigma * sigma]]
        // The first foot is the place plus the wander: the place is as unsure as the wander.
        p[0][0] += sigma * sigma
        p[0][2] = -sigma * sigma
        p[2][0] = -sigma * sigma
    }

    mutating func predict(by dt: Double, standing: Bool) {
        let decay = exp(-dt / tau)
        let f = [[1, dt, 0], [0, 1, 0], [0, 0, decay]]
        var next = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { for l in 0..<3 { next[i][j] += f[i][k] * p[k][l] * f[j][l] } } } }
        if !standing {
            next[0][0] += q * dt * dt * dt / 3
            next[0][1] += q * dt * dt / 2
            next[1][0] += q * dt * dt / 2
            next[1][1] += q * dt
        }
        next[2][2] += sigma * sigma * (1 - decay * decay)
        x = [x[0] + dt * x[1], x[1], decay * x[2]]
        p = next
        if standing {
            x[1] = 0
            for i in 0..<3 { p[1][i] = 0; p[i][1] = 0 }
        } else if wasStanding {
            // Setting off: at any speed from a walk to a sprint.
            p[1][1] = 9
        }
        wasStanding = standing
    }

    /// Folds in a foot on the course: place plus wander, with the white error's variance.
    mutating func correct(_ measured: Double) {
        let h = [1.0, 0, 1]
        let ph = (0..<3).map { i in p[i][0] + p[i][2] }
        let s = ph[0] + ph[2] + white * white
        let gain = ph.map { $0 / s }
        let innovation = measured - (x[0] + x[2])
        for i in 0..<3 { x[i] += gain[i] * innovation }
        var next = p
        for i in 0..<3 { for j in 0..<3 { next[i][j] -= gain[i] * (0..<3).reduce(0) { $0 + h[$1] * p[$1][j] } } }
        p = next
    }
}
