import Foundation

/// Metres per degree near a place, for drawing paths and moving fixes by a few metres.
///
/// Here rather than beside the tracker corpus because tests in both RunTrackingTests and
/// GPXReplayTests draw their runs with it; `scripts/tracker-corpus.sh` compiles it by path.
public enum LocalMeters {
    public static let perDegreeLatitude = 111_132.954
    public static func perDegreeLongitude(at latitude: Double) -> Double { 111_319.488 * cos(latitude * .pi / 180) }

    /// The place `east` and `north` metres from an origin.
    public static func offset(
        _ origin: (latitude: Double, longitude: Double), east: Double, north: Double
    ) -> (latitude: Double, longitude: Double) {
        (origin.latitude + north / perDegreeLatitude, origin.longitude + east / perDegreeLongitude(at: origin.latitude))
    }
}
