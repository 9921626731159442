import Foundation
import GPXReplay
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RunTracking
import Testing
import TestSupport

@testable import VoicemsgServer

/// A run's course through the API, on both backends: the owner sends GPX, the server keeps it
/// simplified with its length, friends and the manifest see it, and it is fixed once a message
/// has played. Bad files are refused with their reason, and leave the course as it was.
@Suite struct CourseRouteTests {
    typealias Client = any TestClientProtocol

    /// A winding course of `meters`, a place every metre: east along a sine of 40 m amplitude
    /// and 300 m wavelength, from a start in Lisbon.
    static func winding(meters: Int, spacing: Double = 1) -> [Course.Point] {
        let frame = (latitude: 38.7, longitude: -9.14)
        let metersPerDegreeNorth = 111_000.0
        let metersPerDegreeEast = metersPerDegreeNorth * cos(frame.latitude * .pi / 180)
        var points: [Course.Point] = []
        var east = 0.0, along = 0.0
        while along <= Double(meters) {
            let north = 40 * sin(2 * .pi * east / 300)
            points.append(.init(latitude: frame.latitude + north / metersPerDegreeNorth, longitude: frame.longitude + east / metersPerDegreeEast))
            // Steps along the curve of about `spacing` metres.
            let slope = 40 * 2 * .pi / 300 * cos(2 * .pi * east / 300)
            east += spacing / (1 + slope * slope).squareRoot()
            along += spacing
        }
        return points
    }

    /// GPX 1.1 of `points`, as a track of one segment or as a route.
    static func gpx(_ points: [Course.Point], route: Bool = false) -> String {
        let element = route ? "rtept" : "trkpt"
        let places = points.map { "<\(element) lat=\"\($0.latitude)\" lon=\"\($0.longitude)\"><ele>12.5</ele></\(element)>" }
            .joined(separator: "\n")
        let body = route ? "<rte><name>Course</name>\n\(places)\n</rte>" : "<trk><name>Course</name><trkseg>\n\(places)\n</trkseg></trk>"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="tests" xmlns="http://www.topografix.com/GPX/1/1">
            \(body)
            </gpx>
            """
    }

    static func put(_ client: Client, _ run: CreateRunResponse, _ body: String, token: String? = nil) async throws -> TestResponse {
        var headers = bearer(token ?? run.ownerToken)
        headers[.contentType] = "application/gpx+xml"
        return try await client.execute(
            uri: "/v1/runs/\(run.id)/course", method: .put, headers: headers, body: ByteBuffer(string: body))
    }

    static func info(_ client: Client, _ run: CreateRunResponse, token: String) async throws -> RunInfoResponse {
        let response = try await client.execute(uri: "/v1/runs/\(run.id)", method: .get, headers: bearer(token))
        try #require(response.status == .ok)
        return try json(RunInfoResponse.self, response)
    }

    /// Metres from `place` to the polyline `line`, in a flat frame at `place`.
    static func distance(from place: Course.Point, to line: [[Double]]) -> Double {
        let north = 111_000.0, east = north * cos(place.latitude * .pi / 180)
        func flat(_ point: [Double]) -> (Double, Double) {
            ((point[1] - place.longitude) * east, (point[0] - place.latitude) * north)
        }
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let (ax, ay) = flat(a), (bx, by) = flat(b)
            let (dx, dy) = (bx - ax, by - ay)
            let span = dx * dx + dy * dy
            let share = span > 0 ? min(max(-(ax * dx + ay * dy) / span, 0), 1) : 0
            let (x, y) = (ax + share * dx, ay + share * dy)
            best = min(best, (x * x + y * y).squareRoot())
        }
        return best
    }

    // MARK: Keeping a course

    @Test func theCourseIsKeptSimplifiedAndFriendsAndTheManifestSeeItOnSQLite() async throws { try await theCourseIsKeptSimplifiedAndFriendsAndTheManifestSeeIt(.sqlite) }
    @Test(.needsPostgreSQL) func theCourseIsKeptSimplifiedAndFriendsAndTheManifestSeeItOnPostgreSQL() async throws { try await theCourseIsKeptSimplifiedAndFriendsAndTheManifestSeeIt(.postgres) }
    private func theCourseIsKeptSimplifiedAndFriendsAndTheManifestSeeIt(_ backend: Backend) async throws {
        let places = Self.winding(meters: 5_000)
        let file = try Course(points: places)
        try await TestServer(backend).router { client, _ in
            let run = try await client.createRun(planned: 5_000)
            let response = try await Self.put(client, run, Self.gpx(places))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            #expect(response.headers[.cacheControl] == "private, no-store")
            let kept = try json(CourseResponse.self, response).course

            // Far fewer places, every one of the file's within the tolerance (and a little for
            // the flat frame and the rounding), and the length the file's to within a metre
            // a kilometre: the sine's bends are kept.
            #expect(kept.points.count < places.count / 5, "\(kept.points.count) of \(places.count) places kept")
            #expect(kept.points.first == [places[0].latitude, places[0].longitude].map { ($0 * 1e7).rounded() / 1e7 })
            let worst = places.map { Self.distance(from: $0, to: kept.points) }.max() ?? .infinity
            #expect(worst <= VoicemsgAPI.courseTolerance + 0.05, "a place of the file \(worst) m from the course kept")
            #expect(abs(kept.lengthMeters - file.length) <= file.length / 1000, "\(kept.lengthMeters) m kept, \(file.length) m in the file")

            // The friend's run info and the runner's manifest carry the same course.
            #expect(try await Self.info(client, run, token: run.inviteToken).course == kept)
            #expect(try await Self.info(client, run, token: run.ownerToken).course == kept)
            let manifest = try await client.execute(uri: "/v1/runs/\(run.id)/manifest", method: .get, headers: bearer(run.ownerToken))
            #expect(try json(ManifestResponse.self, manifest).run.course == kept)
        }
    }

    @Test func aRouteReplacesATrackAndDeletingLeavesNoneOnSQLite() async throws { try await aRouteReplacesATrackAndDeletingLeavesNone(.sqlite) }
    @Test(.needsPostgreSQL) func aRouteReplacesATrackAndDeletingLeavesNoneOnPostgreSQL() async throws { try await aRouteReplacesATrackAndDeletingLeavesNone(.postgres) }
    private func aRouteReplacesATrackAndDeletingLeavesNone(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await client.createRun()
            #expect(try await Self.put(client, run, Self.gpx(Self.winding(meters: 2_000))).status == .ok)
            let route = try await Self.put(client, run, Self.gpx(Self.winding(meters: 800), route: true))
            #expect(route.status == .ok)
            let length = try json(CourseResponse.self, route).course.lengthMeters
            #expect(abs(length - 800) < 2, "the route read as \(length) m")
            #expect(try await Self.info(client, run, token: run.inviteToken).course?.lengthMeters == length)

            let deleted = try await client.execute(uri: "/v1/runs/\(run.id)/course", method: .delete, headers: bearer(run.ownerToken))
            #expect(deleted.status == .noContent)
            #expect(try await Self.info(client, run, token: run.inviteToken).course == nil)
            #expect(try await store.records.course(runID: run.id) == nil)
            // Removing what is not there is no error.
            #expect(try await client.execute(uri: "/v1/runs/\(run.id)/course", method: .delete, headers: bearer(run.ownerToken)).status == .noContent)
        }
    }

    @Test func onlyTheOwnerChangesTheCourseOnSQLite() async throws { try await onlyTheOwnerChangesTheCourse(.sqlite) }
    @Test(.needsPostgreSQL) func onlyTheOwnerChangesTheCourseOnPostgreSQL() async throws { try await onlyTheOwnerChangesTheCourse(.postgres) }
    private func onlyTheOwnerChangesTheCourse(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await client.createRun()
            let other = try await client.createRun()
            let file = Self.gpx(Self.winding(meters: 1_000))
            #expect(try await Self.put(client, run, file, token: run.inviteToken).status == .forbidden)
            #expect(try await Self.put(client, run, file, token: other.ownerToken).status == .forbidden)
            let anonymous = try await client.execute(
                uri: "/v1/runs/\(run.id)/course", method: .put, headers: [.contentType: "application/gpx+xml"], body: ByteBuffer(string: file))
            #expect(anonymous.status == .unauthorized)
            #expect(try await client.execute(uri: "/v1/runs/\(run.id)/course", method: .delete, headers: bearer(run.inviteToken)).status == .forbidden)
            #expect(try await client.execute(uri: "/v1/runs/not-an-id!/course", method: .put, headers: bearer(run.ownerToken)).status == .badRequest)
            #expect(try await store.records.course(runID: run.id) == nil)
        }
    }

    @Test func theCourseIsFixedOnceAMessageHasPlayedOnSQLite() async throws { try await theCourseIsFixedOnceAMessageHasPlayed(.sqlite) }
    @Test(.needsPostgreSQL) func theCourseIsFixedOnceAMessageHasPlayedOnPostgreSQL() async throws { try await theCourseIsFixedOnceAMessageHasPlayed(.postgres) }
    private func theCourseIsFixedOnceAMessageHasPlayed(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await client.createRun()
            let first = try await Self.put(client, run, Self.gpx(Self.winding(meters: 3_000)))
            let kept = try json(CourseResponse.self, first).course
            let upload = try await client.execute(
                uri: "/v1/runs/\(run.id)/messages?marker=1km", method: .post, headers: bearer(run.inviteToken),
                body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000)))
            let id = try json(UploadResponse.self, upload).id
            // Ready and not yet played: the course may still change.
            while let claim = try await store.claim(workerID: "test", leaseSeconds: 30) {
                _ = try await store.complete(claim, result: JobResult(audio: Data("OggS".utf8), durationSeconds: 2))
            }
            #expect(try await Self.put(client, run, Self.gpx(Self.winding(meters: 2_500))).status == .ok)
            let now = try #require(try await store.records.course(runID: run.id))
            _ = try await store.records.markPlayed(messageID: id, atMeters: 1_000, runSeconds: 300)

            let replaced = try await Self.put(client, run, Self.gpx(Self.winding(meters: 4_000)))
            #expect(replaced.status == .conflict)
            #expect(try reason(replaced).contains("has started"))
            let removed = try await client.execute(uri: "/v1/runs/\(run.id)/course", method: .delete, headers: bearer(run.ownerToken))
            #expect(removed.status == .conflict)
            #expect(try await store.records.course(runID: run.id) == now)
            #expect(now.lengthMeters != kept.lengthMeters)
        }
    }

    @Test func deletingTheRunDeletesItsCourse() async throws {
        try await TestServer(.sqlite).router { client, store in
            let run = try await client.createRun()
            #expect(try await Self.put(client, run, Self.gpx(Self.winding(meters: 1_000))).status == .ok)
            #expect(try await client.execute(uri: "/v1/runs/\(run.id)", method: .delete, headers: bearer(run.ownerToken)).status == .noContent)
            #expect(try await store.records.course(runID: run.id) == nil)
        }
    }

    // MARK: Bad files

    /// Every refusal names what is wrong, in the reader's or the course's own words, and leaves
    /// the course that was kept before.
    @Test(arguments: RefusedCourse.allCases)
    func aBadFileIsRefusedWithItsReasonAndNothingChanges(_ refused: RefusedCourse) async throws {
        let server = try TestServer(.sqlite) { $0.api.maxCourseBytes = RefusedCourse.limit }
        let spool = server.configuration.api.spoolDirectory.path
        try await server.router { client, store in
            let run = try await client.createRun()
            #expect(try await Self.put(client, run, Self.gpx(Self.winding(meters: 1_500))).status == .ok)
            let before = try await store.records.course(runID: run.id)

            let response = try await Self.put(client, run, refused.body)
            #expect(response.status == refused.status, "\(String(buffer: response.body).prefix(300))")
            let said = try reason(response)
            #expect(said.contains(refused.reason), "\(said)")
            #expect(try await store.records.course(runID: run.id) == before)
            let left = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
            #expect(!left.contains { $0.hasSuffix(".part") || $0.hasSuffix(".upload") }, "left in the spool: \(left)")
        }
    }

    enum RefusedCourse: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case notGPX, notXML, noPoints, onePlace, tooShort, tooLong, tooManyPoints, tooLarge, entityExpansion

        var testDescription: String { rawValue }

        /// The size limit the test sets: above the file of too many places, below `tooLarge`.
        static let limit = 12 * 1024 * 1024

        var body: String {
            switch self {
            case .notGPX: return #"{"type":"FeatureCollection","features":[]}"#
            case .notXML: return "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkseg>"
            case .noPoints: return CourseRouteTests.gpx([])
            case .onePlace:
                let place = Course.Point(latitude: 38.7, longitude: -9.14)
                return CourseRouteTests.gpx([place, place, place])
            case .tooShort: return CourseRouteTests.gpx(CourseRouteTests.winding(meters: 60))
            case .tooLong:
                // Lisbon to Madrid and on: 1,200 km in places 10 km apart.
                let places = (0...120).map { Course.Point(latitude: 38.7, longitude: -9.14 + Double($0) * 0.115) }
                return CourseRouteTests.gpx(places)
            case .tooManyPoints:
                // Short lines, so that the file stays under the size limit the test sets.
                let place = (0...Course.maximumPointCount).map { "<rtept lat=\"38.7\" lon=\"\(-9.14 + Double($0) * 1e-5)\"/>" }
                return "<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><rte>\(place.joined())</rte></gpx>"
            case .tooLarge:
                let places = CourseRouteTests.gpx(CourseRouteTests.winding(meters: 1_000))
                return places.replacingOccurrences(of: "<trk>", with: "<!-- \(String(repeating: "x", count: Self.limit)) --><trk>")
            case .entityExpansion:
                return """
                    <?xml version="1.0"?>
                    <!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
                    <gpx version="1.1"><trk><name>&b;</name></trk></gpx>
                    """
            }
        }

        var status: HTTPResponse.Status {
            switch self {
            case .notGPX, .notXML, .noPoints, .entityExpansion: return .badRequest
            case .onePlace, .tooShort, .tooLong, .tooManyPoints: return .unprocessableContent
            case .tooLarge: return .contentTooLarge
            }
        }

        var reason: String {
            switch self {
            case .notGPX: return "not a GPX file"
            case .notXML: return "line"
            case .noPoints: return "no track or route points"
            case .onePlace: return "at least 2 distinct points"
            case .tooShort: return "at least 100 m"
            case .tooLong: return "1000 km"
            case .tooManyPoints: return "200000"
            case .tooLarge: return "limited to"
            case .entityExpansion: return "entit"
            }
        }
    }
}
