import Foundation
import GPXReplay
import RunTracking
import Testing

/// A GPX file read as a race's course: its track, segments joined, or else its route; and
/// every file that cannot be one refused with a reason, nothing half read.
struct GPXCourseTests {
    /// Places `meters` east of a start in Zürich, as GPX attributes.
    static func point(_ tag: String, east meters: Double, north: Double = 0) -> String {
        let latitude = 47.37 + north / 111_132.954, longitude = 8.54 + meters / (111_319.488 * cos(47.37 * .pi / 180))
        return "<\(tag) lat=\"\(latitude)\" lon=\"\(longitude)\"/>"
    }

    static func gpx(_ body: String) -> Data {
        Data("<?xml version=\"1.0\"?><gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\(body)</gpx>".utf8)
    }

    static func course(_ body: String) throws -> Course {
        try GPXReader.readCourse(data: gpx(body), name: "course.gpx")
    }

    static func refusal(_ body: String) throws -> GPXError {
        try #require(throws: GPXError.self) { try course(body) }
    }

    @Test func aTracksSegmentsAreJoinedInOrder() throws {
        let course = try Self.course("""
            <trk><trkseg>\(Self.point("trkpt", east: 0))\(Self.point("trkpt", east: 200))</trkseg>
            <trkseg>\(Self.point("trkpt", east: 200))\(Self.point("trkpt", east: 200, north: 300))</trkseg></trk>
            <trk><trkseg>\(Self.point("trkpt", east: 0, north: 300))</trkseg></trk>
            """)
        // The repeated place where the segments meet is one place.
        #expect(course.points.count == 4)
        // Metres on a flat map, within 0.2% of the ellipsoid's here.
        #expect(abs(course.length - 700) < 1.4, "\(course.length)")
    }

    @Test func aRouteIsTheCourseWhenThereIsNoTrackAndATrackWinsOverARoute() throws {
        let route = "<rte>\(Self.point("rtept", east: 0))\(Self.point("rtept", east: 500))</rte>"
        #expect(abs(try Self.course(route).length - 500) < 1)
        let track = "<trk><trkseg>\(Self.point("trkpt", east: 0))\(Self.point("trkpt", east: 0, north: 250))</trkseg></trk>"
        #expect(abs(try Self.course(route + track).length - 250) < 0.5)
        // Waypoints are places, not a way.
        #expect(abs(try Self.course("<wpt lat=\"1\" lon=\"1\"/>" + route).length - 500) < 1)
    }

    @Test(arguments: [
        ("<trk><trkseg>\(point("trkpt", east: 0))</trkseg></trk>", "course.gpx: the course needs at least 2 distinct points; it has 1"),
        ("<rte>\(point("rtept", east: 0))\(point("rtept", east: 0))</rte>", "course.gpx: the course needs at least 2 distinct points; it has 1"),
        ("<rte>\(point("rtept", east: 0))\(point("rtept", east: 80))</rte>", "course.gpx: the course is 80 m long; a course must be at least 100 m"),
        ("<rte>\(point("rtept", east: 0))<rtept lat=\"95\" lon=\"2\"/></rte>",
         "course.gpx: the course needs at least 2 distinct points; it has 1 (1 more point was left out: not a place on Earth)"),
        ("<rte>\(point("rtept", east: 0))\(point("rtept", east: 0, north: 1_500_000))</rte>", "km long; a course must be at most 1000 km"),
    ])
    func whatCannotBeACourseIsRefusedInOneLine(body: String, line: String) throws {
        let error = try Self.refusal(body)
        #expect(error.code == .invalidCourse)
        // The whole line, but for the length of the long course: a degree of latitude is not
        // the same number of metres everywhere.
        #expect(error.description == line || (line.hasPrefix("km") && error.description.hasSuffix(line)), "\(error)")
    }

    @Test func aFileWithoutPointsOrNotGPXIsRefusedAsTheReaderRefusesIt() throws {
        #expect(try Self.refusal("<metadata/>").description == "course.gpx: the GPX has no track or route points")
        let notGPX = try #require(throws: GPXError.self) { try GPXReader.readCourse(data: Data("{\"type\": \"LineString\"}".utf8), name: "course.json") }
        #expect(notGPX.code == .malformed)
        let missing = try #require(throws: GPXError.self) { try GPXReader.readCourse(contentsOfFile: "/nonexistent/course.gpx") }
        #expect(missing.code == .io)
    }

    @Test(.timeLimit(.minutes(2)))
    func moreThan200000PointsAreRefusedWhereThe200001stIs() throws {
        // 250,000 points, 0.4 m apart: the reader stops at the one too many.
        var body = "<rte>"
        body.reserveCapacity(250_000 * 60)
        for index in 0..<250_000 { body += Self.point("rtept", east: Double(index) * 0.4) }
        body += "</rte>"
        let error = try Self.refusal(body)
        #expect(error.code == .invalidCourse)
        #expect(error.description == "course.gpx: the course has more than 200000 points; at most 200000 are taken")
    }

    @Test(.timeLimit(.minutes(1)))
    func hostileFilesAreRefusedAsTheTrackReaderRefusesThem() throws {
        let error = try #require(throws: GPXError.self) {
            try GPXReader.readCourse(data: Data(GPXHostileInputTests.billionLaughs.utf8), name: "course.gpx")
        }
        #expect(error.code == .malformed && error.description.contains("billion laughs"))
    }

    @Test func aRealTrackIsACourseAsLongAsItsPointsAddUp() throws {
        let path = PlaybackFixtures.gpxPath("strava-run-with-pauses.gpx")
        let course = try GPXReader.readCourse(contentsOfFile: path)
        let track = try GPXReader.read(contentsOfFile: path)
        var sum = 0.0
        for (before, point) in zip(track.points, track.points.dropFirst()) {
            sum += Geodesic.distance(fromLatitude: before.latitude, longitude: before.longitude, toLatitude: point.latitude, longitude: point.longitude)
        }
        #expect(abs(course.length - sum) < 0.01)
        #expect(course.points.count <= track.points.count)
    }
}
