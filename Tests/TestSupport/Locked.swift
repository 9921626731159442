import Foundation

/// A value behind a lock, for the tests' caches of generated fixtures.
///
/// It does what `Synchronization.Mutex` does, on NSLock, because Mutex needs macOS 15 and the
/// package supports macOS 14.
public final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only reached inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
