import Foundation
import GPXReplay
import RunTracking
import Testing
import TestSupport

/// The example of GPXReplay's "Replay a run" article (the DocC catalogue's ReplayingARun.md),
/// compiled and run on a bundled track. The code between the `Article` comments is the
/// article's code block, word for word; the last test checks that.
struct ReplayArticleExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // Article begin
    /// Replays the run recorded in the GPX file at `path` with three friends' messages, and says
    /// where each one started.
    func replay(gpx path: String) throws -> [String] {
        let fixes = try GPXReader.read(contentsOfFile: path).fixes()
        let messages = [
            RunSimulator.Message(file: "anna.opus", sender: "Anna", marker: try DistanceMarker(parsing: "1km"), durationSeconds: 8),
            RunSimulator.Message(file: "ben.opus", sender: "Ben", marker: try DistanceMarker(parsing: "halfway"), durationSeconds: 12),
            RunSimulator.Message(file: "cleo.opus", sender: "Cleo", marker: .finish, durationSeconds: 6),
        ]
        // Halfway and the finish need the run's length: here, what the tracker counts on it.
        let planned = RunSimulator.trackedDistance(of: fixes)
        let timeline = try RunSimulator.simulate(
            fixes: fixes, messages: messages, configuration: .init(scheduler: .init(plannedDistance: planned)))
        return timeline.plays.map { play in
            let off = Int(play.latenessMeters.rounded())  // past its marker; negative: before it
            return "\(play.sender ?? play.file): \(play.marker) at \(Int(play.startMeters)) m, \(Int(play.startSeconds)) s in (\(off >= 0 ? "+" : "")\(off) m)"
        }
    }
    // Article end

    /// A watch's smart recording: the three messages start in marker order, each named with
    /// its canonical marker, the first within 15 m of its kilometre and the last at the end.
    @Test func theExampleReplaysARecordedRun() throws {
        let gpx = Self.root.appendingPathComponent("samples/gpx/garmin-run-smart-recording.gpx").path
        let lines = try replay(gpx: gpx)
        for line in lines { print(line) }
        #expect(lines.count == 3)
        #expect(lines.map { $0.prefix { $0 != ":" } } == ["Anna", "Ben", "Cleo"])
        #expect(lines.map { $0.split(separator: " ")[1] } == ["1000m", "50%", "finish"])
        // "Anna: 1000m at 1003 m, 330 s in (+3 m)": where the first one started.
        let words = try #require(lines.first).split(separator: " ")
        let startMeters = try #require(Double(words[3]))
        #expect(abs(startMeters - 1000) <= 15, "\(lines[0])")
        // The finish plays once the fixes end: at the tracker's own total, which was the plan.
        let fixes = try GPXReader.read(contentsOfFile: gpx).fixes()
        let total = RunSimulator.trackedDistance(of: fixes)
        let finish = try #require(Double(lines[2].split(separator: " ")[3]))
        #expect(abs(finish - total) <= 15, "\(lines[2]), the tracker counted \(total) m")
    }

    /// A file that is not GPX is one line naming it, not a replay.
    @Test func aFileThatIsNotGPXIsRefusedInOneLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-article-\(UUID().uuidString).gpx").path
        try Data("<html><body>not a track</body></html>".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: GPXError.self) { try replay(gpx: path) }
        #expect(error.description.hasPrefix(path + ": ") && !error.description.contains("\n"), "\(error)")
    }

    @Test func theArticleShowsThisCode() throws {
        let block = try #require(try articleBlock(inTestFile: #filePath, indentation: 4))
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/GPXReplay/GPXReplay.docc/ReplayingARun.md"), encoding: .utf8)
        #expect(article.contains(block), "the article's example differs from this test's code")
    }
}
