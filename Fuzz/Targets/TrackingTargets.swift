// The texts people type: distance markers, paces and run lengths (`--planned-distance`). Input
// bytes are read as UTF-8 (invalid sequences become U+FFFD, as Swift's String does).
let fuzzTargets: [String: ([UInt8]) -> Void] = [
    "marker": { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        if let marker = try? DistanceMarker(parsing: text) {
            _ = marker.canonical
            _ = try? marker.resolvedMeters(plannedDistance: 42_195)
            _ = try? marker.resolvedMeters(plannedDistance: nil)
            // The canonical form must read back as the same marker.
            precondition(try! DistanceMarker(parsing: marker.canonical) == marker, "canonical form does not round-trip: \(text)")
        }
    },
    "pace": { bytes in
        if let pace = try? Pace(parsing: String(decoding: bytes, as: UTF8.self)) { _ = pace.description }
    },
    "distance": { bytes in
        if let distance = try? RunDistance(parsing: String(decoding: bytes, as: UTF8.self)) { _ = distance.description }
    },
]
