import Foundation

/// Where the project's sample files are, found from this source file so tests never depend
/// on the working directory (and never on ../shared).
enum PlaybackFixtures {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/GPXReplayTests/PlaybackFixtures.swift -> the package root
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static func gpxPath(_ name: String) -> String {
        packageRoot.appendingPathComponent("samples/gpx/\(name)").path
    }

    static let trackNames = [
        "strava-run-gap.gpx", "garmin-run-smart-recording.gpx", "strava-run-with-pauses.gpx",
        "garmin-standing-jitter.gpx",
    ]
}
