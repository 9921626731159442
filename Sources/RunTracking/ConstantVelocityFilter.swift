/// A Kalman filter with a constant-velocity model in a plane, east and north independent.
///
/// Both axes share one 2×2 covariance: their models and the (isotropic) GPS noise are the
/// same, so their covariances are equal. That halves the arithmetic, which matters at the
/// millions of fixes per second the benchmarks ask for.
struct ConstantVelocityFilter: Sendable, Equatable {
    var east = 0.0, north = 0.0
    var velocityEast = 0.0, velocityNorth = 0.0
    /// Covariance of (position, velocity) per axis.
    var positionVariance = 25.0, covariance = 0.0, velocityVariance = 25.0

    var speed: Double { planarLength(velocityEast, velocityNorth) }

    var position: PlanePoint {
        get { PlanePoint(east: east, north: north) }
        set { (east, north) = (newValue.east, newValue.north) }
    }

    /// Starts over at a position with unknown velocity (up to a fast run, ±5 m/s).
    mutating func restart(at position: PlanePoint, noise: Double) {
        self.position = position
        velocityEast = 0
        velocityNorth = 0
        positionVariance = noise * noise
        covariance = 0
        velocityVariance = 25
    }

    /// Advances the state by `dt` seconds under white acceleration noise of density `q`.
    mutating func predict(by dt: Double, accelerationNoise q: Double) {
        east += velocityEast * dt
        north += velocityNorth * dt
        let dt2 = dt * dt
        // × (1/3), not / 3: a division by 3 is not exact, so the compiler keeps it a division.
        positionVariance += 2 * dt * covariance + dt2 * velocityVariance + q * dt2 * dt * (1.0 / 3)
        covariance += dt * velocityVariance + q * dt2 / 2
        velocityVariance += q * dt
    }

    /// Folds in a measured position with noise σ `noise` metres per axis.
    mutating func correct(east measuredEast: Double, north measuredNorth: Double, noise: Double) {
        // One division for both gains: it is the slowest step of the update.
        let inverseInnovationVariance = 1 / (positionVariance + noise * noise)
        let positionGain = positionVariance * inverseInnovationVariance
        let velocityGain = covariance * inverseInnovationVariance
        let innovationEast = measuredEast - east
        let innovationNorth = measuredNorth - north
        east += positionGain * innovationEast
        north += positionGain * innovationNorth
        velocityEast += velocityGain * innovationEast
        velocityNorth += velocityGain * innovationNorth
        let oldCovariance = covariance
        velocityVariance -= velocityGain * oldCovariance
        covariance -= positionGain * oldCovariance
        positionVariance -= positionGain * positionVariance
    }
}

#if !hasFeature(Embedded)
extension ConstantVelocityFilter: Codable {}
#endif
