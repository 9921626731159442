import Foundation
import GPXReplay
import RunTracking
import TestSupport

/// What a course run's course is, beside the way the runner goes.
enum CourseShape: String, Sendable, CaseIterable {
    /// The runner follows the course, which the tracker reads from a GPX route (`rte`).
    case route
    /// Out and home again 5 m to the side of the way out, read from a GPX track of two
    /// segments (out, and back).
    case outAndBack = "out-and-back"
    /// The runner follows the course: laps of a track, unrolled into one course.
    case laps
    /// A wrong turn: 100 to 200 m along a spur off the course, nearly square to it, and back
    /// to the junction, 30 to 50 m before a marker.
    case wrongTurn = "wrong turn"
    /// A short cut: straight across from one place of the course to another 300 to 500 m
    /// further along it, where the course comes back near itself.
    case shortCut = "short cut"
    /// Start pressed in the start's pen, 60 to 150 m before the start line, and a jog to it:
    /// laps of a track, as `laps`, with the pen on the track's last stretch, where every lap and
    /// the finish come in. Every place of the way to the line lies on the course, but only
    /// kilometres along it: the runner is taken up at the line, not where the track passes.
    case pen = "start's pen"
}

/// A course run's course, the way the runner truly goes, and where along the course they are.
struct CourseLayout: Sendable {
    /// Where the runner leaves the course and comes back: metres along their own way, and
    /// along the course.
    struct Excursion: Sendable {
        var runnerFrom: Double
        var runnerTo: Double
        var courseFrom: Double
        var courseTo: Double
    }

    var shape: CourseShape
    var course: TruePath
    var runner: TruePath
    var excursion: Excursion?

    /// Metres along the course where the runner truly is, `meters` along their own way: off the
    /// course, where they left it, until they are back.
    func courseMeters(atRunner meters: Double) -> Double {
        guard let excursion, meters > excursion.runnerFrom else { return meters }
        if meters < excursion.runnerTo { return excursion.courseFrom }
        return meters - excursion.runnerTo + excursion.courseTo
    }

    func isOffCourse(atRunner meters: Double) -> Bool {
        guard let excursion else { return false }
        return meters > excursion.runnerFrom && meters < excursion.runnerTo
    }

    /// The course as the tracker is given it: through the GPX reader for a route and an
    /// out-and-back, as the CLI and the server read a file, and as places otherwise.
    func trackerCourse() throws -> Course {
        let points = course.latitudes.indices.map { Course.Point(latitude: course.latitudes[$0], longitude: course.longitudes[$0]) }
        switch shape {
        case .route:
            return try GPXReader.readCourse(data: Data(Self.gpx(route: points).utf8), name: "\(course.name) route")
        case .outAndBack:
            let turn = points.count / 2
            return try GPXReader.readCourse(
                data: Data(Self.gpx(segments: [Array(points[..<turn]), Array(points[turn...])]).utf8), name: "\(course.name) track")
        case .laps, .wrongTurn, .shortCut, .pen:
            return try Course(points: points)
        }
    }

    static func gpx(route points: [Course.Point]) -> String {
        "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"voicemsg corpus\" xmlns=\"http://www.topografix.com/GPX/1/1\"><rte>\n"
            + points.map { String(format: "<rtept lat=\"%.8f\" lon=\"%.8f\"/>", $0.latitude, $0.longitude) }.joined(separator: "\n")
            + "\n</rte></gpx>\n"
    }

    static func gpx(segments: [[Course.Point]]) -> String {
        "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"voicemsg corpus\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk>\n"
            + segments.map { segment in
                "<trkseg>\n" + segment.map { String(format: "<trkpt lat=\"%.8f\" lon=\"%.8f\"/>", $0.latitude, $0.longitude) }
                    .joined(separator: "\n") + "\n</trkseg>"
            }.joined(separator: "\n") + "\n</trk></gpx>\n"
    }

    /// The layout of `shape` on `path` (the trail stretch, or the laps), drawn with `seed`.
    init(_ shape: CourseShape, on path: TruePath, seed: UInt64) {
        self.shape = shape
        var random = SeededGenerator(seed: seed)
        switch shape {
        case .route, .laps:
            course = path
            runner = path
        case .outAndBack:
            let out = path.prefix(path.length / 2)
            let back = out.reversedOffset(by: 5)
            course = TruePath(name: "\(path.name) out and back", points: out.places + back.places)
            runner = course
        case .wrongTurn:
            course = path
            // 30 to 50 m before the marker nearest 55% of the way: the turn tempts the tracker on.
            let marker = (path.length * 0.55 / 500).rounded() * 500
            let junction = marker - Double.random(in: 30...50, using: &random)
            let length = Double.random(in: 100...200, using: &random)
            let angle = Double.random(in: -20...20, using: &random) * .pi / 180
            let at = path.locate(junction)
            // Square to the course (turned by up to 20°), to the side with the course farthest.
            let ends = [1.0, -1].map { side -> (latitude: Double, longitude: Double) in
                let east = side * at.north, north = -side * at.east
                let turnedEast = east * cos(angle) - north * sin(angle), turnedNorth = east * sin(angle) + north * cos(angle)
                return LocalMeters.offset((at.latitude, at.longitude), east: length * turnedEast, north: length * turnedNorth)
            }
            let end = ends.max { path.clearance(of: $0, awayFrom: junction) < path.clearance(of: $1, awayFrom: junction) }!
            let place = (latitude: at.latitude, longitude: at.longitude)
            runner = TruePath(
                name: path.name, points: path.prefix(junction).places + [end, place] + path.suffix(from: junction).places.dropFirst())
            let spur = runner.cumulative[path.prefix(junction).places.count + 1] - junction
            excursion = Excursion(runnerFrom: junction, runnerTo: junction + spur, courseFrom: junction, courseTo: junction)
        case .shortCut:
            course = path
            // With a marker in the stretch cut, at least 100 m from either end of it.
            let (from, to) = path.shortestCut(arcs: 300...500, within: (path.length * 0.5)...(path.length * 0.8)) { from, to in
                ((from + 100) / 500).rounded(.up) * 500 <= to - 100
            }
            runner = TruePath(name: path.name, points: path.prefix(from).places + path.suffix(from: to).places)
            let across = runner.cumulative[path.prefix(from).places.count] - from
            excursion = Excursion(runnerFrom: from, runnerTo: from + across, courseFrom: from, courseTo: to)
        case .pen:
            course = path
            // Not yet on the course, as far as the distance goes: at its start until the line.
            let lead = Double.random(in: 60...150, using: &random)
            runner = TruePath(name: path.name, points: path.suffix(from: path.length - lead).places + path.places.dropFirst())
            excursion = Excursion(runnerFrom: 0, runnerTo: lead, courseFrom: 0, courseTo: 0)
        }
    }
}

extension TruePath {
    var places: [(latitude: Double, longitude: Double)] { latitudes.indices.map { (latitudes[$0], longitudes[$0]) } }

    /// The path from `meters` on, starting at that place.
    func suffix(from meters: Double) -> TruePath {
        let start = locate(meters)
        var points = [(latitude: start.latitude, longitude: start.longitude)]
        for index in cumulative.indices where cumulative[index] > meters { points.append((latitudes[index], longitudes[index])) }
        return TruePath(name: name, points: points)
    }

    /// The path run backwards, `meters` to the right of the way back.
    func reversedOffset(by meters: Double) -> TruePath {
        let count = latitudes.count
        var points: [(latitude: Double, longitude: Double)] = []
        for back in 0..<count {
            let index = count - 1 - back
            let before = max(index - 1, 0), after = min(index + 1, count - 1)
            // The way back's direction here, and its right-hand side.
            let north = (latitudes[before] - latitudes[after]) * LocalMeters.perDegreeLatitude
            let east = (longitudes[before] - longitudes[after]) * LocalMeters.perDegreeLongitude(at: latitudes[index])
            let norm = max((east * east + north * north).squareRoot(), 1e-9)
            points.append(LocalMeters.offset((latitudes[index], longitudes[index]), east: meters * north / norm, north: -meters * east / norm))
        }
        return TruePath(name: name, points: points)
    }

    /// How far a place is from the path, leaving out the 100 m either side of `meters` along it.
    func clearance(of place: (latitude: Double, longitude: Double), awayFrom meters: Double) -> Double {
        latitudes.indices.filter { abs(cumulative[$0] - meters) > 100 }.map {
            Geodesic.localDistance(fromLatitude: place.latitude, longitude: place.longitude, toLatitude: latitudes[$0], longitude: longitudes[$0])
        }.min() ?? .infinity
    }

    /// Two places `arcs` metres apart along the path, the first within `range`, whose straight
    /// line across is shortest for the way along it: a short cut (of those `allowed`).
    func shortestCut(
        arcs: ClosedRange<Double>, within range: ClosedRange<Double>, where allowed: (Double, Double) -> Bool
    ) -> (from: Double, to: Double) {
        var best = (ratio: Double.infinity, from: range.lowerBound, to: range.lowerBound + arcs.lowerBound)
        for from in stride(from: range.lowerBound, through: range.upperBound, by: 10) {
            let a = locate(from)
            for to in stride(from: from + arcs.lowerBound, through: min(from + arcs.upperBound, length), by: 10) where allowed(from, to) {
                let b = locate(to)
                let across = Geodesic.localDistance(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
                if across / (to - from) < best.ratio { best = (across / (to - from), from, to) }
            }
        }
        return (best.from, best.to)
    }
}
