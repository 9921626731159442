import Testing
import RunTracking

/// Reference distances from GeographicLib (Karney's algorithm, WGS84), generated once with
///
///     python3 -m venv /tmp/geo && /tmp/geo/bin/pip install geographiclib
///     /tmp/geo/bin/python -c 'from geographiclib.geodesic import Geodesic as G; \
///       print(G.WGS84.Inverse(37.783292, -122.407225, 37.793392, -122.397225)["s12"])'
///
/// and committed as numbers, so the tests need no Python.
struct GeodesicTests {
    static let references: [(Double, Double, Double, Double, Double)] = [
        (37.783292, -122.407225, 37.793392, -122.397225, 1425.685529331),
        (-8.045075, -34.893787, -8.035075, -34.883787, 1561.495359407),
        (40.0381155777, -105.2586531546, 40.0381136499, -105.2586616203, 0.753557865),
        (60.0, 10.0, 60.0, 10.01, 558.000015193),
        (60.0, 10.0, 60.009, 10.0, 1002.711275388),
        (0.0, 0.0, 0.0, 0.0001, 11.131949079),
        (51.5, -0.1, 51.6, 0.1, 17783.198897468),
        (-33.9, 18.4, -34.1, 18.6, 28871.232252401),
        (89.9, 0, 89.9, 90, 15795.909900890),
        (0.0, 179.9995, 0.0, -179.9995, 111.319490791),
    ]

    @Test(arguments: references)
    func vincentyMatchesGeographicLib(_ reference: (Double, Double, Double, Double, Double)) {
        let (lat1, lon1, lat2, lon2, expected) = reference
        let measured = Geodesic.distance(fromLatitude: lat1, longitude: lon1, toLatitude: lat2, longitude: lon2)
        // Vincenty agrees with Karney to well under a millimetre at these distances.
        #expect(abs(measured - expected) < 0.001, "\(measured) vs \(expected)")
    }

    @Test(arguments: references.filter { $0.4 < 3000 })
    func localDistanceWithinATenthOfAPercent(_ reference: (Double, Double, Double, Double, Double)) {
        let (lat1, lon1, lat2, lon2, expected) = reference
        let measured = Geodesic.localDistance(fromLatitude: lat1, longitude: lon1, toLatitude: lat2, longitude: lon2)
        #expect(abs(measured - expected) <= expected * 1e-5 + 1e-6, "\(measured) vs \(expected)")
    }

    @Test func trackerDistanceOnAStraightLineIsGeodesic() {
        // 2 km due north-east at 60°N, at 3 m/s, clean: the tracker's plane and its moving
        // origin must stay within 0.1% of the geodesic.
        let start = (latitude: 60.0, longitude: 10.0), end = (latitude: 60.0127, longitude: 10.0254)
        let length = Geodesic.distance(
            fromLatitude: start.latitude, longitude: start.longitude, toLatitude: end.latitude, longitude: end.longitude)
        let steps = Int(length / 3)
        var tracker = DistanceTracker()
        for step in 0...steps {
            let share = Double(step) / Double(steps)
            _ = tracker.update(with: GPSFix(
                time: Double(step), latitude: start.latitude + share * (end.latitude - start.latitude),
                longitude: start.longitude + share * (end.longitude - start.longitude)))
        }
        #expect(abs(tracker.meters - length) < length * 0.001, "\(tracker.meters) vs \(length)")
    }
}
