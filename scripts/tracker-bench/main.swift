// The native half of scripts/bench-wasm.sh: the runs in runs.json through DistanceTracker and
// PlaybackReplay, driven as scripts/wasm-replay.mjs drives the WebAssembly build, timed.
// Compiled with RunTracking's sources into one module, as scripts/tracker-corpus.sh does.
import Foundation

struct ReplayedRun: Decodable {
    var plannedDistance: Double?
    var markers: [Double]
    var durations: [Double]
    var fixes: [[Double?]]
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: tracker-bench RUNS.json\n".utf8))
    exit(64)
}
let runs = try JSONDecoder().decode([ReplayedRun].self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
let prepared = runs.map { run in
    (run, run.fixes.map { GPSFix(time: $0[0]!, latitude: $0[1]!, longitude: $0[2]!, horizontalAccuracy: $0[3], speed: $0[4]) })
}

var fixes = 0
var starts = 0
let clock = ContinuousClock()
let elapsed = try clock.measure {
    for (run, runFixes) in prepared {
        let messages = run.markers.enumerated().map {
            PlaybackScheduler.Message(id: String($0.offset), marker: .absolute(meters: $0.element))
        }
        var replay = PlaybackReplay(
            scheduler: try PlaybackScheduler(messages: messages, configuration: .init(plannedDistance: run.plannedDistance)),
            durations: Dictionary(uniqueKeysWithValues: run.durations.enumerated().map { (String($0.offset), $0.element) }))
        var tracker = DistanceTracker()
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
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("{\"fixes\": \(fixes), \"starts\": \(starts), \"seconds\": \(seconds), \"fixesPerSecond\": \(Double(fixes) / seconds)}")
