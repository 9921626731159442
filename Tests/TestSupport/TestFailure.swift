/// A test's own failure, saying in words what went wrong: a tool that failed, hung or could not
/// be started, a server that did not answer, a fixture that could not be made.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
