import Hummingbird

/// The bounds of every number a client gives the API to store. A number outside them is 400 at
/// once: `plannedDistanceMeters: 1e308` once made a `halfway` marker infinite, and every later
/// read of that run's messages answered 500.
enum RunBounds {
    /// A run is at least 100 m long and at most 1000 km.
    static let plannedDistance: ClosedRange<Double> = 100...1_000_000

    static func checkedPlannedDistance(_ meters: Double) throws -> Double {
        guard meters.isFinite, plannedDistance.contains(meters) else {
            throw HTTPError(
                .badRequest, message: "plannedDistanceMeters must be a number from 100 to 1000000 (1000 km)")
        }
        return meters
    }

    /// A resolved marker position, checked once more before it is stored: finite, and on a run.
    static func checkedMarkerMeters(_ meters: Double) throws -> Double {
        guard meters.isFinite, (0...plannedDistance.upperBound).contains(meters) else {
            throw HTTPError(.badRequest, message: "the marker must lie between 0 and 1000 km")
        }
        return meters
    }
}

extension VoicemsgAPI {
    /// `TextField.validate`, answering 400 with its reason.
    static func checkedText(_ raw: String, name: String) throws -> String {
        switch TextField.validate(raw, name: name) {
        case .success(let text): return text
        case .failure(let error): throw HTTPError(.badRequest, message: error.reason)
        }
    }
}
