// The texts people type: distance markers, paces and run lengths (`--planned-distance`). Input
// bytes are read as UTF-8 (invalid sequences become U+FFFD, as Swift's String does).
let fuzzTargets: [String: ([UInt8]) -> Void] = [
    "marker": { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        if let marker = try? DistanceMarker(parsing: text) {
            _ = marker.canonical
            _ = try? marker.resolvedMeters(plannedDistance: 42_195)
            _ = try? marker.resolvedMeters(plannedDistance: nil)
            // The canonical form (rounded, as tags store it) must read back as a marker.
            precondition((try? DistanceMarker(parsing: marker.canonical)) != nil, "canonical form does not parse: \(text)")
        }
    },
    "pace": { bytes in
        if let pace = try? Pace(parsing: String(decoding: bytes, as: UTF8.self)) { _ = pace.description }
    },
    "distance": { bytes in
        if let distance = try? RunDistance(parsing: String(decoding: bytes, as: UTF8.self)) { _ = distance.description }
    },
]
