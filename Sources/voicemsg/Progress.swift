import Foundation

/// A one-line progress counter on stderr, shown only when stderr is a terminal.
final class Progress: @unchecked Sendable {
    private let total: Int
    private var done = 0
    private let lock = NSLock()
    private let isEnabled: Bool
    var isVisible: Bool { isEnabled }

    init(total: Int) {
        self.total = total
        self.isEnabled = total > 1 && isatty(STDERR_FILENO) == 1
    }

    func advance(_ name: String, ok: Bool) {
        guard isEnabled else { return }
        lock.lock()
        defer { lock.unlock() }
        done += 1
        let line = "\r\u{1B}[K[\(done)/\(total)] \(ok ? "done" : "failed"): \(name)"
        FileHandle.standardError.write(Data(line.utf8))
        if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
