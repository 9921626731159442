/// A race's course: the way the runner is meant to go, as places in order, with the distance
/// along it at each. A `CourseTracker` follows the runner along it.
///
/// The distance between two consecutive places is the WGS84 geodesic (Vincenty), as a race
/// measures its course; between them the course runs straight on the map (linear in latitude
/// and longitude, which at any course's spacing is the geodesic to within millimetres).
/// Consecutive places less than a millimetre apart are one place: the second is dropped.
///
/// Refused, with a `RunTrackingError` that says why: fewer than two distinct places, a course
/// shorter than `minimumLength` or longer than `maximumLength`, more than `maximumPointCount`
/// places, or a place that cannot be on Earth.
public struct Course: Sendable {
    /// One place of the course, in degrees (WGS84).
    public struct Point: Hashable, Sendable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// 100 m: shorter than any race, and shorter than GPS error can tell apart from standing.
    public static let minimumLength = 100.0
    /// 1000 km: longer than any race run in one go; the same bound as a distance marker's.
    public static let maximumLength = 1_000_000.0
    /// 200,000 places: a marathon drawn every 20 cm. It bounds the memory a course takes
    /// (about 100 bytes a place with the tracker's index).
    public static let maximumPointCount = 200_000

    /// The places in order, consecutive duplicates dropped.
    public let points: [Point]
    /// Metres along the course at each of `points`, from 0 at the first.
    public let cumulativeMeters: [Double]
    /// The search index the tracker uses (see `CourseIndex`), built once here.
    let index: CourseIndex

    /// The course's length in metres.
    public var length: Double { cumulativeMeters[cumulativeMeters.count - 1] }

    /// - Throws: `RunTrackingError` when the places cannot be a course (see the type's summary).
    public init(points given: [Point]) throws(RunTrackingError) {
        guard given.count <= Self.maximumPointCount else {
            throw RunTrackingError(
                .courseTooManyPoints,
                "the course has \(given.count) points; at most \(Self.maximumPointCount) are taken")
        }
        var points: [Point] = []
        var cumulative: [Double] = []
        points.reserveCapacity(given.count)
        cumulative.reserveCapacity(given.count)
        for (number, point) in given.enumerated() {
            guard GPSFix(time: 0, latitude: point.latitude, longitude: point.longitude).hasValidCoordinates else {
                throw RunTrackingError(
                    .invalidCoursePoint, "point \(number + 1) of the course is not a place on Earth (latitude and longitude out of range)")
            }
            guard let last = points.last else {
                points.append(point)
                cumulative.append(0)
                continue
            }
            let step = Geodesic.distance(
                fromLatitude: last.latitude, longitude: last.longitude,
                toLatitude: point.latitude, longitude: point.longitude)
            guard step >= 0.001 else { continue }
            points.append(point)
            cumulative.append(cumulative[cumulative.count - 1] + step)
        }
        guard points.count >= 2 else {
            throw RunTrackingError(
                .courseTooFewPoints,
                given.isEmpty ? "the course has no points" : "the course needs at least 2 distinct points; it has \(points.count)")
        }
        let length = cumulative[cumulative.count - 1]
        guard length >= Self.minimumLength else {
            throw RunTrackingError(
                .courseTooShort, "the course is \(Int(length.rounded())) m long; a course must be at least \(Int(Self.minimumLength)) m")
        }
        guard length <= Self.maximumLength else {
            throw RunTrackingError(
                .courseTooLong,
                "the course is \(Int((length / 1000).rounded())) km long; a course must be at most \(Int(Self.maximumLength / 1000)) km")
        }
        self.points = points
        cumulativeMeters = cumulative
        index = CourseIndex(points: points, cumulative: cumulative)
    }

    /// The place `meters` along the course (clamped to the course), between its two places.
    public func place(at meters: Double) -> Point {
        let target = min(max(meters, 0), length)
        // The last place at or before `target`.
        var low = 0, high = cumulativeMeters.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if cumulativeMeters[middle] <= target { low = middle } else { high = middle }
        }
        let from = points[low], to = points[high]
        let span = cumulativeMeters[high] - cumulativeMeters[low]
        let share = span > 0 ? (target - cumulativeMeters[low]) / span : 0
        return Point(
            latitude: from.latitude + share * (to.latitude - from.latitude),
            longitude: from.longitude + share * Geodesic.normalizedDegrees(to.longitude - from.longitude))
    }
}

extension Course: Equatable {
    /// Two courses are the same when their places are: everything else is made from them.
    public static func == (lhs: Course, rhs: Course) -> Bool { lhs.points == rhs.points }
}

extension Geodesic {
    /// Wraps a longitude difference to -180...180 degrees, for courses across the antimeridian.
    @inline(__always)
    static func normalizedDegrees(_ degrees: Double) -> Double {
        degrees > 180 ? degrees - 360 : degrees < -180 ? degrees + 360 : degrees
    }
}

#if !hasFeature(Embedded)
extension Course.Point: Codable {}

// Saved as its places alone; what is made from them is made again, and a saved course that
// would now be refused is an error, not a course.
extension Course: Codable {
    private enum CodingKeys: String, CodingKey { case points }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let points = try container.decode([Point].self, forKey: .points)
        do {
            try self.init(points: points)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .points, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(points, forKey: .points)
    }
}
#endif
