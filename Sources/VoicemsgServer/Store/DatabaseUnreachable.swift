/// The database could not be reached for a call; the store has logged the outage once, so
/// callers retry quietly after a backoff.
struct DatabaseUnreachable: Error, CustomStringConvertible {
    let description: String
}
