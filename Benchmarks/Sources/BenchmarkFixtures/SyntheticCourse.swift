import Foundation
import RunTracking

/// A marathon course drawn with 100,000 places (every 42 cm), winding, and a run along it at
/// 3.5 m/s, a fix a second, with ±1 m of noise: the course tracker's work on the densest
/// course it takes short of its limit. The same every time, as `SyntheticRun` is.
public enum SyntheticCourse {
    public static let length = 42_195.0
    public static let placeCount = 100_000

    /// The course's places, in metres east and north of 48°N 11°E.
    static let places: [(east: Double, north: Double)] = {
        let step = length / Double(placeCount - 1)
        var places: [(east: Double, north: Double)] = []
        places.reserveCapacity(placeCount)
        var heading = 0.3, east = 0.0, north = 0.0
        for index in 0..<placeCount {
            places.append((east, north))
            heading += 0.004 * sin(Double(index) / 1500) + 0.002 * sin(Double(index) / 97)
            east += step * cos(heading)
            north += step * sin(heading)
        }
        return places
    }()

    static func place(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        (48.0 + north / 111_132.954, 11.0 + east / (111_319.488 * cos(48.0 * .pi / 180)))
    }

    /// The course; its places are valid and 42.2 km long, so it is never refused.
    public static let course: Course = {
        try! Course(points: places.map {
            let place = place(east: $0.east, north: $0.north)
            return Course.Point(latitude: place.latitude, longitude: place.longitude)
        })
    }()

    /// The run along the course, one fix a second to its end.
    public static let fixes: [GPSFix] = {
        let step = length / Double(placeCount - 1)
        var random = UInt64(42)
        func noise() -> Double {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Double(random >> 11) / Double(1 << 53) - 0.5
        }
        var fixes: [GPSFix] = []
        var along = 0.0, second = 0.0
        while along < length {
            let index = min(Int(along / step), placeCount - 2), share = along / step - Double(index)
            let east = places[index].east + share * (places[index + 1].east - places[index].east)
            let north = places[index].north + share * (places[index + 1].north - places[index].north)
            let place = place(east: east + 2 * noise(), north: north + 2 * noise())
            fixes.append(GPSFix(time: second, latitude: place.latitude, longitude: place.longitude))
            along += 3.5
            second += 1
        }
        return fixes
    }()
}

/// The course run fed to the course tracker a slice at a time across a benchmark's
/// iterations, as `RunReplay` feeds the distance tracker.
public final class CourseReplay {
    private var tracker = CourseTracker(course: SyntheticCourse.course)
    private var offset = 0

    public init() {}

    public func next(_ count: Int, _ body: (ArraySlice<GPSFix>, inout CourseTracker) -> Void) {
        let fixes = SyntheticCourse.fixes
        if offset + count > fixes.count {
            tracker = CourseTracker(course: SyntheticCourse.course)
            offset = 0
        }
        body(fixes[offset..<(offset + count)], &tracker)
        offset += count
    }
}
