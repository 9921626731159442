import Foundation

/// Prints values as JSON on stdout: one object for one item, an array for several.
enum JSONOutput {
    /// `asArray` follows the inputs the user gave, not the items: two inputs give an array
    /// even when one of them has nothing to show.
    static func print<T: Encodable>(_ items: [T], asArray: Bool? = nil) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let array = asArray ?? (items.count != 1)
        let data = !array && items.count == 1 ? try encoder.encode(items[0]) : try encoder.encode(items)
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

/// One line on stderr.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
