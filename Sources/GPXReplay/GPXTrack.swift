/// What a GPX file holds for a run: its track and route points in file order.
public struct GPXTrack: Sendable {
    /// `1.0` or `1.1`, from the root element.
    public var version: String
    /// Track and route points with valid coordinates, in file order.
    public var points: [GPXPoint]
    /// How many `trkseg` and `rte` elements held points.
    public var segmentCount: Int
    /// Points dropped for impossible coordinates (pause markers with lat 100 or 200, NaN).
    public var rejectedPointCount: Int
    /// Waypoints seen and ignored: they are places, not a path.
    public var ignoredWaypointCount: Int
    /// The file or upload the track came from, for error messages.
    public var source: String

    /// A track of these points and counts.
    public init(
        version: String, points: [GPXPoint], segmentCount: Int, rejectedPointCount: Int = 0,
        ignoredWaypointCount: Int = 0, source: String
    ) {
        self.version = version
        self.points = points
        self.segmentCount = segmentCount
        self.rejectedPointCount = rejectedPointCount
        self.ignoredWaypointCount = ignoredWaypointCount
        self.source = source
    }
}
