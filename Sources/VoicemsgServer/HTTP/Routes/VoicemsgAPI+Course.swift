import Foundation
import GPXReplay
import HTTPTypes
import Hummingbird
import RunTracking

/// The course routes, as docs/api.md's "The run's course" describes them: the owner sends the
/// race's GPX (a track, or a route), the server keeps it simplified with its length, and the run
/// info and the manifest carry it. The body is spooled like an upload's (`UploadSpooler`: its
/// limit, the pace of a slow body, the 413 that a client sending everything first still reads)
/// and takes an upload slot, so a burst of courses is bounded like a burst of recordings.
extension VoicemsgAPI {
    /// How far the stored course may pass from the file's places: well under a fix's error,
    /// and enough to turn a planner's file drawn every metre into a few places a bend. Each
    /// chord across a bend shortens the course a little, in proportion to the tolerance and the
    /// bend's curvature, and markers are measured along it: half a metre keeps even a course of
    /// tight bends within a thousandth of its length (docs/api.md).
    static let courseTolerance = 0.5

    /// `PUT /v1/runs/{id}/course` (owner token), the GPX as the body: 200 with the course as
    /// kept; 400 when the body is not GPX, 422 when its places are no course, 409 once a
    /// message of the run has been played.
    func putCourse(_ request: Request, _ context: VoicemsgRequestContext) async throws -> Response {
        let runID = try Self.validID(context.parameters.get("runID"))
        _ = try await authorize(context, runID: runID, needsOwner: true)
        var spooler = self.spooler
        spooler.limit = configuration.maxCourseBytes
        do {
            return try await uploadSlots.withSlot {
                let spooled = try await spooler.spool(
                    request.body, declaredLength: request.headers[.contentLength].flatMap(Int.init))
                defer { try? FileManager.default.removeItem(at: spooled.file) }
                let stored = try await uploadThreads.run { try Self.storedCourse(fromGPXAt: spooled.file) }
                try Self.check(try await store.records.setCourse(stored, runID: runID))
                return try Self.privateJSON(CourseResponse(course: try RunCourse(stored)))
            }
        } catch let refusal as UploadRefusal {
            throw await spooler.lingering(refusal.error, body: request.body)
        }
    }

    /// `DELETE /v1/runs/{id}/course` (owner token): 204, whether or not the run had one; 409
    /// once a message of the run has been played.
    func deleteCourse(_ request: Request, _ context: VoicemsgRequestContext) async throws -> Response {
        let runID = try Self.validID(context.parameters.get("runID"))
        _ = try await authorize(context, runID: runID, needsOwner: true)
        try Self.check(try await store.records.setCourse(nil, runID: runID))
        return Response(status: .noContent)
    }

    /// The run's course for the run info and the manifest; nil when it has none.
    func runCourse(runID: String) async throws -> RunCourse? {
        try await store.records.course(runID: runID).map(RunCourse.init)
    }

    static func check(_ change: CourseChange) throws {
        switch change {
        case .done: return
        case .noSuchRun: throw HTTPError(.notFound, message: "the run was deleted")
        case .runStarted:
            throw HTTPError(
                .conflict,
                message: "the run has started (a message has been played), so its course can no longer change")
        }
    }

    /// The GPX file read as a course (its track, or else its route), simplified within
    /// `courseTolerance`, as the store keeps it; the reader's and the course's own reasons as
    /// 400 and 422.
    static func storedCourse(fromGPXAt file: URL) throws -> StoredCourse {
        let course: Course
        do {
            let data = try Data(contentsOf: file)
            // JSON, GeoJSON or a FIT file sent by mistake: said plainly, not as an XML error.
            guard data.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }).first == UInt8(ascii: "<") else {
                throw HTTPError(.badRequest, message: "the course file is not a GPX file: GPX is XML, and this does not begin with '<'")
            }
            course = try GPXReader.readCourse(data: data, name: "the course file")
                .simplified(within: courseTolerance)
        } catch let error as GPXError {
            throw HTTPError(error.code == .invalidCourse ? .unprocessableContent : .badRequest, message: error.description)
        } catch let error as RunTrackingError {
            throw HTTPError(.unprocessableContent, message: "the course file: \(error.message)")
        }
        let places = course.points.map { [rounded($0.latitude), rounded($0.longitude)] }
        let json = String(decoding: try JSONEncoder().encode(places), as: UTF8.self)
        return StoredCourse(lengthMeters: course.length, pointCount: places.count, pointsJSON: json)
    }

    /// Seven decimals of a degree: about a centimetre, far below the simplification's half metre.
    private static func rounded(_ degrees: Double) -> Double {
        (degrees * 1e7).rounded() / 1e7
    }
}
