import Foundation

// OFF_COURSE_BOUND=1: whether the fixes could have told that the runner was off the course at
// each moment the course tracker played a message there. For each such start: how far from the
// course the latest fix lay, and the fixes of the 10 s and 30 s before on average; and beside
// each, how often fixes of the same noise model and interval lay as far from the course while
// the runner truly was on it. Where that is often, no rule on the fixes' distance from the
// course can hold the message back without holding back a runner who is on the course.

/// The windows this measures over, in seconds: 0 is the latest fix alone.
private let windows = [0.0, 10, 30]

/// For each fix near the course (a spike, which the tracker drops, is left out): the mean
/// distance from the course of the fixes of the `window` seconds up to it, and whether the
/// runner truly was on the course then.
private func windowedLateral(_ run: CorpusRun, window: Double) -> [(time: Double, mean: Double, onCourse: Bool)] {
    let layout = run.layout!
    var recent: [(time: Double, off: Double)] = [], first = 0, sum = 0.0
    var rows: [(time: Double, mean: Double, onCourse: Bool)] = []
    for fix in run.fixes {
        let runner = run.motion.distance(at: fix.time)
        let truth = layout.courseMeters(atRunner: runner), off = layout.isOffCourse(atRunner: runner)
        // The stretch of course the runner is beside: around the truth, or the stretch the
        // excursion runs beside.
        let range = off ? (layout.excursion!.courseFrom - 150)...(layout.excursion!.courseTo + 150) : (truth - 150)...(truth + 150)
        guard let foot = layout.course.foot(latitude: fix.latitude, longitude: fix.longitude, within: range), foot.off < 60 else { continue }
        recent.append((fix.time, foot.off))
        sum += foot.off
        while recent[first].time < fix.time - window {
            sum -= recent[first].off
            first += 1
        }
        rows.append((fix.time, sum / Double(recent.count - first), !off))
    }
    return rows
}

func printOffCourseBound(_ sets: [(set: String, pairs: [CoursePair])]) throws {
    print("\n== Messages started while the runner was truly off the course: how far from the course the latest fix, and the fixes")
    print("   of the 10 s and 30 s before on average, lay; beside each, the share of moments on the course when fixes of the same")
    print("   noise and interval (both sets' runs) lay as far")
    let all = sets.flatMap(\.pairs).map(\.course.variant).filter { $0.device.speedSigma == nil }
    for (set, pairs) in sets {
        for pair in pairs where pair.course.playedOffCourse > 0 {
            let variant = pair.course.variant
            let alike = all.filter {
                $0.noise?.sigma == variant.noise?.sigma && $0.noise?.timeConstant == variant.noise?.timeConstant
                    && $0.interval.longest == variant.interval.longest
            }
            let run = try CorpusRun(variant, samples: samples)
            let alikeRuns = try alike.map { try CorpusRun($0, samples: samples) }
            var columns: [[String]] = pair.course.offCourseStarts.map { [String(format: "%@ %.0f s", set, $0)] }
            for window in windows {
                let onCourse = alikeRuns.flatMap { windowedLateral($0, window: window).filter(\.onCourse).map(\.mean) }
                let rows = windowedLateral(run, window: window)
                for (index, start) in pair.course.offCourseStarts.enumerated() {
                    guard let row = rows.last(where: { $0.time <= start }) else { continue }
                    let asFar = Double(onCourse.filter { $0 >= row.mean }.count) / Double(max(onCourse.count, 1))
                    columns[index].append(String(format: "%@ %.1f m (%.1f%%)", window == 0 ? "latest" : String(format: "%.0f s", window), row.mean, 100 * asFar))
                }
            }
            for column in columns { print(column.joined(separator: "; ") + "  " + variant.description + " (\(alike.count) runs alike)") }
        }
    }
}
