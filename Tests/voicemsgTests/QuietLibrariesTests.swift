import Foundation
import Testing
import TestSupport

/// No C library writes to the CLI's stderr: damaged MP3s make libmpg123 print "Note: Illegal
/// Audio-MPEG-Header", "Trying to resync" and an ID3 warning when it decodes them in-process.
/// Whatever happens, stderr holds voicemsg's own lines only, each naming the file.
@Suite struct QuietLibrariesTests {
    @Test func damagedMP3sLeaveOnlyVoicemsgsOwnLines() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", try Fixtures.speechWAV(), "-c:a", "libmp3lame",
                                "-b:a", "64k", path("speech.mp3")])
        let whole = try Data(contentsOf: URL(fileURLWithPath: path("speech.mp3")))
        var generator = SystemRandomNumberGenerator()
        // Cut mid-frame; an ID3 header that claims nothing, then noise; and MP3 frames with a
        // stretch of zeros in the middle, which mpg123 reports as an illegal header.
        let damaged: [(String, Data)] = [
            ("cut.mp3", whole.prefix(whole.count * 2 / 3)),
            ("id3-noise.mp3", Data("ID3".utf8) + Data([3, 0, 0, 0, 0, 0, 0]) + Data((0..<30_000).map { _ in UInt8.random(in: 0...255, using: &generator) })),
            ("holed.mp3", whole.prefix(whole.count / 3) + Data(count: 4_000) + whole.suffix(whole.count / 3)),
        ]
        for (name, bytes) in damaged {
            try bytes.write(to: URL(fileURLWithPath: path(name)))
            for command in [["inspect", path(name)], ["encode", path(name), "-o", path(name + ".opus"), "--marker", "1km"]] {
                let result = try Tool.voicemsg(command)
                let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: true)
                #expect(lines.allSatisfy { $0.hasPrefix(path(name)) },
                        "\(command[0]) \(name) (exit \(result.status)) wrote lines that are not voicemsg's:\n\(result.standardError)")
                #expect(lines.count <= 1, "\(command[0]) \(name): \(result.standardError)")
            }
        }
    }
}
