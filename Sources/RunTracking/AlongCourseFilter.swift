/// A Kalman filter with a constant-velocity model along a course: the runner's metres along it
/// and speed, from where each fix projects onto the course and, when the device reports one,
/// its Doppler speed.
///
/// On the course the runner moves in one dimension, so bends cost nothing: the filter smooths
/// the fixes' error along the course without cutting a corner.
struct AlongCourseFilter: Sendable, Equatable {
    var meters = 0.0
    var speed = 0.0
    /// Covariance of (metres, speed).
    var metersVariance = 0.0, covariance = 0.0, speedVariance = 25.0

    /// Starts over at `meters`, with the speed known to within σ `speedNoise` (m/s).
    mutating func restart(at meters: Double, speed: Double, metersNoise: Double, speedNoise: Double) {
        self.meters = meters
        self.speed = speed
        metersVariance = metersNoise * metersNoise
        covariance = 0
        speedVariance = speedNoise * speedNoise
    }

    /// The state `dt` seconds on under white acceleration noise of density `q`, without
    /// changing the filter: what a fix is matched against before it is known to be on course.
    @inline(__always)
    func predicted(by dt: Double, accelerationNoise q: Double) -> AlongCourseFilter {
        var next = self
        let dt2 = dt * dt
        next.meters += speed * dt
        next.metersVariance += 2 * dt * covariance + dt2 * speedVariance + q * dt2 * dt * (1.0 / 3)
        next.covariance += dt * speedVariance + q * dt2 / 2
        next.speedVariance += q * dt
        return next
    }

    /// Folds in a measured place along the course, with variance `variance` (m²).
    @inline(__always)
    mutating func correct(meters measured: Double, variance: Double) {
        let inverse = 1 / (metersVariance + variance)
        let metersGain = metersVariance * inverse, speedGain = covariance * inverse
        let innovation = measured - meters
        meters += metersGain * innovation
        // Along the course no one runs backwards: fixes that fall back (the GPS error, or the
        // way out of an out-and-back matched as the runner turns) slow the runner, no more.
        speed = max(speed + speedGain * innovation, 0)
        let oldCovariance = covariance
        speedVariance -= speedGain * oldCovariance
        covariance -= metersGain * oldCovariance
        metersVariance -= metersGain * metersVariance
    }

    /// Folds in a measured speed (the device's Doppler speed), with variance `variance`.
    @inline(__always)
    mutating func correct(speed measured: Double, variance: Double) {
        let inverse = 1 / (speedVariance + variance)
        let metersGain = covariance * inverse, speedGain = speedVariance * inverse
        let innovation = measured - speed
        meters += metersGain * innovation
        speed += speedGain * innovation
        let oldCovariance = covariance
        metersVariance -= metersGain * oldCovariance
        covariance -= speedGain * oldCovariance
        speedVariance -= speedGain * speedVariance
    }

    /// Standing still: the place stays, the speed is 0, and when the runner sets off again
    /// the speed is to be learnt anew (σ `speedNoise`).
    mutating func hold(speedNoise: Double) {
        speed = 0
        covariance = 0
        speedVariance = speedNoise * speedNoise
    }
}

#if !hasFeature(Embedded)
extension AlongCourseFilter: Codable {}
#endif
