import RunTracking
/// The SAX side of `GPXReader`, fed by `ExpatParser`: keeps only the point being read, so
/// memory stays flat. expat has already matched end tags to start tags.
final class GPXParserDelegate: XMLEventHandler {
    static let gpx10Namespace = "http://www.topografix.com/GPX/1/0"
    static let gpx11Namespace = "http://www.topografix.com/GPX/1/1"
    static let openTracksNamespace = "http://opentracksapp.com/xmlschemas/v1"
    static let garminTrackPointV2Namespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    let source: String
    /// Read for a course: more points than `Course.maximumPointCount` stop the parse there, so
    /// a file of millions of points is refused without holding them all.
    let pointLimit: Int?
    private(set) var version: String?
    private(set) var points: [GPXPoint] = []
    private(set) var rejectedPointCount = 0
    private(set) var waypointCount = 0
    private(set) var segmentsWithPoints = 0

    private var segment = -1
    private var segmentHasPoints = false
    private var current: GPXPoint?
    private var currentIsValid = true
    /// Depth below the current point; direct children (depth 1) carry ele/time/speed.
    private var pointDepth = 0
    private var text = ""
    private var capturing: Field?

    private enum Field {
        case elevation, time, speed, accuracy
    }

    init(source: String, pointLimit: Int? = nil) {
        self.source = source
        self.pointLimit = pointLimit
    }

    /// GPX 1.1, GPX 1.0, or none (old files without xmlns). Compared one by one: a set would
    /// hash the URI on every element.
    private func isGPX(_ namespace: String?) -> Bool {
        guard let namespace else { return true }
        return namespace == Self.gpx11Namespace || namespace == Self.gpx10Namespace || namespace.isEmpty
    }

    var wantsText: Bool { capturing != nil }

    private func failure(line: Int, _ message: String) -> GPXError {
        GPXError(.malformed, "line \(line): \(message)", source: source)
    }

    func startElement(_ name: XMLName, line: Int, attribute: (String) -> String?) throws(GPXError) {
        let elementName = name.localName
        let namespaceURI = name.namespaceURI
        if version == nil {
            guard elementName == "gpx" else {
                throw failure(line: line, "not a GPX file: the root element is <\(elementName)>, not <gpx>")
            }
            guard isGPX(namespaceURI) else {
                throw failure(
                    line: line,
                    "not a GPX file: the root element <gpx> is in the namespace '\(namespaceURI ?? "")', not GPX 1.0's or 1.1's")
            }
            version = attribute("version") ?? (namespaceURI?.hasSuffix("1/0") == true ? "1.0" : "1.1")
            return
        }

        if current != nil {
            pointDepth += 1
            capturing = nil
            if pointDepth == 1, isGPX(namespaceURI) {
                switch elementName {
                case "ele": capturing = .elevation
                case "time": capturing = .time
                case "speed": capturing = .speed  // GPX 1.0
                default: break
                }
            } else if namespaceURI == Self.openTracksNamespace {
                if elementName == "accuracy_horizontal" { capturing = .accuracy }
                if elementName == "speed" { capturing = .speed }
            } else if namespaceURI == Self.garminTrackPointV2Namespace, elementName == "speed" {
                capturing = .speed
            }
            text = ""
            return
        }

        guard isGPX(namespaceURI) else { return }
        switch elementName {
        case "trkseg", "rte":
            segment += 1
            segmentHasPoints = false
        case "trkpt", "rtept":
            if segment < 0 { segment = 0 }
            try startPoint(kind: elementName == "trkpt" ? .track : .route, attribute: attribute, line: line)
        case "wpt":
            waypointCount += 1
        default:
            break
        }
    }

    private func startPoint(
        kind: GPXPoint.Kind, attribute: (String) -> String?, line: Int
    ) throws(GPXError) {
        guard let latText = attribute("lat"), let lonText = attribute("lon") else {
            throw failure(line: line, "a <\(kind == .track ? "trkpt" : "rtept")> has no lat or lon attribute")
        }
        guard let latitude = Self.number(latText), let longitude = Self.number(lonText) else {
            throw failure(line: line, "lat '\(latText)' / lon '\(lonText)' is not a pair of numbers")
        }
        current = GPXPoint(
            latitude: latitude, longitude: longitude, segment: segment, kind: kind, line: line)
        currentIsValid = GPSFix(time: 0, latitude: latitude, longitude: longitude).hasValidCoordinates
        pointDepth = 0
    }

    /// `text` as a number, allowing XML whitespace around it. The string itself is tried first:
    /// a Substring would be copied to be parsed.
    static func number(_ text: String) -> Double? {
        Double(text) ?? Double(trimmed(text))
    }

    /// `text` without leading and trailing XML whitespace (space, tab, CR, LF).
    static func trimmed(_ text: String) -> Substring {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isSpace($0) }),
              let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[first...last]
    }

    func characters(_ string: String) {
        if capturing != nil { text += string }
    }

    func endElement(line: Int) throws(GPXError) {
        guard var point = current else { return }
        if pointDepth == 0 {
            // The point itself ends.
            current = nil
            guard currentIsValid else {
                rejectedPointCount += 1
                return
            }
            if !segmentHasPoints {
                segmentHasPoints = true
                segmentsWithPoints += 1
            }
            if let pointLimit, points.count >= pointLimit {
                throw GPXError(.invalidCourse, "the course has more than \(pointLimit) points; at most \(pointLimit) are taken", source: source)
            }
            points.append(point)
            return
        }
        pointDepth -= 1
        guard let field = capturing else { return }
        capturing = nil
        if field == .time {
            guard let seconds = GPXTime.seconds(from: text) else {
                throw failure(line: line, "'\(Self.trimmed(text))' is not a date-time such as 2024-05-01T07:30:00Z")
            }
            point.time = seconds
        } else {
            guard let number = Self.number(text), number.isFinite else {
                // A device's odd extension value is not worth rejecting the file for.
                return
            }
            switch field {
            case .elevation: point.elevation = number
            case .speed: point.speed = number >= 0 ? number : nil
            case .accuracy: point.horizontalAccuracy = number >= 0 ? number : nil
            case .time: break
            }
        }
        current = point
    }
}
