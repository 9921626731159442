import Foundation
import Testing
import TestSupport

/// `inspect` and `simulate` print a tag holding terminal escapes (an older server stored them)
/// escaped, never raw.
@Suite struct EscapedTagTests {
    @Test func inspectAndSimulateEscapeControlCharactersInTags() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("message.opus").path
        let hostile = "\u{1B}[31mRED\u{7}\u{202E}"
        let encode = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output,
                                        "--marker", "1km", "--sender", hostile])
        try #require(encode.status == 0, "\(encode.standardError)")

        let inspect = try Tool.voicemsg(["inspect", output])
        try #require(inspect.status == 0, "\(inspect.standardError)")
        let text = String(decoding: inspect.standardOutput, as: UTF8.self)
        #expect(text.contains("\\u{1B}[31mRED\\u{7}\\u{202E}"), "\(text)")
        #expect(!text.contains("\u{1B}") && !text.contains("\u{7}") && !text.contains("\u{202E}"))

        let simulate = try Tool.voicemsg(["simulate", "--gpx", ArgumentParsingTests.gpx, output])
        if simulate.status == 0 {
            let table = String(decoding: simulate.standardOutput, as: UTF8.self)
            #expect(table.contains("\\u{1B}[31mRED"), "\(table)")
            #expect(!table.contains("\u{1B}"))
        } else {
            Issue.record("simulate failed: \(simulate.standardError)")
        }
    }
}
