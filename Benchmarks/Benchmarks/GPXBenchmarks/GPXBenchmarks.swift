import Benchmark
import BenchmarkFixtures
import Foundation
import GPXReplay
import RunTracking

/// GPX files read through libexpat, from memory so the disk is not measured: the largest real
/// track in samples/gpx and a marathon as a watch writes it; and a marathon replayed end to
/// end, as `voicemsg simulate` does before it draws anything.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: Tolerances.metrics,
        maxDuration: .seconds(2),
        thresholds: Tolerances.thresholds())

    // Benchmarks/Benchmarks/GPXBenchmarks/GPXBenchmarks.swift -> the voicemsg checkout
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let stravaPath = root.appendingPathComponent("samples/gpx/strava-run-with-pauses.gpx").path
    guard let strava = FileManager.default.contents(atPath: stravaPath) else {
        fatalError("\(stravaPath): cannot read the sample track the GPX benchmark parses")
    }
    let marathon = SyntheticRun.gpx(SyntheticRun.fixes(count: SyntheticRun.marathonFixCount))

    // 476 KiB, 1,697 points, with heart rate and cadence extensions.
    Benchmark("GPXParse.stravaRunWithPauses") { _ in
        blackHole(try GPXReader.read(data: strava, name: "strava-run-with-pauses.gpx"))
    }

    // 1.3 MiB, 12,060 points with an elevation and a time each.
    Benchmark("GPXParse.marathon") { _ in
        blackHole(try GPXReader.read(data: marathon, name: "marathon.gpx"))
    }

    let messages = [
        RunSimulator.Message(file: "1km.opus", marker: .absolute(meters: 1000), durationSeconds: 10),
        RunSimulator.Message(file: "half.opus", marker: .percent(50), durationSeconds: 20),
        RunSimulator.Message(file: "finish.opus", marker: .finish, durationSeconds: 15),
    ]
    // GPX parse, fixes, tracker and scheduler: `voicemsg simulate` before it draws.
    Benchmark("Replay.marathon") { _ in
        let fixes = try GPXReader.read(data: marathon, name: "marathon.gpx").fixes()
        blackHole(try RunSimulator.simulate(
            fixes: fixes, messages: messages,
            configuration: .init(scheduler: .init(plannedDistance: 42_195))))
    }
}
