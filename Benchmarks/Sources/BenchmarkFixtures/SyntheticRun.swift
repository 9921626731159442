import Foundation
import RunTracking

/// A winding run at 3.5 m/s, one fix a second, with ±1 m of noise: the same every time, so
/// every benchmark run measures the same work.
public enum SyntheticRun {
    public static func fixes(count: Int) -> [GPSFix] {
        var fixes: [GPSFix] = []
        fixes.reserveCapacity(count)
        var east = 0.0, north = 0.0, heading = 0.0
        var random = UInt64(42)
        func noise() -> Double {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Double(random >> 11) / Double(1 << 53) - 0.5
        }
        for second in 0..<count {
            heading += 0.02 * sin(Double(second) / 300)
            east += 3.5 * cos(heading)
            north += 3.5 * sin(heading)
            let latitude = 48.0 + (north + 2 * noise()) / 111_132.954
            let longitude = 11.0 + (east + 2 * noise()) / (111_319.488 * cos(48.0 * .pi / 180))
            fixes.append(GPSFix(time: Double(second), latitude: latitude, longitude: longitude))
        }
        return fixes
    }

    /// A marathon: 42.2 km at 3.5 m/s is 12,060 fixes.
    public static let marathonFixCount = 12_060

    /// `fixes` as a GPX 1.1 track, one point a line with an elevation and a time, as a watch
    /// writes it.
    public static func gpx(_ fixes: [GPSFix]) -> Data {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let format = Date.ISO8601FormatStyle()
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="voicemsg benchmarks" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

            """
        for (index, fix) in fixes.enumerated() {
            let time = format.format(start.addingTimeInterval(fix.time))
            text += "<trkpt lat=\"\(fix.latitude)\" lon=\"\(fix.longitude)\"><ele>\(500 + Double(index % 40) / 4)</ele><time>\(time)</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        return Data(text.utf8)
    }
}
