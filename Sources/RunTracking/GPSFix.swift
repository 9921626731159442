/// One position report, as a phone or a GPX file gives it to the distance tracker.
public struct GPSFix: Hashable, Sendable {
    /// Seconds on any steady clock (a GPX replay uses seconds since 1970, UTC).
    public var time: Double
    /// Degrees north, WGS84.
    public var latitude: Double
    /// Degrees east, WGS84.
    public var longitude: Double
    /// Horizontal accuracy in metres (the radius the device reports), when known.
    public var horizontalAccuracy: Double?
    /// Ground speed in metres per second, when the device reported one.
    public var speed: Double?

    public init(
        time: Double, latitude: Double, longitude: Double,
        horizontalAccuracy: Double? = nil, speed: Double? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
    }

    /// True when the coordinates can be a place on Earth. Old devices wrote lat 100 or 200
    /// as pause markers; those, NaN and infinities are not.
    public var hasValidCoordinates: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

extension GPSFix {
    /// The device's speed when it is a usable one (CoreLocation reports -1 for none).
    var dopplerSpeed: Double? {
        guard let speed, speed.isFinite, speed >= 0 else { return nil }
        return speed
    }
}

#if !hasFeature(Embedded)
extension GPSFix: Codable {}
#endif
