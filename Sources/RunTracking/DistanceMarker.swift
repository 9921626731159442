/// Where on a run a message belongs.
///
/// Markers are written by people ("5 km", "halfway", "1 km before the finish") and stored in
/// canonical form (`5000m`, `50%`, `finish`, `finish-1000m`). Parsing is case-insensitive and
/// ignores spaces. Relative markers need the run's planned distance to become metres.
public enum DistanceMarker: Hashable, Sendable {
    /// A distance from the start, in metres.
    case absolute(meters: Double)
    /// A share of the planned distance, in percent (0...100).
    case percent(Double)
    /// A distance before the finish, in metres; 0 is the finish itself.
    case beforeFinish(meters: Double)

    /// The finish line.
    public static let finish = DistanceMarker.beforeFinish(meters: 0)

    /// Parses any accepted form; throws `RunTrackingError.Code.invalidMarker` with a reason.
    public init(parsing text: String) throws(RunTrackingError) {
        let compact = text.lowercased().filter { !$0.isWhitespace }
        func fail(_ why: String) -> RunTrackingError {
            RunTrackingError(.invalidMarker, "invalid distance marker '\(text)': \(why)")
        }
        guard !compact.isEmpty else { throw fail("it is empty") }

        if compact == "halfway" {
            self = .percent(50)
        } else if compact == "finish" {
            self = .finish
        } else if compact.hasPrefix("finish") {
            let rest = compact.dropFirst("finish".count)
            guard rest.first == "-" else {
                throw fail("only a distance before the finish is allowed, as in 'finish-1km'")
            }
            let meters = try Self.parseLength(String(rest.dropFirst()), fail: fail)
            self = .beforeFinish(meters: meters)
        } else if compact.hasSuffix("%") {
            guard let value = Self.parseNumber(String(compact.dropLast())) else {
                throw fail("expected a percentage such as '50%'")
            }
            guard value <= 100 else { throw fail("a share of the run cannot exceed 100%") }
            self = .percent(value)
        } else {
            self = .absolute(meters: try Self.parseLength(compact, fail: fail))
        }
    }

    /// The canonical text written to tags: `5000m`, `50%`, `finish`, `finish-1000m`.
    public var canonical: String {
        switch self {
        case .absolute(let meters): return "\(Self.format(meters))m"
        case .percent(let value): return "\(Self.format(value))%"
        case .beforeFinish(let meters):
            return meters == 0 ? "finish" : "finish-\(Self.format(meters))m"
        }
    }

    /// True when the marker needs the planned distance to resolve.
    public var isRelative: Bool {
        if case .absolute = self { return false }
        return true
    }

    /// The marker's distance from the start, in metres.
    ///
    /// - Parameter plannedDistance: the run's planned length in metres, if known.
    /// - Throws: `invalidMarker` when a relative marker has no planned distance, or when a
    ///   marker before the finish lies before the start.
    public func resolvedMeters(plannedDistance: Double?) throws(RunTrackingError) -> Double {
        if case .absolute(let meters) = self { return meters }
        guard let planned = plannedDistance, planned.isFinite, planned > 0 else {
            throw RunTrackingError(
                .invalidMarker,
                "marker '\(canonical)' is relative to the run's length, but no planned distance was given")
        }
        switch self {
        case .absolute(let meters): return meters
        case .percent(let value): return planned * value / 100
        case .beforeFinish(let meters):
            guard meters <= planned else {
                throw RunTrackingError(
                    .invalidMarker,
                    "marker '\(canonical)' lies before the start of a \(Self.format(planned)) m run")
            }
            return planned - meters
        }
    }

    // MARK: - Parsing helpers

    private static let unitMeters: [(suffix: String, meters: Double)] = [
        ("km", 1000), ("mi", 1609.344), ("m", 1),
    ]

    private static func parseLength(
        _ text: String, fail: (String) -> RunTrackingError
    ) throws(RunTrackingError) -> Double {
        guard let unit = unitMeters.first(where: { text.hasSuffix($0.suffix) }) else {
            throw fail("expected a distance in m, km or mi, a percentage, 'halfway' or 'finish'")
        }
        let number = String(text.dropLast(unit.suffix.count))
        guard let value = parseNumber(number) else {
            if number.hasPrefix("-") { throw fail("a distance cannot be negative") }
            throw fail("expected a number before '\(unit.suffix)'")
        }
        let meters = value * unit.meters
        guard meters <= 1_000_000 else { throw fail("a run is never longer than 1000 km") }
        return (meters * 100).rounded() / 100
    }

    /// A plain non-negative decimal: digits with an optional fraction. No signs, exponents,
    /// `inf` or `nan`, which `Double(_:)` would otherwise accept.
    private static func parseNumber(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1, text != "."
        else { return nil }
        return Double(text)
    }

    /// At most two decimals, and none that are zero: `5000`, `4988.97`, `12.5`. Written out
    /// from whole hundredths, since Embedded Swift has no `String(format:)`; markers are at
    /// most 1000 km, far within `Int64`'s exact range.
    private static func format(_ value: Double) -> String {
        let hundredths = Int64((value * 100).rounded())
        let whole = String(hundredths.magnitude / 100)
        let sign = hundredths < 0 ? "-" : ""
        switch hundredths.magnitude % 100 {
        case 0: return sign + whole
        case let fraction where fraction % 10 == 0: return "\(sign)\(whole).\(fraction / 10)"
        case let fraction: return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
        }
    }
}

extension DistanceMarker: CustomStringConvertible {
    public var description: String { canonical }
}

#if !hasFeature(Embedded)
extension DistanceMarker: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(parsing: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(canonical)
    }
}
#endif
