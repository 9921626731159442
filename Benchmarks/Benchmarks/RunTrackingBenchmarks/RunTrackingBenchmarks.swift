import Benchmark
import BenchmarkFixtures
import RunTracking

/// Fixes per second through the DistanceTracker and the PlaybackScheduler, the work the phone
/// does once a second for a whole run, and through the CourseTracker on a marathon course of
/// 100,000 places. Each iteration feeds 1,000 fixes of a 42 km run (the `*` figures are per
/// fix), carrying on from the iteration before.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: Tolerances.metrics,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000,
        thresholds: Tolerances.thresholds(allocates: false))
    let fixes = SyntheticRun.fixes(count: 12_000)

    let tracked = RunReplay(fixes: fixes)
    Benchmark("Tracker.fixes") { benchmark in
        tracked.next(benchmark.scaledIterations.count) { fixes, tracker, _ in
            for fix in fixes { blackHole(tracker.update(with: fix)) }
        }
    }

    let scheduled = RunReplay(fixes: fixes)
    Benchmark("Scheduler.updates") { benchmark in
        scheduled.next(benchmark.scaledIterations.count) { fixes, _, scheduler in
            for fix in fixes {
                // 3.5 m/s, as the run is made: the scheduler alone, without the tracker's work.
                let action = scheduler.handle(.distanceUpdate(time: fix.time, meters: fix.time * 3.5)).action
                if case .play(let id, _) = action {
                    blackHole(scheduler.handle(.playbackFinished(id: id, time: fix.time)))
                }
            }
        }
    }

    let both = RunReplay(fixes: fixes)
    Benchmark("TrackerAndScheduler.fixes") { benchmark in
        both.next(benchmark.scaledIterations.count) { fixes, tracker, scheduler in
            for fix in fixes {
                let reading = tracker.update(with: fix)
                let action = scheduler.handle(.distanceUpdate(time: fix.time, meters: reading.meters)).action
                if case .play(let id, _) = action {
                    blackHole(scheduler.handle(.playbackFinished(id: id, time: fix.time)))
                }
            }
        }
    }

    let course = CourseReplay()
    Benchmark("CourseTracker.fixes") { benchmark in
        course.next(benchmark.scaledIterations.count) { fixes, tracker in
            for fix in fixes { blackHole(tracker.update(with: fix)) }
        }
    }
}
