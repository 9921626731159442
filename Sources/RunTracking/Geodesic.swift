/// Distances on the WGS84 ellipsoid.
public enum Geodesic {
    /// WGS84 semi-major axis, metres.
    public static let equatorialRadius = 6_378_137.0
    /// WGS84 flattening.
    public static let flattening = 1 / 298.257223563
    static let polarRadius = equatorialRadius * (1 - flattening)
    static let eccentricitySquared = flattening * (2 - flattening)

    /// The geodesic distance in metres between two points (degrees), by Vincenty's inverse
    /// formula on WGS84: sub-millimetre at running scales. For nearly antipodal points, where
    /// Vincenty's iteration may not converge, it falls back to a great circle on the mean
    /// sphere (0.5% at worst), which no run ever needs.
    public static func distance(
        fromLatitude latitude1: Double, longitude longitude1: Double,
        toLatitude latitude2: Double, longitude longitude2: Double
    ) -> Double {
        let a = equatorialRadius, b = polarRadius, f = flattening
        let radians = Double.pi / 180
        let longitudeDifference = normalizedRadians((longitude2 - longitude1) * radians)
        let reduced1 = atan((1 - f) * tan(latitude1 * radians))
        let reduced2 = atan((1 - f) * tan(latitude2 * radians))
        let sinU1 = sin(reduced1), cosU1 = cos(reduced1)
        let sinU2 = sin(reduced2), cosU2 = cos(reduced2)

        var lambda = longitudeDifference
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSquaredAlpha = 0.0, cos2SigmaM = 0.0
        var converged = false
        for _ in 0..<200 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let term1 = cosU2 * sinLambda
            let term2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (term1 * term1 + term2 * term2).squareRoot()
            if sinSigma == 0 { return 0 }  // the same point
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = longitudeDifference + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                converged = true
                break
            }
        }
        guard converged else {
            return greatCircleDistance(
                fromLatitude: latitude1, longitude: longitude1, toLatitude: latitude2, longitude: longitude2)
        }
        let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma = bigB * sinSigma
            * (cos2SigmaM + bigB / 4
                * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                    - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * bigA * (sigma - deltaSigma)
    }

    /// A fast distance for points a few kilometres apart at most: the ellipsoid's meridian and
    /// prime-vertical radii at the mid-latitude. Within 1e-6 of Vincenty below 5 km.
    public static func localDistance(
        fromLatitude latitude1: Double, longitude longitude1: Double,
        toLatitude latitude2: Double, longitude longitude2: Double
    ) -> Double {
        let radians = Double.pi / 180
        let middle = (latitude1 + latitude2) / 2 * radians
        let (meridian, primeVertical) = radiiOfCurvature(latitude: middle)
        let north = (latitude2 - latitude1) * radians * meridian
        let east = normalizedRadians((longitude2 - longitude1) * radians) * primeVertical * cos(middle)
        return (north * north + east * east).squareRoot()
    }

    /// Meridian (north-south) and prime-vertical (east-west) radii of curvature at a latitude
    /// in radians.
    static func radiiOfCurvature(latitude: Double) -> (meridian: Double, primeVertical: Double) {
        let s = sin(latitude)
        let w2 = 1 - eccentricitySquared * s * s
        let w = w2.squareRoot()
        let primeVertical = equatorialRadius / w
        let meridian = equatorialRadius * (1 - eccentricitySquared) / (w2 * w)
        return (meridian, primeVertical)
    }

    static func greatCircleDistance(
        fromLatitude latitude1: Double, longitude longitude1: Double,
        toLatitude latitude2: Double, longitude longitude2: Double
    ) -> Double {
        let radians = Double.pi / 180
        let meanRadius = (2 * equatorialRadius + polarRadius) / 3
        let phi1 = latitude1 * radians, phi2 = latitude2 * radians
        let dPhi = phi2 - phi1, dLambda = (longitude2 - longitude1) * radians
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * meanRadius * asin(min(1, h.squareRoot()))
    }

    /// Wraps an angle to -π...π, so tracks across the antimeridian measure correctly.
    static func normalizedRadians(_ angle: Double) -> Double {
        var value = angle
        if value > .pi { value -= 2 * .pi } else if value < -.pi { value += 2 * .pi }
        return value
    }
}
