import Foundation

/// The code between a test file's `// Article begin` and `// Article end` comments, with the
/// test's `indentation` taken off each line: a DocC article's example, word for word, so a
/// test can check that the article shows the code it compiles and runs. Nil when the file has
/// no such comments at that indentation.
public func articleBlock(inTestFile path: String, indentation: Int) throws -> String? {
    let source = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
    let indent = String(repeating: " ", count: indentation)
    guard let begin = source.range(of: indent + "// Article begin\n"),
        let end = source.range(of: indent + "// Article end\n")
    else { return nil }
    return source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.hasPrefix(indent) ? String($0.dropFirst(indentation)) : String($0) }.joined(separator: "\n")
}
