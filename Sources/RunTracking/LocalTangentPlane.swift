/// A flat east/north plane in metres around an origin, the frame the tracker's Kalman filter
/// works in. The map is affine in latitude and longitude, so it inverts exactly; its scale is
/// right at the origin and drifts by tan(latitude) × (distance / Earth radius) away from it,
/// which is why the tracker moves the origin along with the runner.
struct LocalTangentPlane: Sendable, Equatable {
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

    func project(latitude: Double, longitude: Double) -> PlanePoint {
        let (east, north) = offset(latitude: latitude, longitude: longitude)
        return PlanePoint(east: east, north: north)
    }

    /// The same as `project`, as a pair of numbers for the hottest loops, which keep no point.
    @inline(__always)
    func offset(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        (Geodesic.normalizedDegrees(longitude - originLongitude) * metersPerDegreeEast, (latitude - originLatitude) * metersPerDegreeNorth)
    }

    func project(_ fix: GPSFix) -> PlanePoint { project(latitude: fix.latitude, longitude: fix.longitude) }

    func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        (originLatitude + north / metersPerDegreeNorth, Geodesic.normalizedDegrees(originLongitude + east / metersPerDegreeEast))
    }
}

/// A point in the plane, metres east and north of its origin. A struct rather than a tuple so
/// that the tracker's state is `Codable`.
struct PlanePoint: Sendable, Equatable {
    var east: Double
    var north: Double

    static let origin = PlanePoint(east: 0, north: 0)

    func distance(to other: PlanePoint) -> Double { planarLength(other.east - east, other.north - north) }
}

/// The length of a vector in the plane; `sqrt` of the squares, which is all the range
/// running distances need (`hypot` guards against overflow at a cost).
@inline(__always)
func planarLength(_ east: Double, _ north: Double) -> Double {
    (east * east + north * north).squareRoot()
}

#if !hasFeature(Embedded)
extension LocalTangentPlane: Codable {}
extension PlanePoint: Codable {}
#endif
