import ArgumentParser
import RunTracking

/// A marker as an argument, parsed by ArgumentParser, so that a bad one is a usage error
/// (exit 64). Options also pass `transform: DistanceMarker.init(parsing:)`: ArgumentParser
/// then shows the parser's reason ("expected a distance in m, km or mi...") and not only
/// "invalid value".
extension DistanceMarker: ExpressibleByArgument {
    public init?(argument: String) {
        try? self.init(parsing: argument)
    }
}
