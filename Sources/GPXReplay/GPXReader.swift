#if canImport(FoundationEssentials)
import FoundationEssentials
#else
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif
import RunTracking

/// Reads GPX 1.0 and 1.1 files into a `GPXTrack`, event by event through libexpat
/// (`ExpatParser`), so only the points are kept and Foundation's XML module (libxml2, ICU) is
/// not linked.
///
/// - Every `trk`/`trkseg` and every `rte` is read, in file order; waypoints are ignored.
/// - Extensions are matched by namespace URI, never by prefix, so `gpxtpx:`, `ns3:` or any
///   other prefix works. Horizontal accuracy and speed are kept where a device wrote them.
/// - Points with impossible coordinates (old pause markers at lat 100 or 200) are dropped and
///   counted, not fatal.
/// - Malformed XML, a file that is not GPX, a bad number or time, and a GPX with no points are
///   errors that name the file and the line.
/// - Entity declarations and elements nested deeper than any GPX file needs are refused, so a
///   hostile file cannot take unbounded memory or time.
public enum GPXReader {
    /// Reads the GPX file at `path`.
    public static func read(contentsOfFile path: String) throws -> GPXTrack {
        guard FileManager.default.isReadableFile(atPath: path),
              let data = FileManager.default.contents(atPath: path)
        else {
            throw GPXError(.io, "cannot open the file for reading", source: path)
        }
        return try parse(data, source: path)
    }

    /// Reads GPX from memory; `name` is used in error messages.
    public static func read(data: Data, name: String) throws -> GPXTrack {
        try parse(data, source: name)
    }

    /// Reads the GPX file at `path` as a race's course (see `GPXTrack.course()`): its track,
    /// or else its route. Past `Course.maximumPointCount` points the file is refused there.
    public static func readCourse(contentsOfFile path: String) throws -> Course {
        guard FileManager.default.isReadableFile(atPath: path),
              let data = FileManager.default.contents(atPath: path)
        else {
            throw GPXError(.io, "cannot open the file for reading", source: path)
        }
        return try readCourse(data: data, name: path)
    }

    /// Reads a course from GPX in memory; `name` is used in error messages.
    public static func readCourse(data: Data, name: String) throws -> Course {
        try parse(data, source: name, pointLimit: Course.maximumPointCount).course()
    }

    private static func parse(_ data: Data, source: String, pointLimit: Int? = nil) throws -> GPXTrack {
        let handler = GPXParserDelegate(source: source, pointLimit: pointLimit)
        do {
            try ExpatParser.parse(data, into: handler)
        } catch let error as XMLDocumentError {
            if error.isMissingRootElement {
                throw GPXError(.malformed, "not a GPX file (no <gpx> root element)", source: source)
            }
            throw GPXError(.malformed, error.description, source: source)
        }
        guard let version = handler.version else {
            throw GPXError(.malformed, "not a GPX file (no <gpx> root element)", source: source)
        }
        guard !handler.points.isEmpty else {
            let rejected = handler.rejectedPointCount
            throw GPXError(
                .invalidTrack,
                rejected > 0
                    ? "the GPX has no usable track or route points (\(rejected) had impossible coordinates)"
                    : "the GPX has no track or route points",
                source: source)
        }
        return GPXTrack(
            version: version, points: handler.points, segmentCount: handler.segmentsWithPoints,
            rejectedPointCount: handler.rejectedPointCount,
            ignoredWaypointCount: handler.waypointCount, source: source)
    }
}
