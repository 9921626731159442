/// A run's course as the store keeps it: already simplified, with its length, and its places
/// as the JSON the API answers with (`[[latitude, longitude], …]`), so that reading a run's
/// course is one text column and no per-place rows.
public struct StoredCourse: Sendable, Equatable {
    /// Metres along the stored (simplified) places.
    public var lengthMeters: Double
    public var pointCount: Int
    public var pointsJSON: String
}

/// What became of a request to keep or remove a run's course.
public enum CourseChange: Sendable, Equatable {
    case done
    case noSuchRun
    /// A message of the run has been played: the runner's phone follows the course it took
    /// at Get ready, so the stored one no longer changes.
    case runStarted
}
