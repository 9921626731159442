// Playback benchmark (not a test): tracker + scheduler throughput, and a marathon simulated
// end to end from a GPX file. Built by scripts/bench-playback.sh with -O, together with the
// RunTracking and GPXReplay sources.
import Foundation

/// CPU seconds of this thread: the machine is shared, and wall time would count the time
/// other processes held the core.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let start = now()
    try body()
    return now() - start
}

/// A winding 1 Hz run at 3.5 m/s with a little noise, as lat/lon fixes.
func makeRun(count: Int) -> [GPSFix] {
    var fixes: [GPSFix] = []
    fixes.reserveCapacity(count)
    var east = 0.0, north = 0.0, heading = 0.0
    var random = UInt64(42)
    func noise() -> Double {
        random = random &* 6364136223846793005 &+ 1442695040888963407
        return Double(random >> 11) / Double(1 << 53) - 0.5
    }
    for second in 0..<count {
        heading += 0.02 * sin(Double(second) / 300)
        east += 3.5 * cos(heading)
        north += 3.5 * sin(heading)
        let latitude = 48.0 + (north + 2 * noise()) / 111_132.954
        let longitude = 11.0 + (east + 2 * noise()) / (111_319.488 * cos(48.0 * .pi / 180))
        fixes.append(GPSFix(time: Double(second), latitude: latitude, longitude: longitude))
    }
    return fixes
}

let messages = (0..<20).map { PlaybackScheduler.Message(id: "m\($0)", marker: .absolute(meters: Double($0) * 2000 + 500)) }

// 1. Tracker + scheduler, fix after fix, on one core.
let run = makeRun(count: 12_000)
let passes = 400
var checksum = 0.0
var plays = 0
let loop = seconds {
    for _ in 0..<passes {
        var tracker = DistanceTracker()
        var scheduler = try! PlaybackScheduler(messages: messages)
        for fix in run {
            let reading = tracker.update(with: fix)
            if case .play(let id, _) = scheduler.handle(.distanceUpdate(time: fix.time, meters: reading.meters)).action {
                plays += 1
                _ = scheduler.handle(.playbackFinished(id: id, time: fix.time))
            }
        }
        checksum += tracker.meters
    }
}
let fixCount = Double(run.count * passes)
print(String(format: "tracker+scheduler: %.1f million fixes/s (%d fixes in %.2f CPU s; %.0f m per run, %d plays)",
             fixCount / loop / 1e6, Int(fixCount), loop, checksum / Double(passes), plays))

// The two halves alone, to see where the time goes.
let trackerOnly = seconds {
    for _ in 0..<passes {
        var tracker = DistanceTracker()
        for fix in run { _ = tracker.update(with: fix) }
        checksum += tracker.meters
    }
}
let distances = run.map { $0.time * 3.5 }
let schedulerOnly = seconds {
    for _ in 0..<passes {
        var scheduler = try! PlaybackScheduler(messages: messages)
        for (index, meters) in distances.enumerated() {
            if case .play(let id, _) = scheduler.handle(.distanceUpdate(time: Double(index), meters: meters)).action {
                _ = scheduler.handle(.playbackFinished(id: id, time: Double(index)))
            }
        }
    }
}
print(String(format: "  tracker alone: %.1f million fixes/s; scheduler alone: %.1f million updates/s",
             fixCount / trackerOnly / 1e6, fixCount / schedulerOnly / 1e6))

// 2. A marathon (42.2 km at 1 Hz) from a GPX file: parse, time, track, schedule, plot.
let marathon = makeRun(count: 12_060)
var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"bench\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
for fix in marathon {
    let date = Date(timeIntervalSince1970: 1_700_000_000 + fix.time)
    gpx += "<trkpt lat=\"\(fix.latitude)\" lon=\"\(fix.longitude)\"><time>\(ISO8601DateFormatter().string(from: date))</time></trkpt>\n"
}
gpx += "</trkseg></trk></gpx>\n"
let path = NSTemporaryDirectory() + "bench-marathon.gpx"
try gpx.write(toFile: path, atomically: true, encoding: .utf8)
let simulateMessages = [
    RunSimulator.Message(file: "1km.opus", marker: .absolute(meters: 1000), durationSeconds: 10),
    RunSimulator.Message(file: "half.opus", marker: .percent(50), durationSeconds: 20),
    RunSimulator.Message(file: "finish.opus", marker: .finish, durationSeconds: 15),
]
var timeline: RunSimulator.Timeline?
var best = Double.infinity
for _ in 0..<5 {
    best = min(best, try seconds {
        let fixes = try GPXReader.read(contentsOfFile: path).fixes()
        timeline = try RunSimulator.simulate(
            fixes: fixes, messages: simulateMessages,
            configuration: .init(scheduler: .init(plannedDistance: 42_195)))
    })
}
print(String(format: "marathon simulate end to end (GPX parse + track + schedule): %.0f CPU ms for %d fixes, %.0f m",
             best * 1000, marathon.count, timeline!.distanceMeters))
try? FileManager.default.removeItem(atPath: path)
