import Foundation

/// A flat east/north plane in metres around an origin, the frame the tracker's Kalman filter
/// works in. The map is affine in latitude and longitude, so it inverts exactly; its scale is
/// right at the origin and drifts by tan(latitude) × (distance / Earth radius) away from it,
/// which is why the tracker moves the origin along with the runner.
struct LocalTangentPlane: Sendable, Codable, Equatable {
    var originLatitude: Double
    var originLongitude: Double
    /// Metres per degree northwards and eastwards at the origin.
    var metersPerDegreeNorth: Double
    var metersPerDegreeEast: Double

    init(originLatitude: Double, originLongitude: Double) {
        self.originLatitude = originLatitude
        self.originLongitude = originLongitude
        let radians = Double.pi / 180
        let (meridian, primeVertical) = Geodesic.radiiOfCurvature(latitude: originLatitude * radians)
        metersPerDegreeNorth = meridian * radians
        metersPerDegreeEast = primeVertical * max(cos(originLatitude * radians), 1e-9) * radians
    }

    func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        var deltaLongitude = longitude - originLongitude
        if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude < -180 { deltaLongitude += 360 }
        return (deltaLongitude * metersPerDegreeEast, (latitude - originLatitude) * metersPerDegreeNorth)
    }

    func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        var longitude = originLongitude + east / metersPerDegreeEast
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return (originLatitude + north / metersPerDegreeNorth, longitude)
    }
}

/// The length of a vector in the plane; `sqrt` of the squares, which is all the range
/// running distances need (`hypot` guards against overflow at a cost).
@inline(__always)
func planarLength(_ east: Double, _ north: Double) -> Double {
    (east * east + north * north).squareRoot()
}
