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
    /// Corners also put a fix off the line, more the sparser the fixes. Each sample is
    /// winsorised at twice the rate so far (at least 0.05 m²/s), so a corner barely moves it
    /// while wander, at every fix, does. Samples of wander alone are spread exponentially, so
    /// the winsorised mean is 86% of the rate: with 9 times, or 3 times, corners at a fix
    /// every 10 s and the hairpins of a switchback at 2.5 m/s taught a rate that cut 2 to 3%
    /// of their length. The mean is exponential over about 20 fixes.
    @inline(__always)
    mutating func learnWander(step: PlanePoint, seconds: Double) {
        // The offset times h₁, so that one division does: |off|² / (2 h₂ (1 + h₂/h₁)) is
        // |h₁ off|² / (2 h₁ h₂ (h₁ + h₂)). 0 seconds (after a restart) teaches nothing.
        let h1 = lastStepSeconds, h2 = seconds
        let offEast = step.east * h1 - lastStep.east * h2, offNorth = step.north * h1 - lastStep.north * h2
        lastStep = step
        lastStepSeconds = seconds
        let scaled = (offEast * offEast + offNorth * offNorth) * 0.5
        let denominator = h1 * h2 * (h1 + h2)
        guard denominator > 0 else { return }
        let sample = scaled / denominator
        wanderRate += 0.05 * (min(sample, 2 * max(wanderRate, 0.05)) - wanderRate)
    }

    /// A chord between filtered positions (its square in, its length out) without the
    /// length that wander adds to it.
    ///
    /// Across the chord, wander of spread s² per axis lengthens it by about s²/2c; along it,
    /// it adds nothing on average. `√(c² − s²)` takes the first out. This is what the
    /// chords alone cannot do at a walk: σ 5 m of wander on a 400 m track at 1.2 m/s, every
    /// 2 s, counted 4.2% long with 15 m chords, and longer chords cut the bends.
    ///
    /// The spread over the chord's seconds is 0.85 × `wanderRate` × seconds: the filtered
    /// positions hold less of the wander than the raw fixes the rate is learnt from (the
    /// share was measured on the corpus; at 1.0 real tracks at a fix a second, whose jitter
    /// is partly white, lost 4.2% against their point-to-point sum). It is never more than
    /// 2σ², the whole error of both ends (σ `assumedAccuracy`), and a chord is never
    /// shortened by more than a tenth. Only full chords are corrected: a chord ended by a
    /// turn is mostly a real bend, and correcting those cut a switchback's hairpins.
    @inline(__always)
    func unwandered(squared chord: Double, seconds: Double) -> Double {
        let sigma = configuration.assumedAccuracy
        let spread = min(0.85 * wanderRate * seconds, 2 * sigma * sigma)
        return max(chord - spread, 0.81 * chord).squareRoot()
    }
}
