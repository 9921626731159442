import ArgumentParser
import RunTracking

/// A pace as an argument (`6:00/km`), parsed by ArgumentParser like `DistanceMarker`.
extension Pace: ExpressibleByArgument {
    public init?(argument: String) {
        try? self.init(parsing: argument)
    }
}
