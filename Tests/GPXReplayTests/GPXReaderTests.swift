import Foundation
import Testing
import GPXReplay
import RunTracking

struct GPXReaderTests {
    static func read(_ text: String, bom: Bool = false) throws -> GPXTrack {
        var data = Data(bom ? [0xEF, 0xBB, 0xBF] : [])
        data.append(Data(text.utf8))
        return try GPXReader.read(data: data, name: "test.gpx")
    }

    static func gpx11(_ body: String, extraNamespaces: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" \(extraNamespaces)>
        \(body)
        </gpx>
        """
    }

    @Test func gpx10WithSpeedAndSeveralTracksAndSegments() throws {
        let track = try Self.read("""
            <?xml version="1.0"?>
            <gpx version="1.0" creator="old" xmlns="http://www.topografix.com/GPX/1/0">
              <wpt lat="1" lon="1"><name>ignored</name></wpt>
              <trk><trkseg>
                <trkpt lat="52.0" lon="13.0"><time>2020-01-01T10:00:00Z</time><speed>3.1</speed></trkpt>
                <trkpt lat="52.0001" lon="13.0"><time>2020-01-01T10:00:01Z</time></trkpt>
              </trkseg><trkseg>
                <trkpt lat="52.0002" lon="13.0"><time>2020-01-01T10:00:02Z</time></trkpt>
              </trkseg></trk>
              <trk><trkseg>
                <trkpt lat="52.0003" lon="13.0"><time>2020-01-01T10:00:03Z</time></trkpt>
              </trkseg></trk>
            </gpx>
            """)
        #expect(track.version == "1.0")
        #expect(track.points.count == 4)
        #expect(track.segmentCount == 3)
        #expect(track.ignoredWaypointCount == 1)
        #expect(track.points[0].speed == 3.1)
        #expect(track.points.map(\.segment) == [0, 0, 1, 2])
    }

    @Test(arguments: [
        ("2020-01-01T10:00:00Z", 1_577_872_800.0),
        ("2020-01-01T10:00:00", 1_577_872_800.0),  // no zone: UTC, as GPX 1.1 says
        ("2020-01-01T12:00:00+02:00", 1_577_872_800.0),
        ("2020-01-01T05:30:00-0430", 1_577_872_800.0),
        ("2020-01-01T10:00:00.5Z", 1_577_872_800.5),
        ("2020-01-01T10:00:00.123456789Z", 1_577_872_800.123456789),
        ("2021-04-16T13:37:53.000Z", 1_618_580_273.0),
    ])
    func timeForms(text: String, seconds: Double) throws {
        let track = try Self.read(Self.gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>\(text)</time></trkpt></trkseg></trk>"))
        let time = try #require(track.points[0].time)
        #expect(abs(time - seconds) < 1e-6)
    }

    @Test func extensionsAreMatchedByNamespaceNotPrefix() throws {
        let track = try Self.read(Self.gpx11("""
            <trk><trkseg>
              <trkpt lat="1" lon="2"><time>2020-01-01T10:00:00Z</time><extensions>
                <weird:accuracy_horizontal>4.5</weird:accuracy_horizontal><weird:speed>2.5</weird:speed>
              </extensions></trkpt>
              <trkpt lat="1" lon="2.0001"><time>2020-01-01T10:00:01Z</time><extensions>
                <g:TrackPointExtension><g:speed>3.5</g:speed></g:TrackPointExtension>
                <opentracks:accuracy_horizontal>9</opentracks:accuracy_horizontal>
              </extensions></trkpt>
            </trkseg></trk>
            """, extraNamespaces: """
            xmlns:weird="http://opentracksapp.com/xmlschemas/v1" \
            xmlns:g="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xmlns:opentracks="http://example.com/not-opentracks"
            """))
        #expect(track.points[0].horizontalAccuracy == 4.5)
        #expect(track.points[0].speed == 2.5)
        #expect(track.points[1].speed == 3.5)
        // The prefix says opentracks, but the namespace is another one: not an accuracy.
        #expect(track.points[1].horizontalAccuracy == nil)
    }

    @Test func byteOrderMarkIsAccepted() throws {
        let track = try Self.read(Self.gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk>"), bom: true)
        #expect(track.points.count == 1)
    }

    @Test func impossibleCoordinatesAreDropped() throws {
        let track = try Self.read(Self.gpx11("""
            <trk><trkseg>
              <trkpt lat="1" lon="2"/><trkpt lat="100" lon="0"/><trkpt lat="200" lon="200"/>
              <trkpt lat="1" lon="181"/><trkpt lat="1.0001" lon="2"/>
            </trkseg></trk>
            """))
        #expect(track.points.count == 2)
        #expect(track.rejectedPointCount == 3)
    }

    @Test func routeNeedsAPace() throws {
        let track = try Self.read(Self.gpx11("""
            <rte><rtept lat="0" lon="0"/><rtept lat="0" lon="0.01"/><rtept lat="0" lon="0.02"/></rte>
            """))
        #expect(track.points.allSatisfy { $0.kind == .route })
        #expect(throws: GPXError.self) { try track.fixes() }
        let fixes = try track.fixes(pace: Pace(parsing: "6:00/km"))
        // 0.02° of longitude at the equator is 2226.4 m: 801.5 s at 6:00/km.
        #expect(abs(fixes.last!.time - 2226.39 * 0.36) < 0.1)
    }

    @Test func missingTimesAreInterpolatedAndEndsUseThePace() throws {
        let track = try Self.read(Self.gpx11("""
            <trk><trkseg>
              <trkpt lat="0" lon="0"/>
              <trkpt lat="0" lon="0.001"><time>2020-01-01T10:00:00Z</time></trkpt>
              <trkpt lat="0" lon="0.002"/>
              <trkpt lat="0" lon="0.003"><time>2020-01-01T10:01:00Z</time></trkpt>
            </trkseg></trk>
            """))
        let fixes = try track.fixes(pace: Pace(parsing: "5:00/km"))
        #expect(abs(fixes[2].time - (fixes[1].time + 30)) < 0.01)
        #expect(abs(fixes[1].time - fixes[0].time - 111.32 * 0.3) < 0.1)
    }

    @Test func backwardsTracksAreShiftedAndDuplicatesKept() throws {
        let track = try Self.read(Self.gpx11("""
            <trk><trkseg>
              <trkpt lat="0" lon="0"><time>2020-01-01T10:00:00Z</time></trkpt>
              <trkpt lat="0" lon="0.0001"><time>2020-01-01T10:00:01Z</time></trkpt>
              <trkpt lat="0" lon="0.0002"><time>2020-01-01T10:00:01Z</time></trkpt>
              <trkpt lat="0" lon="0.0003"><time>2020-01-01T09:59:00Z</time></trkpt>
            </trkseg></trk>
            <trk><trkseg>
              <trkpt lat="0" lon="0.0004"><time>2020-01-01T09:00:00Z</time></trkpt>
              <trkpt lat="0" lon="0.0005"><time>2020-01-01T09:00:02Z</time></trkpt>
            </trkseg></trk>
            """))
        let times = try track.fixes().map { $0.time - 1_577_872_800 }
        // The backwards point inside a segment is dropped; the second track follows the first.
        #expect(times == [0, 1, 1, 2, 4])
    }

    @Test(arguments: [
        ("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n</trkseg></trk></gpx>", "line 4"),
        ("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk></trk></gpx>", "no track or route points"),
        ("<kml><Placemark/></kml>", "not a GPX file"),
        ("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>yesterday</time></trkpt></trkseg></trk></gpx>", "line 2"),
        ("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><wpt lat=\"1\" lon=\"2\"/></gpx>", "no track or route points"),
        ("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">", "malformed XML"),
        ("hello, I am not XML", "line 1"),
        ("", "not a GPX file"),
    ])
    func badInputIsAClearError(text: String, fragment: String) throws {
        let error = try #require(throws: GPXError.self) { try Self.read(text) }
        #expect(error.description.hasPrefix("test.gpx: "))
        print(error.description)
        #expect(error.description.contains(fragment), "\(error.description)")
    }

    @Test func pointsWithoutTimesOrPaceIsAClearError() throws {
        let track = try Self.read(Self.gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"/><trkpt lat=\"1\" lon=\"2.001\"/></trkseg></trk>"))
        let error = try #require(throws: GPXError.self) { try track.fixes() }
        #expect(error.description.contains("--pace"))
    }

    @Test(arguments: [("6:00/km", 360.0), ("6:00", 360.0), ("9:39/mi", 359.77), (" 4:05 / KM ", 245.0)])
    func paces(text: String, secondsPerKilometer: Double) throws {
        #expect(abs(try Pace(parsing: text).secondsPerKilometer - secondsPerKilometer) < 0.01)
    }

    @Test(arguments: ["6", "6:0", "0:00/km", "6:60", "fast", "6:00/h"])
    func badPaces(text: String) {
        #expect(throws: RunTrackingError.self) { try Pace(parsing: text) }
    }
}
