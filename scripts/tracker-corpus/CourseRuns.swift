import Foundation

// The course runs (TrackerCorpus.courseVariants): each replayed through the course tracker given
// the course, and through the tracker from positions alone, both judged along the course from
// where the runner truly was. COURSE="accelerationNoise=0.5,offCourseDistance=30" tries other
// settings of CourseTracker.Configuration; NO_COURSE=1 leaves the course runs out.

/// COURSE="name=value,..." as a `CourseTracker.Configuration`.
let courseConfiguration: CourseTracker.Configuration = {
    var configuration = CourseTracker.Configuration()
    for setting in (environment["COURSE"] ?? "").split(separator: ",") {
        let parts = setting.split(separator: "=")
        guard parts.count == 2, let value = Double(parts[1]) else { fatalError("bad COURSE setting \(setting)") }
        var encoded = try! JSONSerialization.jsonObject(with: JSONEncoder().encode(configuration)) as! [String: Any]
        guard encoded[String(parts[0])] != nil else { fatalError("no course setting \(parts[0])") }
        encoded[String(parts[0])] = value
        configuration = try! JSONDecoder().decode(
            CourseTracker.Configuration.self, from: JSONSerialization.data(withJSONObject: encoded))
    }
    return configuration
}()

/// One course run through both trackers.
struct CoursePair {
    var course: CourseResult
    var positions: CourseResult
}

/// Replays a set's course runs, printing each run where the course tracker misses a bound
/// (every run with VERBOSE=1), and returns them.
func replayCourseRuns(_ split: TrackerCorpus.Split) throws -> [CoursePair] {
    var pairs: [CoursePair] = []
    for variant in TrackerCorpus.courseVariants(split) where filter.isEmpty || variant.description.contains(filter) {
        let run = try CorpusRun(variant, samples: samples)
        let course = try run.layout!.trackerCourse()
        let pair = CoursePair(
            course: try CourseResult(run, course: course, configuration: courseConfiguration),
            positions: try CourseResult(run, course: nil))
        pairs.append(pair)
        let result = pair.course
        let missed = result.within < result.latenesses.count || !result.playedInOrderOnce || result.playedOffCourse > 0
            || result.standAdds > 0
        guard verbose || missed else { continue }
        let excursions = result.excursions.map { excursion in
            String(format: "left %.0f m at %.0f s", excursion.leftMeters, excursion.leftSeconds)
                + (excursion.rejoinedMeters.map { String(format: ", back %.0f m at %.0f s", $0, excursion.rejoinedSeconds!) } ?? ", never back")
        }.joined(separator: "; ")
        print(String(format: "%@ %2d of %2d within %2.0f m, worst %+6.1f m; positions alone %2d, worst %+7.1f m; stand adds %.1f m%@%@%@  %@",
                     split.rawValue, result.within, result.latenesses.count, result.bound, result.worst,
                     pair.positions.within, pair.positions.worst, result.standAdds,
                     result.playedInOrderOnce ? "" : "; ORDER/ONCE BROKEN",
                     result.playedOffCourse > 0 ? "; \(result.playedOffCourse) played off the course" : "",
                     excursions.isEmpty ? "" : "; " + excursions, variant.description))
        if printsErrors { print("   " + result.latenesses.map { String(format: "%+.0f", $0) }.joined(separator: " ")) }
    }
    return pairs
}

/// Every set's course runs (NO_COURSE=1 or WIDER=1 leaves them out), each set's figures added
/// below its own in `table`.
func replayCourseRuns(addingFiguresTo table: inout [(set: String, figures: [(String, String)])]) throws -> [(set: String, pairs: [CoursePair])] {
    guard environment["NO_COURSE"] == nil, environment["WIDER"] == nil else { return [] }
    print("\n== Course runs: the course tracker given the course (runs where it misses a bound; VERBOSE=1 prints all)")
    var all: [(set: String, pairs: [CoursePair])] = []
    for (index, set) in table.enumerated() {
        guard let split = TrackerCorpus.Split(rawValue: set.set) else { continue }
        let pairs = try replayCourseRuns(split)
        all.append((set.set, pairs))
        table[index].figures += courseFigures(pairs)
    }
    return all
}

/// A set's course figures, one (name, value) a line, the tracker from positions alone beside.
func courseFigures(_ pairs: [CoursePair]) -> [(String, String)] {
    var lines: [(String, String)] = []
    for (seconds, bound) in [(1.0, 15.0), (5.0, 25.0)] {
        let group = pairs.filter { $0.course.variant.interval.longest == seconds }
        guard !group.isEmpty else { continue }
        let name = seconds == 1 ? "course 1 Hz" : "course every 5 s"
        func within(_ results: [CourseResult]) -> String {
            "\(results.reduce(0) { $0 + $1.within }) of \(results.reduce(0) { $0 + $1.latenesses.count })"
        }
        lines += [
            ("\(name): runs", "\(group.count)"),
            ("\(name): starts within \(Int(bound)) m", within(group.map(\.course))),
            ("\(name): worst start miss", String(format: "%+.1f m", group.map(\.course.worst).farthestFromZero)),
            ("\(name): positions alone within \(Int(bound)) m", within(group.map(\.positions))),
            ("\(name): positions alone worst miss", String(format: "%+.1f m", group.map(\.positions.worst).farthestFromZero)),
        ]
    }
    guard !pairs.isEmpty else { return lines }
    let results = pairs.map(\.course)
    let skipped = results.flatMap(\.skippedStarts)
    let leavesCourse = { (result: CourseResult) in [CourseShape.wrongTurn, .shortCut].contains(result.variant.course) }
    let leaving = results.filter(leavesCourse)
    let pens = results.filter { $0.variant.course == .pen }
    let staying = results.filter { !leavesCourse($0) && $0.variant.course != .pen }
    // Where a run begun in the start's pen was taken up: at the line, or a fix or two past it.
    let takenUp = pens.map { $0.excursions.first.flatMap { $0.leftSeconds == 0 ? $0.rejoinedMeters : nil } ?? .infinity }
    lines += [
        ("course: order or exactly-once broken", "\(results.filter { !$0.playedInOrderOnce }.count)"),
        ("course: started off the course", "\(results.reduce(0) { $0 + $1.playedOffCourse })"),
        ("course: the stand adds (from 30 s in), worst", String(format: "%.1f m", results.map(\.standAdds).max() ?? 0)),
        ("course: past the stand's place, worst", String(format: "%.1f m", results.map(\.standOvershoot).max() ?? 0)),
        ("course: skipped markers played", skipped.isEmpty ? "none" : String(format: "%d, %.0f to %.0f s after back", skipped.count, skipped.min()!, skipped.max()!)),
        ("course: runs leaving it told off course", "\(leaving.filter { !$0.excursions.isEmpty }.count) of \(leaving.count)"),
        ("course: runs on it told off course", "\(staying.filter { !$0.excursions.isEmpty }.count) of \(staying.count)"),
        ("course: pen starts joined by 50 m, worst",
         "\(takenUp.filter { $0 <= 50 }.count) of \(pens.count), \(String(format: "%.0f m", takenUp.max() ?? 0))"),
    ]
    return lines
}

/// Held-out (or any set's) figures by course shape and interval, the course tracker beside
/// positions alone: messages within the bound, and the worst miss.
func courseShapeTable(_ pairs: [CoursePair], set name: String) {
    guard !pairs.isEmpty else { return }
    print("\n== Course runs, \(name): messages within the bound (15 m at 1 Hz, 25 m every 5 s), the worst miss; with the course | positions alone")
    for shape in CourseShape.allCases {
        for seconds in [1.0, 5] {
            for kind in ["", ", phone", ", walk breaks"] {
                let group = pairs.filter {
                    $0.course.variant.course == shape && $0.course.variant.interval.longest == seconds && kindName($0.course.variant) == kind
                }
                guard !group.isEmpty else { continue }
                func cell(_ results: [CourseResult]) -> String {
                    String(format: "%3d of %3d, worst %+7.1f m", results.reduce(0) { $0 + $1.within }, results.reduce(0) { $0 + $1.latenesses.count },
                           results.map(\.worst).farthestFromZero)
                }
                let name = "\(shape.rawValue) every \(Int(seconds)) s\(kind)"
                print(name.padding(toLength: 30, withPad: " ", startingAt: 0) + cell(group.map(\.course)) + " | " + cell(group.map(\.positions)))
            }
        }
    }
}

/// How a shape's row names its runs beside the runner from positions alone: a phone's, or a
/// walker's.
func kindName(_ variant: CorpusVariant) -> String {
    if case .walkBreaks = variant.movement { return ", walk breaks" }
    return variant.device.speedSigma != nil ? ", phone" : ""
}

/// Standing 10 minutes at the start of a course, as the corpus's other stand (σ 5 m, τ 30 s,
/// seeds 1 to 10, with a phone's Doppler speeds and from positions alone): the metres the
/// course tracker adds after the first fix.
func courseStanding() {
    let start = (latitude: 52.52, longitude: 13.405)
    let course = try! Course(points: (0...10).map {
        let place = LocalMeters.offset(start, east: Double($0) * 100, north: 0)
        return Course.Point(latitude: place.latitude, longitude: place.longitude)
    })
    var added: [Bool: [Double]] = [:]
    for seed in UInt64(1)...10 {
        for reports in [true, false] {
            var random = SeededGenerator(seed: seed)
            var noise = GaussMarkovProcess(sigma: 5, timeConstant: 30, random: &random)
            var velocity = GaussMarkovProcess(sigma: 0.15, timeConstant: 3, random: &random)
            var tracker = CourseTracker(course: course, configuration: courseConfiguration)
            var first: Double?
            for second in 0..<600 {
                noise.advance(by: 1, random: &random)
                velocity.advance(by: 1, random: &random)
                let place = LocalMeters.offset(start, east: noise.east, north: noise.north)
                let reading = tracker.update(with: GPSFix(
                    time: Double(second), latitude: place.latitude, longitude: place.longitude,
                    horizontalAccuracy: reports ? 5 : nil,
                    speed: reports ? (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot() : nil))
                first = first ?? reading.meters
            }
            added[reports, default: []].append(tracker.meters - (first ?? 0))
        }
    }
    for reports in [true, false] {
        print((reports ? "course, phone:         " : "course, position only: ") + added[reports, default: []].map { String(format: "%.2f", $0) }.joined(separator: " "))
    }
}
