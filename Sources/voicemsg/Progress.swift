#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A one-line progress counter on stderr, shown only when stderr is a terminal.
///
/// Only the task that collects the results advances it, so it needs no lock and is not
/// `Sendable`.
struct Progress {
    private let total: Int
    private var done = 0
    let isVisible: Bool

    init(total: Int) {
        self.total = total
        self.isVisible = total > 1 && isatty(STDERR_FILENO) == 1
    }

    mutating func advance(_ name: String, ok: Bool) {
        guard isVisible else { return }
        done += 1
        let line = "\r\u{1B}[K[\(done)/\(total)] \(ok ? "done" : "failed"): \(name)"
        write(Data(line.utf8), to: .standardError)
        if done == total { write(Data("\n".utf8), to: .standardError) }
    }
}
