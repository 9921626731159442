import Foundation

/// The content codings the web pages' files are embedded in (RFC 9110 §8.4.1): each file
/// as it is, and compressed once when it was embedded, so that no request spends CPU on it.
enum ContentCoding: String, CaseIterable, Sendable {
    /// Brotli (RFC 7932): the smallest, which browsers ask for over https only.
    case brotli = "br"
    case gzip
    /// The file as it is in `web/`.
    case identity

    /// Which of `available` to send for an `Accept-Encoding` header, as RFC 9110 §12.5.3 says;
    /// nil when the header refuses all of them (406).
    ///
    /// - No header: identity. A client that says nothing may not decode anything else.
    /// - A coding listed with `q=0`, or `*;q=0` for those not listed, is refused; identity is
    ///   refused only so, by `identity;q=0` or by `*;q=0` without an `identity` of its own.
    /// - Of the rest the highest `q` wins; a coding not listed takes the weight of `*`. Identity
    ///   neither listed nor covered by a `*` is acceptable but least wanted, so `gzip;q=0.5`
    ///   still gets gzip. Equal weights prefer the smaller coding.
    /// - `x-gzip` is gzip (§8.4.1.3); codings this server does not have, and elements it cannot
    ///   read, are passed over.
    static func negotiate(_ header: String?, available: [ContentCoding] = allCases) -> ContentCoding? {
        guard let header else { return available.contains(.identity) ? .identity : nil }
        var listed: [ContentCoding: Double] = [:]
        var wildcard: Double?
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let name = parts.first?.trimmed.lowercased(), !name.isEmpty,
                let weight = Self.weight(parts.dropFirst())
            else { continue }
            if name == "*" {
                wildcard = wildcard ?? weight
            } else if let coding = ContentCoding(token: name), listed[coding] == nil {
                listed[coding] = weight
            }
        }
        func weight(of coding: ContentCoding) -> Double {
            listed[coding] ?? wildcard ?? (coding == .identity ? Self.leastWanted : 0)
        }
        // `allCases` is in order of preference when weights are equal.
        let best = allCases.filter { available.contains($0) && weight(of: $0) > 0 }
            .max { weight(of: $0) < weight(of: $1) || (weight(of: $0) == weight(of: $1) && $0.rank > $1.rank) }
        return best
    }

    /// The weight of identity when the header neither lists it nor has a `*`: acceptable, and
    /// below any `q` a client can write (the smallest is 0.001).
    private static let leastWanted = 0.0001

    /// A coding's name as it appears in the header.
    private init?(token: String) {
        switch token {
        case "br": self = .brotli
        case "gzip", "x-gzip": self = .gzip
        case "identity": self = .identity
        default: return nil
        }
    }

    /// The position in `allCases`: lower is preferred at equal weight.
    private var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// The `q` parameter of one element (1 when it has none); nil when it is not a qvalue
    /// (`0` to `1`, at most three decimals), so that the element is passed over.
    private static func weight(_ parameters: ArraySlice<Substring>) -> Double? {
        for parameter in parameters {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(\.trimmed)
            guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
            let value = pair[1]
            let fraction = value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let whole = fraction.first, whole == "0" || whole == "1",
                fraction.count == 1 || (fraction[1].count <= 3 && fraction[1].allSatisfy { $0.isASCII && $0.isNumber }),
                let number = Double(value), number <= 1
            else { return nil }
            return number
        }
        return 1
    }
}

extension StringProtocol {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
