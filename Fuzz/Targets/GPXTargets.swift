import Foundation

// GPX through libexpat, as `voicemsg simulate --gpx` and the GPX tests read it.
let fuzzTargets: [String: ([UInt8]) -> Void] = [
    "gpx": { bytes in
        if let track = try? GPXReader.read(data: Data(bytes), name: "fuzz.gpx") { _ = track.points.count }
    },
]
