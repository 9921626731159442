/// A store that cannot be opened or used; the message says what to fix.
public struct StoreError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
