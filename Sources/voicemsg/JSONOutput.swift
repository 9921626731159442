#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Prints values as JSON on stdout: one object for one item, an array for several.
enum JSONOutput {
    /// `asArray` follows the inputs the user gave, not the items: two inputs give an array
    /// even when one of them has nothing to show.
    static func print<T: Encodable>(_ items: [T], asArray: Bool? = nil) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let array = asArray ?? (items.count != 1)
        let data = !array && items.count == 1 ? try encoder.encode(items[0]) : try encoder.encode(items)
        writeAll(data + Data("\n".utf8), to: STDOUT_FILENO)
    }
}

/// One line on stderr.
func printError(_ line: String) {
    writeAll(Data((line + "\n").utf8), to: STDERR_FILENO)
}

/// Writes `bytes` to `descriptor` whole, unbuffered, so that a line on stderr and the JSON on
/// stdout arrive in the order they were written.
func writeAll(_ bytes: Data, to descriptor: Int32) {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }  // a closed pipe: nothing more can be said
            offset += written
        }
    }
}
