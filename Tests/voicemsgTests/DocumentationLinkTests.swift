import Foundation
import Testing

/// Every relative link in the README and docs/ leads to a file that exists, and a link to a
/// heading (`file.md#heading`) to a heading that exists, as GitHub names its anchors: a doc
/// moved or a section renamed breaks no reader's path.
@Suite struct DocumentationLinkTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// README.md, THIRD_PARTY_NOTICES.md and every Markdown file under docs/, relative to the root.
    static let documents: [String] = {
        var paths = ["README.md", "THIRD_PARTY_NOTICES.md"]
        let docs = root.appendingPathComponent("docs")
        let found = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil)?
            .compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".md") } ?? []
        paths += found.map { String($0.dropFirst(root.path.count + 1)) }.sorted()
        return paths
    }()

    /// A broken link: where it is written, and what it points to.
    struct Broken: Equatable, CustomStringConvertible {
        var target: String
        var reason: String
        var description: String { "\(target): \(reason)" }
    }

    /// The relative links of `text`, the Markdown document at `document`, that lead nowhere.
    /// Links inside code (fenced blocks, `spans`) are not links; `scheme:` links are not relative.
    static func brokenLinks(in text: String, document: URL) throws -> [Broken] {
        let prose = try text.replacing(Regex("(?s)```.*?```"), with: "").replacing(Regex("`[^`\n]*`"), with: "")
        let folder = document.deletingLastPathComponent()
        var broken: [Broken] = []
        for match in prose.matches(of: try Regex(#"\]\(([^)\s]+)\)"#, as: (Substring, Substring).self)) {
            let target = String(match.output.1)
            if target.firstMatch(of: try Regex("^[a-z]+:")) != nil { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0]), anchor = parts.count > 1 ? String(parts[1]) : nil
            let file = path.isEmpty ? document : folder.appendingPathComponent(path).standardizedFileURL
            if !FileManager.default.fileExists(atPath: file.path) {
                broken.append(Broken(target: target, reason: "no such file"))
                continue
            }
            if let anchor, let anchors = Self.anchors(of: file), !anchors.contains(anchor) {
                broken.append(Broken(target: target, reason: "no heading with that anchor"))
            }
        }
        return broken
    }

    /// GitHub's anchor for each heading of the Markdown file at `url`: lower case, punctuation
    /// other than hyphens and underscores dropped, spaces as hyphens. Nil when it is not
    /// Markdown.
    static func anchors(of url: URL) -> Set<String>? {
        guard url.pathExtension == "md", let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        var anchors: Set<String> = [], inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            var kept = String.UnicodeScalarView()
            kept.append(contentsOf: heading.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
            })
            anchors.insert(String(kept).replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }

    @Test(arguments: documents)
    func everyRelativeLinkResolves(_ document: String) throws {
        let url = Self.root.appendingPathComponent(document)
        let text = try String(contentsOf: url, encoding: .utf8)
        let broken = try Self.brokenLinks(in: text, document: url)
        #expect(broken.isEmpty, "\(document): \(broken)")
    }

    /// The control: the check finds the README's links, and tells a broken file and a broken
    /// anchor from good ones.
    @Test func theCheckFindsLinksAndTellsBrokenOnes() throws {
        #expect(Self.documents.contains("docs/api.md") && Self.documents.contains("docs/cli.md"))
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.matches(of: try Regex(#"\]\(docs/"#)).count >= 5, "the README links to the docs")
        let sample = """
            See [the API](docs/api.md), [errors](docs/api.md#errors), [the web](https://example.com),
            [gone](docs/gone.md), [nowhere](docs/api.md#no-such-heading) and `[code](docs/x.md)`.
            ```
            [fenced](docs/fenced.md)
            ```
            """
        let broken = try Self.brokenLinks(in: sample, document: Self.root.appendingPathComponent("README.md"))
        #expect(broken == [
            Broken(target: "docs/gone.md", reason: "no such file"),
            Broken(target: "docs/api.md#no-such-heading", reason: "no heading with that anchor"),
        ])
    }
}
