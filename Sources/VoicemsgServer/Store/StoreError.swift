/// What went wrong in a store, on any backend: a code to act on, a message for people, and the
/// driver's own error as the cause, for logs.
///
/// Each backend turns its driver's errors (GRDB's, postgres-nio's) into this at its boundary,
/// so that nothing above the store (the HTTP layer, the workers, the commands) depends on a
/// driver. Callers switch on `code`; `message` is one line, fit to show an operator;
/// `String(reflecting:)` adds the code and the cause.
public struct StoreError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    /// The kinds of failure callers tell apart. A struct over a private enum, so that a new kind
    /// breaks no `switch` outside this module.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case unreachable
            case storageFull
            case conflict
            case misconfigured
            case unreadableRow
            case unexpected
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The database could not be reached (refused, lost or closed connections, a server
        /// shutting down). Nothing is known to have changed; the same call may succeed later.
        public static let unreachable = Code(.unreachable)
        /// The database's disk is full. The change was rolled back whole; it may succeed once
        /// space is freed.
        public static let storageFull = Code(.storageFull)
        /// The change collides with a row already stored (a unique key); it was rolled back.
        public static let conflict = Code(.conflict)
        /// The store cannot be used as it was given: a malformed URL, refused credentials, a
        /// database or folder that does not exist or cannot be written.
        public static let misconfigured = Code(.misconfigured)
        /// A stored row could not be read: a column holds a value or a type this version does
        /// not know.
        public static let unreadableRow = Code(.unreadableRow)
        /// Anything else the database refused; the cause says what.
        public static let unexpected = Code(.unexpected)

        public var description: String {
            switch base {
            case .unreachable: "unreachable"
            case .storageFull: "storageFull"
            case .conflict: "conflict"
            case .misconfigured: "misconfigured"
            case .unreadableRow: "unreadableRow"
            case .unexpected: "unexpected"
            }
        }
    }

    public var code: Code
    /// One line for people: what failed and, where known, the database's own words for why.
    public var message: String
    /// The driver's error this one stands for, kept for logs.
    public var cause: (any Error)?

    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public var description: String { message }

    public var debugDescription: String {
        guard let cause else { return "\(code): \(message)" }
        return "\(code): \(message) (cause: \(String(reflecting: cause)))"
    }

    /// `error` with what was being done before its message; an error that is not a
    /// `StoreError` (a cancellation) unchanged.
    static func context(_ doing: String, _ error: any Error) -> any Error {
        guard let error = error as? StoreError else { return error }
        return StoreError(error.code, "\(doing): \(error.message)", cause: error.cause)
    }
}
