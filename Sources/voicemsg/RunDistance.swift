import ArgumentParser
import RunTracking

/// A run's length as `--planned-distance` takes it: a distance from the start, such as `10km`,
/// `21.1km` or `26.2mi`, written as an absolute distance marker is. A share of the run or a
/// place before the finish cannot be a length.
struct RunDistance: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var meters: Double

    /// Throws `RunTrackingError.Code.invalidDistance` saying what is wrong with `text`.
    init(parsing text: String) throws {
        func fail(_ why: String) -> RunTrackingError {
            RunTrackingError(.invalidDistance, "invalid distance '\(text)': \(why)")
        }
        let marker: DistanceMarker
        do {
            marker = try DistanceMarker(parsing: text)
        } catch {
            throw fail("expected a length such as 10km, 21.1km or 26.2mi")
        }
        guard case .absolute(let meters) = marker else {
            throw fail("expected a length such as 10km, not a place relative to the run's length")
        }
        guard meters > 0 else { throw fail("a run is longer than 0 m") }
        self.meters = meters
    }

    init?(argument: String) {
        try? self.init(parsing: argument)
    }

    var description: String { DistanceMarker.absolute(meters: meters).canonical }
}
