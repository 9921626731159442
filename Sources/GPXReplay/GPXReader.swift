#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads GPX 1.0 and 1.1 files into a `GPXTrack`, event by event through `XMLScanner`, so
/// only the points are kept and Foundation's XML module (libxml2, ICU) is not linked.
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
              let data = FileManager.default.contents(atPath: path)
        else {
            throw GPXError(.io, "cannot open the file for reading", source: path)
        }
        return try parse(XMLScanner(data), source: path)
    }

    /// Reads GPX from memory; `name` is used in error messages.
    public static func read(data: Data, name: String) throws -> GPXTrack {
        try parse(XMLScanner(data), source: name)
    }

    private static func parse(_ scanner: XMLScanner, source: String) throws -> GPXTrack {
        var scanner = scanner
        var handler = GPXParserDelegate(source: source)
        do {
            while let event = try scanner.next() {
                switch event {
                case .startElement(let name, let attributes):
                    try handler.startElement(name, attributes: attributes, line: scanner.line)
                case .endElement:
                    try handler.endElement(line: scanner.line)
                case .text(let text):
                    handler.characters(text)
                }
            }
        } catch let error as XMLSyntaxError {
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
