extension DistanceTracker {
    /// Counts the distance up to an accepted fix, by the device's Doppler speed when this fix
    /// and the one before carry it, else along chords of the filtered positions.
    mutating func count(_ fix: GPSFix, elapsed: Double) {
        let current = filter.position
        if let doppler = fix.dopplerSpeed, let previous = previousDopplerSpeed {
            countByDoppler(doppler, previous: previous, elapsed: elapsed, at: current)
        } else {
            countByPosition(at: current, deviceSpeed: fix.dopplerSpeed)
        }
        previousDopplerSpeed = fix.dopplerSpeed
        previousFiltered = current
    }

    /// Doppler odometry: the speed integrated over time (trapezoids between fixes).
    ///
    /// Speed does not cut the bends between sparse fixes, as chords do, and GPS position
    /// wander does not reach it. A stop begins when two speeds in a row are below
    /// `stillSpeed`, and ends when two in a row are above `movingSpeed` (then the metres
    /// since the first of them count) or when the position leaves `stillRadius`.
    private mutating func countByDoppler(_ doppler: Double, previous: Double, elapsed: Double, at current: PlanePoint) {
        let run = (unbiased(doppler) + unbiased(previous)) / 2 * elapsed
        if isStill {
            let away = stillAnchor.distance(to: current)
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
                committed += pendingMeters
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
        } else {
            committed += run
        }
        lastCounted = current
        speed = isStill ? 0 : doppler
    }

    /// The speed without the bias that noise gives a speed: a speed is the length of a noisy
    /// velocity, and noise across the direction of travel only ever lengthens it, by about
    /// σ²/2v. √(s² − σ²) removes that to second order (σ is `dopplerNoise`).
    @inline(__always)
    private func unbiased(_ speed: Double) -> Double {
        let variance = configuration.dopplerNoise * configuration.dopplerNoise
        return speed > configuration.dopplerNoise ? (speed * speed - variance).squareRoot() : 0
    }

    /// Geometric counting, when the device reports no speed: standing still by the filtered
    /// speed and the still circle, moving along chords.
    private mutating func countByPosition(at current: PlanePoint, deviceSpeed: Double?) {
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
                lastCounted = current
            }
        } else if judged < configuration.stillSpeed {
            isStill = true
            committed += lastCounted.distance(to: current)
            stillAnchor = current
            lastCounted = current
        } else {
            countChord(to: current, speed: filtered)
        }
        speed = isStill ? 0 : filtered
    }

    /// Counts distance along chords between filtered positions rather than fix by fix.
    ///
    /// GPS error wanders over tens of seconds; summed over short steps its sideways part adds
    /// length that was never run (about σ²/2v² of it). Over a chord of `chordSeconds` at the
    /// current speed (15 to 25 m) most of that sideways wander cancels. A turn sharper than
    /// `maximumTurn` ends the chord at the previous position, so corners are not cut.
    private mutating func countChord(to current: PlanePoint, speed: Double) {
        let chordEast = current.east - lastCounted.east, chordNorth = current.north - lastCounted.north
        let chord = planarLength(chordEast, chordNorth)
        let length = min(max(speed * configuration.chordSeconds, configuration.shortestChord), configuration.longestChord)
        if chord >= length {
            committed += chord
            lastCounted = current
            return
        }
        guard chord > 5 else { return }
        let dot = chordEast * filter.velocityEast + chordNorth * filter.velocityNorth
        if dot < cosineOfMaximumTurn * chord * speed {
            committed += lastCounted.distance(to: previousFiltered)
            lastCounted = previousFiltered
        }
    }
}

extension DistanceTracker {
    /// The filter's acceleration noise at the current speed (see `fullAccelerationSpeed`).
    var accelerationNoise: Double {
        // (speed / fullAccelerationSpeed)², without the square root.
        let full = configuration.fullAccelerationSpeed
        let share = (filter.velocityEast * filter.velocityEast + filter.velocityNorth * filter.velocityNorth) / (full * full)
        return configuration.accelerationNoise * min(1, max(0.1, share))
    }
}
