import Foundation
import GPXReplay
import RunTracking
import Testing
import TestSupport

/// `voicemsg simulate --course`, as docs/cli.md promises it, run through the built binary.
@Suite struct SimulateCourseTests {
    static let track = CommandLineContractTests.track

    /// The track's points, and a course made of them with a 400 m square loop added at the
    /// 2000th metre, which the runner (the track) leaves out: a short cut.
    static func courseWithLoop(in folder: URL) throws -> (course: String, points: [(Double, Double)]) {
        let points = try GPXReader.read(contentsOfFile: track).points.map { ($0.latitude, $0.longitude) }
        var walked = 0.0, at = 0
        while walked < 2000, at + 1 < points.count {
            walked += Geodesic.localDistance(fromLatitude: points[at].0, longitude: points[at].1, toLatitude: points[at + 1].0, longitude: points[at + 1].1)
            at += 1
        }
        let corner = points[at]
        let perEast = 111_319.488 * cos(corner.0 * .pi / 180), perNorth = 111_132.954
        // Out and round a 100 m square to the side, back to where it left.
        let loop = [(0.0, 0.0), (-100, 0), (-100, 100), (0, 100), (0, 0)].map { (corner.0 + $0.1 / perNorth, corner.1 + $0.0 / perEast) }
        let course = Array(points[...at]) + loop.dropFirst() + points[(at + 1)...]
        return (try write(course: course, named: "course.gpx", in: folder), points)
    }

    @Test func aShortCutIsSaidInTheTableTheJSONAndThePlot() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let halfway = folder.appendingPathComponent("halfway.opus").path
        let encode = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", halfway, "--marker", "halfway"])
        try #require(encode.status == 0, "\(encode.standardError)")
        let (course, _) = try Self.courseWithLoop(in: folder)
        let svg = folder.appendingPathComponent("run.svg").path

        // No --planned-distance: the course's length is the plan, and "halfway" is half of it.
        let json = try Tool.voicemsg(["simulate", "--gpx", Self.track, "--course", course, halfway, "--json", "--svg", svg])
        try #require(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any])
        let summary = try #require(object["course"] as? [String: Any])
        let length = try #require(summary["lengthMeters"] as? Double)
        #expect(object["plannedDistanceMeters"] as? Double == length)
        let plays = try #require(object["plays"] as? [[String: Any]])
        #expect(abs((plays.first?["markerMeters"] as? Double ?? 0) - length / 2) < 1e-6)
        // Today's fields, every one.
        for key in ["file", "marker", "markerMeters", "startSeconds", "startMeters", "endSeconds", "latenessMeters", "pathLatenessMeters", "reason"] {
            #expect(plays.first?[key] != nil, "plays lost \(key)")
        }
        let excursions = try #require(summary["excursions"] as? [[String: Any]])
        let cut = try #require(excursions.first { ($0["skippedMeters"] as? Double ?? 0) > 300 }, "no short cut in \(excursions)")
        #expect(abs((cut["leftMeters"] as? Double ?? 0) - 2000) <= 40, "\(cut)")
        // The 400 m loop, and the course run beside it before the runner was found off it.
        let skipped = cut["skippedMeters"] as? Double ?? 0
        #expect(skipped >= 400 - 40 && skipped <= 400 + 200, "\(cut)")

        let table = try Tool.voicemsg(["simulate", "--gpx", Self.track, "--course", course, halfway]).text
        #expect(table.contains("a short cut") && table.contains("off the course: left it at 2.0"), "\(table)")
        let plot = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(plot.contains("off course at 2.0") && plot.contains("short cut of"))
    }

    /// A course given as route points, written into `folder`.
    static func write(course: [(Double, Double)], named name: String, in folder: URL) throws -> String {
        let text = "<?xml version=\"1.0\"?><gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><rte>"
            + course.map { "<rtept lat=\"\($0.0)\" lon=\"\($0.1)\"/>" }.joined() + "</rte></gpx>"
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aRunThatBeginsAwayFromTheCourseSaysSoAndWhenItJoinedIt() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = folder.appendingPathComponent("km1.opus").path
        try #require(try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", message, "--marker", "1km"]).status == 0)
        let points = try GPXReader.read(contentsOfFile: Self.track).points.map { ($0.latitude, $0.longitude) }
        // A warm-up: the course begins a third of the way along the track.
        let warmUp = try Self.write(course: Array(points[(points.count / 3)...]), named: "later.gpx", in: folder)
        let joined = try Tool.voicemsg(["simulate", "--gpx", Self.track, "--course", warmUp, message, "--json"])
        try #require(joined.status == 0, "\(joined.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: joined.standardOutput) as? [String: Any])
        let summary = try #require(object["course"] as? [String: Any])
        let away = try #require(summary["startedAwayMeters"] as? Double, "\(summary)")
        #expect(away > 100, "\(summary)")
        let first = try #require((summary["excursions"] as? [[String: Any]])?.first)
        #expect(first["leftSeconds"] as? Double == 0 && first["rejoinedMeters"] != nil, "\(first)")
        let table = try Tool.voicemsg(["simulate", "--gpx", Self.track, "--course", warmUp, message]).text
        #expect(table.contains("off the course from the start: the first fix was") && table.contains(", on it from "), "\(table)")
        #expect(!table.contains("stayed on the course"))

        // A course of another place: the run never reaches it, and the table says so.
        let elsewhere = try Self.write(course: points.map { ($0.0 + 1, $0.1) }, named: "elsewhere.gpx", in: folder)
        let never = try Tool.voicemsg(["simulate", "--gpx", Self.track, "--course", elsewhere, message]).text
        #expect(never.contains("km from its start, and the run never reached it"), "\(never)")
        #expect(!never.contains("stayed on the course"))
    }

    @Test func aFileThatCannotBeACourseIsOneLineAndNoTable() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = folder.appendingPathComponent("km1.opus").path
        try #require(try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", message, "--marker", "1km"]).status == 0)
        let course = folder.appendingPathComponent("dot.gpx").path
        try Data("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><rte><rtept lat=\"47\" lon=\"8\"/></rte></gpx>".utf8)
            .write(to: URL(fileURLWithPath: course))
        let refused = try Tool.voicemsg(["simulate", "--gpx", Self.track, "--course", course, message])
        #expect(refused.status == 1, "\(refused.standardError)")
        #expect(refused.errorLines == ["\(course): the course needs at least 2 distinct points; it has 1"], "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
    }
}
