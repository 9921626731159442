extension DistanceTracker {
    /// Counts the distance up to an accepted fix, by the device's Doppler speed when this fix
    /// and the one before carry it, else along chords of the filtered positions.
    mutating func count(_ fix: GPSFix, elapsed: Double) {
        let current = filter.position
        if let doppler = fix.dopplerSpeed, let previous = previousDopplerSpeed {
            countByDoppler(doppler, previous: previous, elapsed: elapsed, at: current)
        } else {
            countByPosition(at: current, deviceSpeed: fix.dopplerSpeed, elapsed: elapsed)
        }
        previousDopplerSpeed = fix.dopplerSpeed
        previousFiltered = current
    }

    /// Doppler odometry: the speed integrated over time (trapezoids between fixes).
    ///
    /// Speed does not cut the bends between sparse fixes, as chords do, and GPS position
    /// wander does not reach it. A stop begins when two speeds in a row are below
    /// `stillSpeed`, and ends when two in a row are above `movingSpeed` (then the metres
    /// since the first of them count, or since the stop began when it lasted no more than
    /// `briefStopSeconds`) or when the position leaves `stillRadius`.
    private mutating func countByDoppler(_ doppler: Double, previous: Double, elapsed: Double, at current: PlanePoint) {
        if !isStill, doppler > configuration.stillSpeed, previous > configuration.stillSpeed {
            learnDopplerNoise(doppler - previous, seconds: elapsed)
        }
        let run = (unbiased(doppler) + unbiased(previous)) / 2 * elapsed
        if isStill {
            let away = stillAnchor.distance(to: current)
            stillMeters += run
            if doppler > configuration.movingSpeed {
                movingEvidence += 1
                pendingMeters += run
            } else {
                movingEvidence = 0
                pendingMeters = 0
            }
            if movingEvidence >= 2 {
                // Speeds say the runner set off at the first of them.
                isStill = false
                // A stop this brief was the noise of a slow walker's speeds dipping below
                // `stillSpeed`: all the speeds since it began count. After a longer one, only
                // those since the runner set off.
                committed += lastAcceptedTime - stillSince <= configuration.briefStopSeconds ? stillMeters : pendingMeters
            } else if away > configuration.stillRadius {
                // Speeds say standing, positions say gone: a device whose speed is stuck.
                isStill = false
                committed += away
            }
            if !isStill {
                movingEvidence = 0
                pendingMeters = 0
            }
        } else if doppler < configuration.stillSpeed && previous < configuration.stillSpeed {
            isStill = true
            stillAnchor = current
            stillSince = lastAcceptedTime
            stillMeters = run
        } else {
            committed += run
        }
        countFrom(current, at: lastAcceptedTime)
        speed = isStill ? 0 : doppler
    }

    /// The speed without the bias that noise gives a speed: a speed is the length of a noisy
    /// velocity, and noise across the direction of travel only ever lengthens it, by about
    /// σ²/2v. √(s² − σ²) removes that to second order (σ is `dopplerNoise`).
    @inline(__always)
    private func unbiased(_ speed: Double) -> Double {
        let variance = dopplerVariance
        return speed * speed > variance ? (speed * speed - variance).squareRoot() : 0
    }

    /// The Doppler speed's noise variance: what successive speeds say, never more than
    /// `largestDopplerNoise`², and while fixes come less than `independentSpeedSeconds` apart
    /// never less than `dopplerNoise`².
    ///
    /// Half the squared difference of two speeds is σ² when their errors are independent (a
    /// fix every 5 s or more) and less when they are correlated (a second apart), so the
    /// estimate does not overshoot on noise alone; winsorising at 9 times the estimate keeps
    /// a walk break or a sprint from inflating it. The mean is exponential over about 20
    /// fixes. With `dopplerNoise` alone, a noisy device's speeds at a slow walk with sparse
    /// fixes are counted long: the bias taken out is too small for them.
    ///
    /// The floor is for close fixes, whose shared error hides part of the noise. Sparser speeds
    /// show all of it, and there the floor would only take too much off a good device's, and count
    /// its slow walks short (the figures: docs/tracker.md, "The rules in the sources").
    @inline(__always)
    private mutating func learnDopplerNoise(_ difference: Double, seconds: Double) {
        let half = difference * difference / 2
        let measured = measuredDopplerVariance
        measuredDopplerVariance += 0.05 * (min(half, 9 * max(measured, 0.0025)) - measured)
        let largest = configuration.largestDopplerNoise * configuration.largestDopplerNoise
        let floor = seconds < Self.independentSpeedSeconds ? configuration.dopplerNoise * configuration.dopplerNoise : 0
        dopplerVariance = min(max(measuredDopplerVariance, floor), max(largest, floor))
    }

    /// How far apart two Doppler speeds are when their errors are as good as independent, so that
    /// what they differ by shows all of the noise. 5 s: a phone's speed error lasts a few seconds
    /// (the corpus's, 3 s: successive speeds 5 s apart share a fifth of it). `dopplerNoise` is the
    /// floor only for closer ones; a floor at every spacing puts fewer of the slow phone walkers'
    /// messages on time (docs/tracker.md, "The rules in the sources").
    static let independentSpeedSeconds = 5.0

    /// Geometric counting, when the device reports no speed: standing still by the filtered
    /// speed and the still circle, moving along chords.
    private mutating func countByPosition(at current: PlanePoint, deviceSpeed: Double?, elapsed: Double) {
        let filtered = filter.speed
        // A device's Doppler speed is far better than one derived from positions.
        let judged = deviceSpeed ?? filtered
        if isStill {
            let away = stillAnchor.distance(to: current)
            // Filtered speed alone would end a stop whenever the slow GPS wander speeds up;
            // only leaving the circle, or a device's Doppler speed, ends it.
            if (deviceSpeed ?? 0) > configuration.movingSpeed || away > configuration.stillRadius {
                isStill = false
                committed += away
                countFrom(current, at: lastAcceptedTime)
            }
        } else if judged < configuration.stillSpeed {
            // Slow: a stop once the fixes have settled (see `hasSettled`). Until then it may
            // be a walker's speed dipping, or a runner stopping while the filtered position
            // still runs on and wanders: the chord stays open, and counts (as the open chord
            // does, at once) only what it spans when the stop begins or the speed is back.
            if deviceSpeed != nil || hasSettled(current) {
                isStill = true
                committed += lastCounted.distance(to: current)
                stillAnchor = current
                countFrom(current, at: lastAcceptedTime)
            }
        } else {
            countChord(to: current, speed: filtered, elapsed: elapsed)
        }
        speed = isStill ? 0 : filtered
    }

    /// Distance counts on from `point`, reached at `time`, with no chord before it for
    /// `bendOverChord` to bend: every place that moves `lastCounted` goes through here.
    @inline(__always)
    mutating func countFrom(_ point: PlanePoint, at time: Double) {
        lastCounted = point
        lastCountedTime = time
        lastStepChord = .origin
    }

    /// Counts distance along chords between filtered positions rather than fix by fix.
    ///
    /// GPS error wanders over tens of seconds; summed over short steps its sideways part adds
    /// length that was never run (about σ²/2v² of it). Over a chord of `chordSeconds` at the
    /// current speed (15 to 25 m) most of that sideways wander cancels. A turn sharper than
    /// `maximumTurn` ends the chord at the previous position, so corners are not cut.
    ///
    /// A chord ends at the fix nearest its length: within half a step of it, the next step would
    /// overshoot it by more than this one falls short. With steps as long as the chord (5 m/s, a
    /// fix every 5 s) a step a little short of it would wait for the next, and the chord across two
    /// steps would cut the bend between them, counting a clean city track short even of its
    /// point-to-point sum (docs/tracker.md, "The rules in the sources"). Steps under a fifth of the
    /// chord (dense fixes) leave it as it was: there the nearest fix is within a metre or two.
    private mutating func countChord(to current: PlanePoint, speed: Double, elapsed: Double) {
        // In squares, without the chord's square root: it ran at every fix, and the chord is
        // measured only when it is counted.
        let chordEast = current.east - lastCounted.east, chordNorth = current.north - lastCounted.north
        let squared = chordEast * chordEast + chordNorth * chordNorth
        var length = min(max(speed * configuration.chordSeconds, configuration.shortestChord), configuration.longestChord)
        let step = speed * elapsed
        if step >= 0.2 * length { length = max(length - 0.5 * step, 0.5 * length) }
        if squared >= length * length {
            let chord = PlanePoint(east: chordEast, north: chordNorth)
            let seconds = lastAcceptedTime - lastCountedTime
            // Spanning one step between fixes: the filter had no fix on the bend in between.
            let oneStep = seconds <= elapsed
            committed += unwandered(squared: squared, seconds: seconds) * (oneStep ? bendOverChord(chord, squared: squared) : 1)
            countFrom(current, at: lastAcceptedTime)
            if oneStep { lastStepChord = chord }
            return
        }
        // A turn is judged once the chord is 2 m long: from 5 m, a 4 m hairpin is already
        // half turned before its first cut, and its corners are lost (a clean switchback
        // trail at a walk counted short; docs/tracker.md).
        guard squared > 4 else { return }
        // The angle between the chord and the heading is wider than `maximumTurn` when
        // dot < cos(maximumTurn) × chord × speed; squared, for a positive dot.
        let dot = chordEast * filter.velocityEast + chordNorth * filter.velocityNorth
        let bound = cosineOfMaximumTurn * cosineOfMaximumTurn * squared * speed * speed
        if dot < 0 || dot * dot < bound {
            let cutEast = previousFiltered.east - lastCounted.east, cutNorth = previousFiltered.north - lastCounted.north
            let cut = (cutEast * cutEast + cutNorth * cutNorth).squareRoot()
            committed += cut * arcOverChord(east: cutEast, north: cutNorth, length: cut, speed: speed)
            countFrom(previousFiltered, at: lastAcceptedTime - elapsed)
        }
    }
}

extension DistanceTracker {
    /// The filter's acceleration noise at the current speed (see `fullAccelerationSpeed`).
    var accelerationNoise: Double {
        // (speed / fullAccelerationSpeed)², without the square root or a division.
        let share = (filter.velocityEast * filter.velocityEast + filter.velocityNorth * filter.velocityNorth)
            * inverseSquaredFullAccelerationSpeed
        return configuration.accelerationNoise * min(1, max(0.1, share))
    }
}

extension DistanceTracker {
    /// How long the mean of the fixes in `hasSettled` looks back. 15 s: shorter, a slow walker
    /// whose fixes wander is still often taken for standing; longer, a runner stopping at a traffic
    /// light is found standing late, and the wander counted meanwhile puts every later message
    /// further off (docs/tracker.md, "The rules in the sources").
    static let settlingSeconds = 15.0
    static let inverseSettlingSeconds = 1 / settlingSeconds
    /// The fixes' mean trails a runner at speed v by v × `settlingSeconds`; within `settledSpeed` ×
    /// `settlingSeconds` (6.75 m) of it, the runner has settled. 0.45 m/s, just under `stillSpeed`:
    /// at `stillSpeed` itself a slow walker whose fixes wander is still stopped now and then, and a
    /// marker can fall in a jump out of the still circle; lower, a traffic-light stop is found so
    /// late that the wander counted meanwhile puts the rest of the run ahead (docs/tracker.md, "The
    /// rules in the sources").
    static let settledSpeed = 0.45

    /// Whether the filtered position is within `settledSpeed × settlingSeconds` (6.75 m) of
    /// the fixes' mean over about the last `settlingSeconds`: a stop by filtered speed alone
    /// also needs this.
    ///
    /// A walker at 0.8 m/s whose fixes wander (σ 3 m, over 30 s) has a filtered speed that
    /// falls below `stillSpeed` for tens of seconds at a time; each time was a stop, and the
    /// distance stood still until the walker had left the still circle, then jumped 25 m. The
    /// mean of the last fixes trails a walker by 12 m, and comes within a few metres of a
    /// runner who has stopped, 10 to 20 s after the stop. The mean is exponential, updated at
    /// every accepted fix without a division.
    @inline(__always)
    func hasSettled(_ current: PlanePoint) -> Bool {
        let east = current.east - settled.east, north = current.north - settled.north
        let reach = Self.settledSpeed * Self.settlingSeconds
        return east * east + north * north < reach * reach
    }

    /// How much longer the bend a chord ended by a turn ran along is than the chord: the arc
    /// of a circle over the chord, whose tangent at the chord's end is the heading.
    ///
    /// On a steady bend the chord points along the mean heading over it, so the turn test ends it
    /// only once the heading has turned twice `maximumTurn` since it began: each such chord spans
    /// 60° of the bend and is 4.5% shorter than it. A switchback's hairpins are all bend, and
    /// without this a clean switchback trail at a walk is counted short (docs/tracker.md, "The
    /// rules in the sources"). An arc whose tangent at its end is α off its chord is α / sin α
    /// times the chord; α is taken no wider than `maximumTurn`, as the turn test let the chord
    /// through at the fix before (a wider angle, with the heading one fix later, is mostly that
    /// fix's own turn or noise). Chords that run their full length are left alone: on them the
    /// filter's own swing outwards on bends already outweighs what they cut.
    @inline(__always)
    private func arcOverChord(east: Double, north: Double, length: Double, speed: Double) -> Double {
        guard length > 0, speed > 0 else { return 1 }
        let cosine = max((east * filter.velocityEast + north * filter.velocityNorth) / (length * speed), cosineOfMaximumTurn)
        // α / sin α as a series in sin²α, to within 0.01% up to 30°.
        let sine = 1 - cosine * cosine
        return 1 + sine * (1.0 / 6 + sine * (3.0 / 40 + sine * (5.0 / 112)))
    }

    /// How much longer the way between two fixes is than the chord between them, when a
    /// chord spans just that one step (fixes sparser than a chord, `chordSeconds`): the arc
    /// of the circle through the chord before and this one.
    ///
    /// With a fix every 10 or 15 s a chord runs from fix to fix, and cuts the bend between them;
    /// with denser fixes the filter's swing outwards on bends makes up for it (see `arcOverChord`),
    /// but between two sparse fixes it has nothing to swing on: on a city track with a fix every 10
    /// s the point-to-point sum is short of the true path, and without this so is the tracker
    /// (docs/tracker.md, "The rules in the sources"). Two chords φ apart lie on a circle whose arc
    /// over the second is (φ/2) / sin(φ/2) times it. Only bends are taken as arcs: φ counts up to
    /// `maximumTurn`, as a sharper turn is a corner, whose way a circle does not tell, or a wrong
    /// fix. Noise barely reaches it: a few metres across a 50 m chord turn it by 0.1 rad, 0.04% of
    /// its length.
    @inline(__always)
    private func bendOverChord(_ chord: PlanePoint, squared: Double) -> Double {
        let before = lastStepChord.east * lastStepChord.east + lastStepChord.north * lastStepChord.north
        guard before > 0 else { return 1 }
        let cosine = (chord.east * lastStepChord.east + chord.north * lastStepChord.north) / (before * squared).squareRoot()
        // sin²(φ/2) = (1 − cos φ) / 2, and (φ/2) / sin(φ/2) as a series in it.
        let sine = min(1 - cosine, 1 - cosineOfMaximumTurn) / 2
        return 1 + sine * (1.0 / 6 + sine * (3.0 / 40))
    }
}
