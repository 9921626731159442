import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads GPX 1.0 and 1.1 files into a `GPXTrack`, streaming through Foundation's `XMLParser`
/// so a marathon's worth of points never sits in memory twice.
///
/// - Every `trk`/`trkseg` and every `rte` is read, in file order; waypoints are ignored.
/// - Extensions are matched by namespace URI, never by prefix, so `gpxtpx:`, `ns3:` or any
///   other prefix works. Horizontal accuracy and speed are kept where a device wrote them.
/// - Points with impossible coordinates (old pause markers at lat 100 or 200) are dropped and
///   counted, not fatal.
/// - Malformed XML, a file that is not GPX, a bad number or time, and a GPX with no points are
///   errors that name the file and the line.
public enum GPXReader {
    /// Reads the GPX file at `path`.
    public static func read(contentsOfFile path: String) throws -> GPXTrack {
        guard FileManager.default.isReadableFile(atPath: path),
              let stream = InputStream(fileAtPath: path)
        else {
            throw AudioPipelineError(.io, "cannot open the file for reading", source: path)
        }
        return try parse(XMLParser(stream: stream), source: path)
    }

    /// Reads GPX from memory; `name` is used in error messages.
    public static func read(data: Data, name: String) throws -> GPXTrack {
        try parse(XMLParser(data: data), source: name)
    }

    private static func parse(_ parser: XMLParser, source: String) throws -> GPXTrack {
        let handler = GPXParserDelegate(source: source)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = handler
        let finished = parser.parse()
        if let error = handler.failure {
            throw error
        }
        guard finished else {
            let reason = parser.parserError.map { GPXParserDelegate.describe($0) } ?? "unknown parser error"
            throw AudioPipelineError(
                .unreadableInput, "malformed XML at line \(parser.lineNumber): \(reason)",
                source: source)
        }
        guard let version = handler.version else {
            throw AudioPipelineError(.unreadableInput, "not a GPX file (no <gpx> root element)", source: source)
        }
        guard !handler.points.isEmpty else {
            let rejected = handler.rejectedPointCount
            throw AudioPipelineError(
                .unreadableInput,
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
