import Foundation
import RunTracking
import Testing
import TestSupport

/// One tracker, two builds: the runner's page runs RunTracking compiled as Embedded Swift to
/// WebAssembly (web/run-tracking.wasm), and it must decide exactly as the native build that the
/// corpus measures. Node, from Debian's nodejs, runs the module through the page's own
/// web/tracking.js (scripts/wasm-replay.mjs).
@Suite(.serialized) struct WasmTrackerTests {
    static let root = PlaybackFixtures.packageRoot
    static let committedModule = root.appendingPathComponent("web/run-tracking.wasm")

    /// A run as both builds are given it: messages every 500 m and one at the finish, each
    /// playing 5 s, and the planned distance the truth, as the corpus's own results have them.
    struct ReplayedRun: Codable {
        var plannedDistance: Double?
        var markers: [Double]
        var durations: [Double]
        /// [time, latitude, longitude, accuracy or null, speed or null]
        var fixes: [[Double?]]
        /// The race's course as [latitude, longitude] places, for a course run.
        var course: [[Double]]?
    }

    struct Start: Codable, Equatable {
        var number: Int
        var reason: String
        var time: Double
        var fix: Int
        var meters: Double
    }

    struct Answer: Codable {
        var meters: [Double]
        /// 1 while off the course, at each fix.
        var offCourse: [Int]
        /// 1 while a run that began away from the course has not reached it, at each fix.
        var beforeStart: [Int]
        var starts: [Start]
    }

    static func replayedRun(_ run: CorpusRun) throws -> ReplayedRun {
        let markers = try run.markers.map { try $0.resolvedMeters(plannedDistance: run.plannedDistance) }
        var replayed = replayedRun(run.fixes, markers: markers, plannedDistance: run.plannedDistance)
        replayed.course = try run.layout?.trackerCourse().points.map { [$0.latitude, $0.longitude] }
        return replayed
    }

    static func replayedRun(_ fixes: [GPSFix], markers: [Double], plannedDistance: Double?) -> ReplayedRun {
        ReplayedRun(
            plannedDistance: plannedDistance, markers: markers, durations: markers.map { _ in 5 },
            fixes: fixes.map { [$0.time, $0.latitude, $0.longitude, $0.horizontalAccuracy, $0.speed] })
    }

    /// Every run scripts/tracker-corpus.sh replays: the tuning and held-out variants, their
    /// course runs (each with its course), and the real tracks as recorded (a message every
    /// kilometre on those), by name.
    static func corpus() throws -> [(name: String, run: ReplayedRun)] {
        let samples = TrackerCorpusTests.samples
        let variants = TrackerCorpus.variants(.tuning) + TrackerCorpus.variants(.heldOut)
            + TrackerCorpus.courseVariants(.tuning) + TrackerCorpus.courseVariants(.heldOut)
        var runs = try variants.map { ($0.description, try replayedRun(CorpusRun($0, samples: samples))) }
        for track in TrackerCorpus.realTracks {
            let fixes = try track.fixes(samples: samples)
            runs.append((track.description, replayedRun(fixes, markers: [1000, 2000, 3000], plannedDistance: nil)))
        }
        return runs
    }

    /// The native build, driven as scripts/wasm-replay.mjs drives the module.
    static func nativeAnswer(_ run: ReplayedRun) throws -> Answer {
        let messages = run.markers.enumerated().map {
            PlaybackScheduler.Message(id: String($0.offset), marker: .absolute(meters: $0.element))
        }
        let course = try run.course.map { try Course(points: $0.map { Course.Point(latitude: $0[0], longitude: $0[1]) }) }
        let configuration = PlaybackScheduler.Configuration(plannedDistance: run.plannedDistance)
        var replay = PlaybackReplay(
            scheduler: try PlaybackScheduler(
                messages: messages, configuration: course.map { configuration.along($0) } ?? configuration),
            durations: Dictionary(uniqueKeysWithValues: run.durations.enumerated().map { (String($0.offset), $0.element) }))
        var tracker = course.map { RunTracker.course(CourseTracker(course: $0)) } ?? .positions(DistanceTracker())
        var answer = Answer(meters: [], offCourse: [], beforeStart: [], starts: [])
        func record(_ starts: [PlaybackReplay.Start], fix: Int) {
            answer.starts += starts.map {
                Start(number: Int($0.id)!, reason: $0.reason.rawValue, time: $0.time, fix: fix, meters: $0.meters)
            }
        }
        var last = -Double.infinity
        for (index, values) in run.fixes.enumerated() {
            let fix = GPSFix(time: values[0]!, latitude: values[1]!, longitude: values[2]!, horizontalAccuracy: values[3], speed: values[4])
            let reading = tracker.update(with: fix)
            answer.meters.append(reading.meters)
            answer.offCourse.append(reading.isOffCourse ? 1 : 0)
            answer.beforeStart.append(tracker.courseTracker?.startedAway != nil ? 1 : 0)
            last = max(last, fix.time)
            record(replay.handle(.distanceUpdate(time: reading.time, meters: reading.meters)), fix: index)
        }
        record(replay.finish(at: last), fix: run.fixes.count - 1)
        return answer
    }

    static func wasmAnswers(_ runs: [ReplayedRun], module: URL) throws -> [Answer] {
        let scratch = try TemporaryDirectory()
        let input = scratch.file("runs.json")
        try JSONEncoder().encode(runs).write(to: URL(fileURLWithPath: input))
        let output = try Tool.run(
            "node", [root.appendingPathComponent("scripts/wasm-replay.mjs").path, module.path, input], timeout: 600)
        return try JSONDecoder().decode([Answer].self, from: output.standardOutput)
    }

    /// Every corpus run, through both builds: the same messages start at the same fixes, for
    /// the same reasons, and the distances agree to a millionth.
    @Test func theModuleDecidesAsTheNativeBuildOverTheWholeCorpus() async throws {
        let (names, natives, wasm) = try await offThePool {
            let corpus = try Self.corpus()
            let runs = corpus.map(\.run)
            return (corpus.map(\.name), try runs.map(Self.nativeAnswer), try Self.wasmAnswers(runs, module: Self.committedModule))
        }
        try #require(wasm.count == natives.count)
        var fixes = 0
        var starts = 0
        for (index, (native, module)) in zip(natives, wasm).enumerated() {
            let name = names[index]
            try #require(module.meters.count == native.meters.count, "\(name)")
            fixes += native.meters.count
            starts += native.starts.count
            let worst = zip(module.meters, native.meters).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
            #expect(worst <= 1e-6, "\(name): distances differ by \(worst) relative")
            #expect(module.offCourse == native.offCourse, "\(name): off the course at other fixes")
            #expect(module.beforeStart == native.beforeStart, "\(name): before the start at other fixes")
            #expect(module.starts.map { [$0.number, $0.fix] } == native.starts.map { [$0.number, $0.fix] }, "\(name)")
            #expect(module.starts.map(\.reason) == native.starts.map(\.reason), "\(name)")
            for (a, b) in zip(module.starts, native.starts) {
                #expect(abs(a.time - b.time) <= 1e-6 * max(1, abs(b.time)), "\(name): message \(b.number) at \(a.time) against \(b.time)")
                #expect(abs(a.meters - b.meters) <= 1e-6 * max(1, b.meters), "\(name): message \(b.number)")
            }
        }
        // The corpus plays messages at all, leaves the course and begins away from it: a
        // comparison of nothing would hold trivially.
        #expect(starts >= natives.count * 2)
        #expect(wasm.contains { $0.offCourse.contains(1) })
        #expect(wasm.contains { $0.beforeStart.contains(1) })
        print("wasm and native builds: \(natives.count) runs, \(fixes) fixes, \(starts) message starts compared")
    }

    /// The committed module is what the sources build: nothing stale ships in the page.
    @Test func theCommittedModuleIsWhatTheSourcesBuild() async throws {
        let scratch = try TemporaryDirectory()
        let built = scratch.file("run-tracking.wasm")
        let script = Self.root.appendingPathComponent("scripts/build-wasm.sh").path
        // A minute of compiling, waited on off the cooperative pool.
        let gzipped = try await offThePool {
            try Tool.run("bash", [script, built], timeout: 600)
            return try Tool.run("bash", ["-c", "gzip -9c '\(built)' | wc -c"]).text
        }
        let fresh = try Data(contentsOf: URL(fileURLWithPath: built))
        let committed = try Data(contentsOf: Self.committedModule)
        #expect(fresh == committed, "web/run-tracking.wasm is not what the sources build: run `make wasm` and commit it")
        // The page's budget: 150 KB once gzipped, as a server sends it.
        #expect((Int(gzipped.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max) <= 150 * 1024)
    }
}
