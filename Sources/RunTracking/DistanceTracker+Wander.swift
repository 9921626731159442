extension DistanceTracker {
    /// Learns how fast the fixes' error wanders, from how far each fix lands from the straight
    /// line through the two before it.
    ///
    /// GPS error wanders like a random walk over the seconds between fixes: its spread grows
    /// by about `wanderRate` m² per axis each second (2σ²/τ for an error of σ metres that
    /// lasts τ seconds). Such an error puts a fix off the line through the two before by
    /// `wanderRate × h₂ × (1 + h₂/h₁)` m² per axis, on average, where a runner holding speed
    /// and heading puts it on the line. Clean fixes, or a device that smooths its own, teach
    /// a rate near 0; σ 5 m wandering over 30 s, about 1.7 m²/s.
    ///
    /// Corners also put a fix off the line, more the sparser the fixes. Each sample is winsorised
    /// at twice the rate so far (at least 0.05 m²/s), so a corner barely moves it while wander, at
    /// every fix, does. Samples of wander alone are spread exponentially, so the winsorised mean is
    /// 86% of the rate. Winsorised at 3 or 9 times instead, corners at sparse fixes and a
    /// switchback's hairpins teach a rate that cuts part of their length (docs/tracker.md, "The
    /// rules in the sources"). The mean is exponential over about 20 fixes (learnt at every other
    /// fix, with the rate from every other fix learnt at the fixes between).
    @inline(__always)
    mutating func learnWander(step: PlanePoint, seconds: Double) {
        // One division per fix: at one fix the rate from the last three fixes, at the next
        // the rate from every other fix (see `randomWanderRate`), each with twice the weight.
        let h1 = lastStepSeconds, h2 = seconds
        let offEast = step.east * h1 - lastStep.east * h2, offNorth = step.north * h1 - lastStep.north * h2
        lastStep = step
        lastStepSeconds = seconds
        learnsAtDouble.toggle()
        if learnsAtDouble {
            // The two steps since the fix two back (this fix is `lastAccepted` + `step`),
            // against the two before.
            let pairEast = lastAccepted.east + step.east - pairStart.east
            let pairNorth = lastAccepted.north + step.north - pairStart.north
            let h3 = previousPairSeconds, h4 = lastAcceptedTime + seconds - pairStartTime
            let doubleEast = pairEast * h3 - previousPairStep.east * h4
            let doubleNorth = pairNorth * h3 - previousPairStep.north * h4
            previousPairStep = PlanePoint(east: pairEast, north: pairNorth)
            previousPairSeconds = h4
            pairStart = PlanePoint(east: lastAccepted.east + step.east, north: lastAccepted.north + step.north)
            pairStartTime = lastAcceptedTime + seconds
            let denominator = h3 * h4 * (h3 + h4)
            guard denominator > 0 else { return }
            let sample = min((doubleEast * doubleEast + doubleNorth * doubleNorth) * 0.5 / denominator, 2 * max(wanderRateAtDouble, 0.05))
            wanderRateAtDouble += 0.1 * (sample - wanderRateAtDouble)
            steadySamples += 1
            if steadySamples > Self.unsteadySamples {
                steadyOffsetAtDouble += steadyWeight(seconds: h4) * (sample * 0.5 * (h3 + h4) - steadyOffsetAtDouble)
            }
            unwanderingRate = Self.wanderShare * randomWanderRate
        } else {
            // The offset times h₁, so that one division does: |off|² / (2 h₂ (1 + h₂/h₁)) is
            // |h₁ off|² / (2 h₁ h₂ (h₁ + h₂)). 0 seconds (after a restart) teaches nothing.
            let denominator = h1 * h2 * (h1 + h2)
            guard denominator > 0 else { return }
            let sample = min((offEast * offEast + offNorth * offNorth) * 0.5 / denominator, 2 * max(wanderRate, 0.05))
            wanderRate += 0.1 * (sample - wanderRate)
            if steadySamples > Self.unsteadySamples {
                steadyOffset += steadyWeight(seconds: h2) * (sample * 0.5 * (h1 + h2) - steadyOffset)
            }
        }
    }

    /// The part of the learnt rate that is the fixes' error wandering, not the runner's own bends
    /// nor each fix's own white error: a random walk puts a fix off the line through the two before
    /// by the same rate whatever the spacing, a smooth bend by twice the rate at twice the spacing,
    /// and white error by half the rate (it does not grow with the seconds between fixes; see
    /// `whiteOffset`). With the white part taken out of both, the rate learnt from every other fix,
    /// r₂ = W + 2B, against the rate from every fix, r₁ = W + B, gives W = 2r₁ − r₂. On
    /// Gauss–Markov error r₂/r₁ stays near 1; on real tracks without added noise it is well above:
    /// most of what they teach is bends (docs/tracker.md, "The rules in the sources").
    @inline(__always)
    var randomWanderRate: Double {
        // Each rate less its white share, as the slow means tell it: shares, not rates, so
        // that what winsorising takes off the rates does not matter.
        let white = whiteOffset
        let everyFix = white > 0 ? wanderRate * (1 - white / steadyOffset) : wanderRate
        let everyOther = white > 0 ? wanderRateAtDouble * max(0, 1 - white / steadyOffsetAtDouble) : wanderRateAtDouble
        return max(0, min(everyFix, 2 * everyFix - everyOther))
    }

    /// Each fix's own white error (a receiver's measurement noise, which the filter smooths
    /// away), as 3σ² m²: what it adds to a sample of the rate from every fix, times the
    /// seconds between fixes.
    ///
    /// White error of σ per axis puts a fix off the line through the two before by 6σ² m²
    /// per axis whatever the spacing, so it passes for a wander rate of 3σ²/h at a spacing of
    /// h seconds, and of half that from every other fix. Taken for wander, it would shorten
    /// every full chord by up to 4%: at 1 Hz, σ 1.5 m of white error reads as 6.75 m²/s, where
    /// σ 4 m wandering over 60 s is 0.53 m²/s. Over a few fixes it cannot be told from
    /// wander; over minutes it can: the samples times their seconds are 3σ² + W·h from every
    /// fix and 3σ² + 2W·h from every other, so 3σ² is twice the first less the second (bends
    /// only lower that, and it is never below 0). Both are means over about 10 minutes of
    /// fixes (see `steadyWeight`).
    @inline(__always)
    var whiteOffset: Double {
        guard steadySamples > Self.unsteadySamples else { return 0 }
        // Gauss–Markov wander alone gives 0, give or take the means' own scatter: a sample of
        // either rate scatters about as much as its mean is large, so a mean scatters by its
        // size times the square root of its newest sample's weight. Few samples (sparse fixes,
        // the start of a run) make that scatter large, and white error read from it would take
        // wander off a run that has none. So the estimate counts only above that scatter, and
        // above a tenth of the rate from every fix, what the scatter settles to.
        // (The tenth is asked first, and the scatter compared squared: this runs at every fix.)
        let offset = 2 * steadyOffset - steadyOffsetAtDouble
        guard offset > 0.1 * steadyOffset else { return 0 }
        let scatterSquared = 4 * steadyOffset * steadyOffset * steadyWeight(seconds: lastStepSeconds)
            + steadyOffsetAtDouble * steadyOffsetAtDouble * steadyWeight(seconds: previousPairSeconds)
        return offset * offset > scatterSquared ? (offset - 0.1 * steadyOffset) / 0.9 : 0
    }

    /// The weight of a new sample in the slow means of `whiteOffset`: an even mean until they span
    /// 10 minutes, then exponential over that long. They leave out the first `unsteadySamples`
    /// samples from every other fix (and the samples from every fix between), which each rate's
    /// winsorising cuts short while its own mean is still rising from 0: with them, white error
    /// reads as less than it is (docs/tracker.md, "The rules in the sources").
    @inline(__always)
    func steadyWeight(seconds: Double) -> Double {
        max(seconds * Self.inverseSteadySeconds, 1 / Double(steadySamples - Self.unsteadySamples))
    }

    /// About the samples a rate's mean (over about 20 fixes) takes to rise from 0.
    static let unsteadySamples = 20

    /// How long the means of `whiteOffset` look back: 10 minutes. A receiver's white error
    /// changes with the sky, over many minutes; the means must be long, as a white error is
    /// told from wander only by a small difference between two large rates.
    static let inverseSteadySeconds = 1.0 / 600

    /// A chord between filtered positions (its square in, its length out) without the
    /// length that wander adds to it.
    ///
    /// Across the chord, wander of spread s² per axis lengthens it by about s²/2c; along it, it
    /// adds nothing on average. `√(c² − s²)` takes the first out. This is what the chords alone
    /// cannot do at a walk: wander on a 400 m track at a walk with dense fixes still counts long
    /// with 15 m chords (docs/tracker.md, "The rules in the sources"), and longer chords cut the
    /// bends.
    ///
    /// The spread over the chord's seconds is `wanderShare` × `randomWanderRate` × seconds (kept in
    /// `unwanderingRate`): the random part only, since the whole learnt rate holds the runner's
    /// bends too, which are no error. A share of the whole rate cannot serve both: one large enough
    /// to take the wander out takes too much off real tracks, and one small enough for real tracks
    /// leaves the wander in (docs/tracker.md, "The rules in the sources"). It is never more than
    /// 2σ², the whole error of both ends (σ `assumedAccuracy`), and a chord is never shortened by
    /// more than a tenth. Only full chords are corrected: a chord ended by a turn is mostly a real
    /// bend, and correcting those would cut a switchback's hairpins.
    @inline(__always)
    func unwandered(squared chord: Double, seconds: Double) -> Double {
        let sigma = configuration.assumedAccuracy
        let spread = min(unwanderingRate * seconds, 2 * sigma * sigma)
        return max(chord - spread, 0.81 * chord).squareRoot()
    }
}

extension DistanceTracker {
    /// The share of the random wander rate a chord's spread takes. 1.25: the winsorised mean
    /// is 86% of the rate (1/0.86 = 1.16), and a little more leaves the tuning set the least
    /// error along the way while real tracks keep within the tests' bound of their
    /// point-to-point sum (docs/tracker.md, "Settings and their figures").
    static let wanderShare = 1.25
}
