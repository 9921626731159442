import Foundation

/// Prints values as JSON on stdout: one object for one item, an array for several.
enum JSONOutput {
    static func print<T: Encodable>(_ items: [T]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = items.count == 1 ? try encoder.encode(items[0]) : try encoder.encode(items)
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

/// One line on stderr.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
