/// One `trkpt` or `rtept` of a GPX file, as written: its time may be missing.
public struct GPXPoint: Hashable, Sendable {
    /// Whether the point came from a track or from a route.
    public enum Kind: String, Hashable, Sendable {
        /// A `trkpt`: where a device was.
        case track
        /// An `rtept`: a point of a planned route.
        case route
    }

    /// Degrees north, WGS84.
    public var latitude: Double
    /// Degrees east, WGS84.
    public var longitude: Double
    /// Metres above the geoid, when written.
    public var elevation: Double?
    /// Seconds since 1970 UTC, when written. Precision is about 0.2 µs for present-day dates.
    public var time: Double?
    /// Horizontal accuracy in metres, from a device extension (OpenTracks `accuracy_horizontal`).
    public var horizontalAccuracy: Double?
    /// Speed in m/s: GPX 1.0 `<speed>`, or Garmin TrackPointExtension v2 / OpenTracks `speed`.
    public var speed: Double?
    /// Which `trkseg` or `rte` the point belongs to, counted from 0 across the whole file.
    public var segment: Int
    /// Track or route.
    public var kind: Kind
    /// Line of the point's start tag, for error messages.
    public var line: Int

    /// A point; only its coordinates are required.
    public init(
        latitude: Double, longitude: Double, elevation: Double? = nil, time: Double? = nil,
        horizontalAccuracy: Double? = nil, speed: Double? = nil, segment: Int = 0,
        kind: Kind = .track, line: Int = 0
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.time = time
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.segment = segment
        self.kind = kind
        self.line = line
    }
}
