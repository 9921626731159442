import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The SAX side of `GPXReader`: keeps only the point being read, so memory stays flat.
final class GPXParserDelegate: NSObject, XMLParserDelegate {
    static let gpxNamespaces: Set<String> = [
        "http://www.topografix.com/GPX/1/0", "http://www.topografix.com/GPX/1/1", "",
    ]
    static let openTracksNamespace = "http://opentracksapp.com/xmlschemas/v1"
    static let garminTrackPointV2Namespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    let source: String
    private(set) var version: String?
    private(set) var points: [GPXPoint] = []
    private(set) var rejectedPointCount = 0
    private(set) var waypointCount = 0
    private(set) var segmentsWithPoints = 0
    private(set) var failure: AudioPipelineError?

    private var segment = -1
    private var segmentHasPoints = false
    private var current: GPXPoint?
    private var currentIsValid = true
    /// Depth below the current point; direct children (depth 1) carry ele/time/speed.
    private var pointDepth = 0
    private var text = ""
    private var capturing: Field?
    /// Open elements, to catch mismatched end tags that libxml2 would otherwise recover from.
    private var openElements: [String] = []

    private enum Field {
        case elevation, time, speed, accuracy
    }

    init(source: String) {
        self.source = source
    }

    private func isGPX(_ namespace: String?) -> Bool {
        Self.gpxNamespaces.contains(namespace ?? "")
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        guard failure == nil else { return }
        failure = AudioPipelineError(.unreadableInput, "line \(parser.lineNumber): \(message)", source: source)
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        openElements.append(qualifiedName ?? elementName)
        if version == nil {
            guard elementName == "gpx", isGPX(namespaceURI) else {
                fail(parser, "not a GPX file: the root element is <\(qualifiedName ?? elementName)>, not <gpx>")
                return
            }
            version = attributes["version"] ?? (namespaceURI?.hasSuffix("1/0") == true ? "1.0" : "1.1")
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
            startPoint(parser, kind: elementName == "trkpt" ? .track : .route, attributes: attributes)
        case "wpt":
            waypointCount += 1
        default:
            break
        }
    }

    private func startPoint(_ parser: XMLParser, kind: GPXPoint.Kind, attributes: [String: String]) {
        guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
            fail(parser, "a <\(kind == .track ? "trkpt" : "rtept")> has no lat or lon attribute")
            return
        }
        guard let latitude = Double(latText.trimmingCharacters(in: .whitespaces)),
              let longitude = Double(lonText.trimmingCharacters(in: .whitespaces))
        else {
            fail(parser, "lat '\(latText)' / lon '\(lonText)' is not a pair of numbers")
            return
        }
        current = GPXPoint(
            latitude: latitude, longitude: longitude, segment: segment, kind: kind,
            line: parser.lineNumber)
        currentIsValid = GPSFix(time: 0, latitude: latitude, longitude: longitude).hasValidCoordinates
        pointDepth = 0
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil else { return }
        failure = AudioPipelineError(
            .unreadableInput, "malformed XML at line \(parser.lineNumber): \(Self.describe(parseError))",
            source: source)
    }

    /// The parser's reason in words: "an end tag does not match its start tag", not "76".
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let text = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty,
           !text.hasPrefix("The operation could not be completed") {
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // The codes are libxml2's (Apple's NSXMLParser uses the same numbers).
        switch nsError.code {
        case 4: return "there is no XML element where the document should start"
        case 5: return "the document ends early, or has content after its root element"
        case 73: return "a tag is not closed with '>'"
        case 76: return "an end tag does not match its start tag"
        case 77: return "the file ends inside an element"
        default: return "XML parser error \(nsError.code)"
        }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        if let open = openElements.last, failure == nil {
            fail(parser, "malformed XML: the file ends inside <\(open)>")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing != nil { text += string }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName: String?
    ) {
        let name = qualifiedName ?? elementName
        guard let open = openElements.popLast(), open == name || open.hasSuffix(":" + elementName) || elementName == open
        else {
            fail(parser, "malformed XML: </\(name)> does not close <\(openElements.last ?? "")>")
            return
        }
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
            points.append(point)
            return
        }
        pointDepth -= 1
        guard let field = capturing else { return }
        capturing = nil
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if field == .time {
            guard let seconds = GPXTime.seconds(from: value) else {
                fail(parser, "'\(value)' is not a date-time such as 2024-05-01T07:30:00Z")
                return
            }
            point.time = seconds
        } else {
            guard let number = Double(value), number.isFinite else {
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
