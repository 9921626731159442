import Testing
import Foundation
@testable import RunTracking

@Suite struct DistanceMarkerTests {
    @Test(arguments: [
        ("5km", "5000m"), ("5 km", "5000m"), ("5KM", "5000m"), ("2500m", "2500m"),
        ("3.1mi", "4988.97m"), ("0.5 km", "500m"), ("50%", "50%"), ("12.5 %", "12.5%"),
        ("halfway", "50%"), ("Halfway", "50%"), ("finish", "finish"), ("FINISH", "finish"),
        ("finish-1km", "finish-1000m"), ("finish - 1 km", "finish-1000m"),
        ("finish-500m", "finish-500m"), ("0km", "0m"), ("100%", "100%"),
    ])
    func parsesEveryFormCanonically(input: String, canonical: String) throws {
        let marker = try DistanceMarker(parsing: input)
        #expect(marker.canonical == canonical)
        // The canonical form parses back to the same marker.
        #expect(try DistanceMarker(parsing: canonical) == marker)
    }

    @Test(arguments: [
        "-5km", "5 parsecs", "150%", "finish+1km", "", "km", "5", "nan km", "inf m", "1e3m",
        "halfway-1km", "finish-", "finish-50%", "5..0km", "--5km", "5km5",
    ])
    func rejectsNonsenseWithAClearMessage(input: String) {
        #expect {
            try DistanceMarker(parsing: input)
        } throws: { error in
            guard let error = error as? RunTrackingError else { return false }
            return error.code == .invalidMarker && error.message.contains("'\(input)'")
                && error.message.count > "invalid distance marker ''".count + input.count
        }
    }

    @Test func resolvesAgainstThePlannedDistance() throws {
        #expect(try DistanceMarker(parsing: "5km").resolvedMeters(plannedDistance: nil) == 5000)
        #expect(try DistanceMarker(parsing: "halfway").resolvedMeters(plannedDistance: 21_097.5) == 10_548.75)
        #expect(try DistanceMarker(parsing: "finish").resolvedMeters(plannedDistance: 10_000) == 10_000)
        #expect(try DistanceMarker(parsing: "finish-1km").resolvedMeters(plannedDistance: 10_000) == 9_000)
    }

    @Test func relativeMarkerWithoutPlannedDistanceIsAClearError() {
        #expect(throws: RunTrackingError.self) {
            try DistanceMarker(parsing: "50%").resolvedMeters(plannedDistance: nil)
        }
        #expect(throws: RunTrackingError.self) {
            try DistanceMarker(parsing: "finish-20km").resolvedMeters(plannedDistance: 10_000)
        }
    }

    @Test func codableUsesTheCanonicalForm() throws {
        let data = try JSONEncoder().encode([DistanceMarker.percent(50), .beforeFinish(meters: 1000)])
        #expect(String(decoding: data, as: UTF8.self) == #"["50%","finish-1000m"]"#)
        #expect(try JSONDecoder().decode([DistanceMarker].self, from: data) == [.percent(50), .beforeFinish(meters: 1000)])
    }
}
