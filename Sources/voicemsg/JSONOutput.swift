import SystemPackage
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
        write(data + Data("\n".utf8), to: .standardOutput)
    }
}

/// One line on stderr.
func printError(_ line: String) {
    write(Data((line + "\n").utf8), to: .standardError)
}

/// Writes `bytes` to stdout or stderr whole and unbuffered, so that a line on stderr and the
/// JSON on stdout arrive in the order they were written. A closed pipe leaves nothing to say.
func write(_ bytes: Data, to stream: FileDescriptor) {
    _ = bytes.withUnsafeBytes { try? stream.writeAll($0) }
}
