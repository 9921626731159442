// The native half of scripts/bench-wasm.sh: the runs in runs.json through the run's tracker
// (a CourseTracker when the run has a course, else the DistanceTracker) and PlaybackReplay,
// driven as scripts/wasm-replay.mjs drives the WebAssembly build, timed; then the tracker
// alone, timed again. Compiled with RunTracking's sources into one module, as
// scripts/tracker-corpus.sh does.
import Foundation

struct ReplayedRun: Decodable {
    var plannedDistance: Double?
    var markers: [Double]
    var durations: [Double]
    var fixes: [[Double?]]
    var course: [[Double]]?
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: tracker-bench RUNS.json\n".utf8))
    exit(64)
}
let runs = try JSONDecoder().decode([ReplayedRun].self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
let prepared = try runs.map { run in
    (run, run.fixes.map { GPSFix(time: $0[0]!, latitude: $0[1]!, longitude: $0[2]!, horizontalAccuracy: $0[3], speed: $0[4]) },
     try run.course.map { try Course(points: $0.map { Course.Point(latitude: $0[0], longitude: $0[1]) }) })
}

func tracker(for course: Course?) -> RunTracker {
    course.map { .course(CourseTracker(course: $0)) } ?? .positions(DistanceTracker())
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

var fixes = 0
var starts = 0
let clock = ContinuousClock()
let elapsed = try clock.measure {
    for (run, runFixes, course) in prepared {
        let messages = run.markers.enumerated().map {
            PlaybackScheduler.Message(id: String($0.offset), marker: .absolute(meters: $0.element))
        }
        var replay = PlaybackReplay(
            scheduler: try PlaybackScheduler(messages: messages, configuration: .init(plannedDistance: run.plannedDistance ?? course?.length)),
            durations: Dictionary(uniqueKeysWithValues: run.durations.enumerated().map { (String($0.offset), $0.element) }))
        var tracker = tracker(for: course)
        var last = -Double.infinity
        for fix in runFixes {
            let reading = tracker.update(with: fix)
            last = max(last, fix.time)
            starts += replay.handle(.distanceUpdate(time: reading.time, meters: reading.meters)).count
        }
        starts += replay.finish(at: last).count
        fixes += runFixes.count
    }
}
// The tracker alone: the course tracker itself, not through RunTracker, as an app that knows
// it has a course would hold it.
var total = 0.0
let trackerElapsed = clock.measure {
    for (_, runFixes, course) in prepared {
        if let course {
            var tracker = CourseTracker(course: course)
            for fix in runFixes { total += tracker.update(with: fix).meters }
        } else {
            var tracker = DistanceTracker()
            for fix in runFixes { total += tracker.update(with: fix).meters }
        }
    }
}
print("{\"fixes\": \(fixes), \"starts\": \(starts), \"seconds\": \(seconds(elapsed)), \"fixesPerSecond\": \(Double(fixes) / seconds(elapsed)), \"trackerFixesPerSecond\": \(Double(fixes) / seconds(trackerElapsed)), \"checksum\": \(total)}")
