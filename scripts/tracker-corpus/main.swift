// The tracker corpus (not a test): every variant's distance error against the truth, the
// worst message start, and the worst case and median; the real tracks against their
// point-to-point sums; standing still. Built by scripts/tracker-corpus.sh with -O from the
// same sources the tests use; docs/tracker.md keeps its figures. Switches:
//   VERBOSE=1          every variant, not only those outside a bound
//   ERRS=1             under each variant printed, the distance error (m) at each message start
//   TRACKER="chordSeconds=6,gapSeconds=10"   other settings of DistanceTracker.Configuration
//   SET=tuning, SET=held-out                 one set only
//   WIDER=1            TrackerCorpus.wider instead: more of the grid, with other seeds
//   SPEED_NOISE=0.5    scales the phones' Doppler speed noise (σ 0.05-0.2 m/s, correlated over
//                      3 s); with SPEED_NOISE=0 and TRACKER="dopplerNoise=0,largestDopplerNoise=0",
//                      what is still late on the phone variants is not that noise
//   POSITION_ONLY=1    drops the phones' Doppler speeds: what their positions alone would count
//   IDEAL=1            for each phone variant, how many 500 m marks an ideal integrator of its
//                      speeds (their noise summed, its bias taken out exactly) passes too far off
//   ORACLE=1           for the variants without speeds, the same for a chord counter over the
//                      raw fixes that knows the corpus's noise exactly, at five chord lengths
//   BOUND=1            for the trail runs, what an oracle smoother (whole run, true noise model,
//                      spikes known) and the best simple smoothing in hindsight reach on the
//                      same fixes, beside the tracker (see TrailBound.swift)
//   COURSE_BOUND=1     for the course runs from positions alone, what an oracle told each fix's
//                      stretch of course reaches, beside the course tracker (see CourseBound.swift)
//   OFF_COURSE_BOUND=1 for each message started while the runner was off the course, how far
//                      from it the fixes lay, against fixes on the course (see OffCourseBound.swift)
import Foundation

let samples = CommandLine.arguments[1]
let filter = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : ""
let environment = ProcessInfo.processInfo.environment
let verbose = environment["VERBOSE"] != nil
/// TRACKER="gapSeconds=30,chordLength=15" overrides settings, to measure what each one does.
var configuration = DistanceTracker.Configuration()
for setting in (environment["TRACKER"] ?? "").split(separator: ",") {
    let parts = setting.split(separator: "=")
    guard parts.count == 2, let value = Double(parts[1]) else { fatalError("bad TRACKER setting \(setting)") }
    var encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(configuration)) as! [String: Any]
    guard encoded[String(parts[0])] != nil else { fatalError("no setting \(parts[0])") }
    encoded[String(parts[0])] = value
    configuration = try JSONDecoder().decode(DistanceTracker.Configuration.self, from: JSONSerialization.data(withJSONObject: encoded))
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

print("== Corpus: tracker against the clean path's length (runs outside a bound; VERBOSE=1 prints all)")
let ideal = environment["IDEAL"] != nil
let oracle = environment["ORACLE"] != nil
let positionOnly = environment["POSITION_ONLY"] != nil
let printsErrors = environment["ERRS"] != nil
var idealLate = 0, idealMarkers = 0

/// The 500 m marks a yardstick passes, and how many of them it passes more than `bound` off.
struct MarkTally {
    let bound: Double
    var markers = 0, late = 0
    private var next = 500.0

    init(bound: Double) { self.bound = bound }

    /// The runner is `trueMeters` along the path, and the yardstick `error` m off from that.
    mutating func pass(trueMeters: Double, error: Double) {
        while trueMeters >= next {
            markers += 1
            if abs(error) > bound { late += 1 }
            next += 500
        }
    }
}

/// The floor the phones' speeds set: their noise integrated over the run (trapezoids between
/// fixes, as the tracker does), with the bias σ²/2v that noise gives a speed taken out exactly
/// (σ as the corpus drew it). How many of the 500 m marks it passes more than `bound` off.
func idealDopplerLateness(_ run: CorpusRun, sigma: Double, bound: Double) -> (late: Int, markers: Int) {
    func error(_ fix: GPSFix) -> Double {
        let truth = run.motion.speed(at: fix.time)
        return (fix.speed ?? truth) - truth - (truth > 0.3 ? sigma * sigma / (2 * truth) : 0)
    }
    var summed = 0.0, tally = MarkTally(bound: bound)
    for (before, fix) in zip(run.fixes, run.fixes.dropFirst()) where fix.time > before.time {
        summed += (error(before) + error(fix)) / 2 * (fix.time - before.time)
        tally.pass(trueMeters: run.trueDistance(at: fix.time), error: summed)
    }
    return (tally.late, tally.markers)
}
/// ORACLE: chords of the raw fixes at least `chord` metres long, each less the length that
/// the corpus's own noise (σ, τ known exactly) adds to a chord on average: Var⊥/(2c), with
/// Var⊥ = 2σ²(1 − e^(−Δt/τ)). How many 500 m marks it passes more than `bound` off.
func oracleChordLateness(_ run: CorpusRun, chord: Double, bound: Double) -> (late: Int, markers: Int) {
    let sigma = run.variant.noise?.sigma ?? 0, tau = run.variant.noise?.timeConstant ?? 1
    let plane = LocalTangentPlane(originLatitude: run.fixes[0].latitude, originLongitude: run.fixes[0].longitude)
    let points = run.fixes.map(plane.project)
    var committed = 0.0, anchor = 0, tally = MarkTally(bound: bound)
    for index in run.fixes.indices.dropFirst() where run.fixes[index].time > run.fixes[anchor].time {
        let length = points[anchor].distance(to: points[index])
        let spread = 2 * sigma * sigma * (1 - exp(-(run.fixes[index].time - run.fixes[anchor].time) / tau))
        let open = length > 0 ? max(0, length - spread / (2 * length)) : 0
        let trueMeters = run.trueDistance(at: run.fixes[index].time)
        tally.pass(trueMeters: trueMeters, error: committed + open - trueMeters)
        if length >= chord {
            committed += open
            anchor = index
        }
    }
    return (tally.late, tally.markers)
}
var oracleLate = [Double: Int](), oracleMarkers = 0, oracleBestLate = 0
let speedNoise = Double(environment["SPEED_NOISE"] ?? "1") ?? 1

/// The trail runs (see `TrackerCorpus.variants`): judged apart from the grid, against bounds
/// of their own.
func isTrail(_ variant: CorpusVariant) -> Bool {
    if case .swayingWithStand = variant.movement { return true }
    return false
}

/// Where a trail run's distance error comes from along the way: the error when the runner
/// stops for the 5-minute stand, what the stand adds to it (until 60 s after it), how it drifts
/// on after that, and what the three 160 m spikes add (from just before each to 10 s after).
func alongTheWay(_ run: CorpusRun) -> String {
    var standStart = 0.0, elapsed = 0.0
    for piece in run.motion.pieces {
        if piece.speed == 0 { standStart = elapsed }
        elapsed += piece.seconds
    }
    let standEnd = standStart + 300
    var tracker = DistanceTracker(configuration: configuration)
    var errors: [(time: Double, error: Double)] = []
    var spikes: [Double] = []
    for fix in run.fixes {
        errors.append((fix.time, tracker.update(with: fix).meters - run.trueDistance(at: fix.time)))
        let place = run.path.locate(run.motion.distance(at: fix.time))
        let off = Geodesic.distance(fromLatitude: place.latitude, longitude: place.longitude, toLatitude: fix.latitude, longitude: fix.longitude)
        if off > 100 { spikes.append(fix.time) }
    }
    func error(at time: Double) -> Double { errors.last { $0.time <= time }?.error ?? 0 }
    let atStand = error(at: standStart), afterStand = error(at: standEnd + 60), end = errors.last!.error
    let spikesAdd = spikes.reduce(0) { $0 + error(at: $1 + 10) - error(at: $1 - 0.5) }
    return String(
        format: "at the stand %+6.1f m, the stand adds %+6.1f m, then %+5.2f%% to the end (%+6.1f m); the spikes add %+5.1f m",
        atStand, afterStand - atStand, (end - afterStand) / (run.truth - run.trueDistance(at: standEnd + 60)) * 100,
        end - afterStand, spikesAdd)
}
var alongLines: [String] = []
let measuresBound = environment["BOUND"] != nil
var boundRows: [(set: String, report: TrailBound.Report, tracker: CorpusResult)] = []

/// Replays one set, printing each run outside a bound (every run with VERBOSE=1).
func replay(_ variants: [CorpusVariant], set name: String) throws -> [CorpusResult] {
    var results: [CorpusResult] = []
    for var variant in variants where filter.isEmpty || variant.description.contains(filter) {
        variant.device.speedSigma = variant.device.speedSigma.map { $0 * speedNoise }
        if positionOnly { variant.device.speedSigma = nil }
        let run = try CorpusRun(variant, samples: samples)
        let result = try CorpusResult(run, tracker: configuration)
        if ideal, let sigma = variant.device.speedSigma {
            let (late, markers) = idealDopplerLateness(run, sigma: sigma, bound: result.latenessBound)
            idealLate += late
            idealMarkers += markers
            print(String(format: "ideal speeds %2d of %2d late, tracker %2d  ", late, markers, result.lateStarts) + variant.description)
        }
        if oracle, variant.device.speedSigma == nil {
            var line = "", best = Int.max, markers = 0
            for chord in [5.0, 10, 20, 40, 80] {
                let (late, count) = oracleChordLateness(run, chord: chord, bound: result.latenessBound)
                oracleLate[chord, default: 0] += late
                markers = count
                best = min(best, late)
                line += String(format: " %2.0f m: %2d", chord, late)
            }
            oracleMarkers += markers
            oracleBestLate += best
            print(String(format: "oracle of %2d marks late:", markers) + line + String(format: "; tracker %2d  ", result.lateStarts) + variant.description)
        }
        results.append(result)
        if isTrail(variant) {
            let bound = variant.interval.longest == 1 ? 15.0 : 25.0
            let late = result.latenesses.filter { abs($0) > bound }.count
            alongLines.append(String(format: "%@ %2d late  ", name, late) + alongTheWay(run) + "  " + variant.description)
            if measuresBound, let report = TrailBound.report(run) { boundRows.append((name, report, result)) }
        }
        // How many of its starts were late along the true path, first: where the misses are.
        if verbose || abs(result.error) > 0.02 || result.lateStarts > 0 || !result.playedInOrderOnce {
            print(name + String(format: " %2d of %2d late ", result.lateStarts, result.latenesses.count) + result.description)
            if printsErrors { print("   " + result.distanceErrors.map { String(format: "%+.0f", $0) }.joined(separator: " ")) }
        }
    }
    return results
}

/// A set's figures, one (name, value) a line: the grid's as the tests judge them, then the
/// trail runs' at 1 Hz and every 5 s against their own bounds (15 m and 25 m).
func figures(_ results: [CorpusResult]) -> [(String, String)] {
    var lines: [(String, String)] = []
    let grid = results.filter { !isTrail($0.variant) }
    if !grid.isEmpty {
        let errors = grid.map(\.error), starts = grid.flatMap(\.latenesses)
        lines += [
            ("grid: runs", "\(grid.count)"),
            ("grid: median |distance error|", String(format: "%.2f%%", median(errors.map(abs)) * 100)),
            ("grid: worst distance error", String(format: "%+.2f%%", errors.farthestFromZero * 100)),
            ("grid: runs outside 2%", "\(errors.filter { abs($0) > 0.02 }.count)"),
            ("grid: order or exactly-once broken", "\(grid.filter { !$0.playedInOrderOnce }.count)"),
            ("grid: starts on time (15 m; 40 m past 5 s)", "\(grid.reduce(0) { $0 + $1.onTimeStarts }) of \(starts.count)"),
            ("grid: median |start miss|", String(format: "%.1f m", median(starts.map(abs)))),
            ("grid: worst start miss", String(format: "%+.1f m", starts.farthestFromZero)),
        ]
        for (name, holds) in CorpusResult.intervalClasses {
            let group = grid.filter { holds($0.variant.interval) }
            guard !group.isEmpty else { continue }
            lines.append(("grid \(name): on time", "\(group.reduce(0) { $0 + $1.onTimeStarts }) of \(group.flatMap(\.latenesses).count)"))
        }
    }
    for (seconds, bound) in [(1.0, 15.0), (5.0, 25.0)] {
        let trail = results.filter { isTrail($0.variant) && $0.variant.interval.longest == seconds }
        guard !trail.isEmpty else { continue }
        let starts = trail.flatMap(\.latenesses)
        let name = seconds == 1 ? "trail 1 Hz" : "trail every 5 s"
        lines += [
            ("\(name): runs", "\(trail.count)"),
            ("\(name): worst distance error", String(format: "%+.2f%%", trail.map(\.error).farthestFromZero * 100)),
            ("\(name): runs outside 2%", "\(trail.filter { abs($0.error) > 0.02 }.count)"),
            ("\(name): starts within \(Int(bound)) m", "\(starts.filter { abs($0) <= bound }.count) of \(starts.count)"),
            ("\(name): worst start miss", String(format: "%+.1f m", starts.farthestFromZero)),
        ]
    }
    let tracked = results.flatMap(\.trackedLatenesses)
    if !tracked.isEmpty { lines.append(("scheduler's own part, worst", String(format: "%+.1f m", tracked.farthestFromZero))) }
    return lines
}

/// WIDER=1 replays `TrackerCorpus.wider`; SET=tuning or SET=held-out only that set.
let sets: [(String, [CorpusVariant])] = environment["WIDER"] != nil
    ? [("wider", TrackerCorpus.wider)]
    : TrackerCorpus.Split.allCases.filter { split in environment["SET"].map { $0 == split.rawValue } ?? true }
        .map { ($0.rawValue, TrackerCorpus.variants($0)) }
var table: [(set: String, figures: [(String, String)])] = []
for (name, variants) in sets {
    let results = try replay(variants, set: name)
    table.append((name, figures(results)))
}
let coursePairs = try replayCourseRuns(addingFiguresTo: &table)
if environment["COURSE_BOUND"] != nil { try printCourseBound(coursePairs) }
if environment["OFF_COURSE_BOUND"] != nil { try printOffCourseBound(coursePairs) }
if !alongLines.isEmpty {
    print("\n== Trail runs along the way (late: starts past 15 m at 1 Hz, 25 m every 5 s)")
    for line in alongLines { print(line) }
}
if !boundRows.isEmpty {
    print("\n== Trail runs: messages within the bound (15 m at 1 Hz, 25 m every 5 s) and total distance error (m)")
    print("   tracker: this tree, its scheduler included; the rest are distance alone, a message starting where the distance")
    print("   reaches its marker. oracle: RTS smoother, true noise model, spikes known, q (m²/s³) in hindsight; corner/noise:")
    print("   its total error from smoothing the true places alone, and what the noise adds; ∫v: its speed integrated; stand")
    print("   known: its length with nothing counted inside the 5-minute stand. hindsight: the best moving")
    print("   average or decimation per run. perfect: the true places at the same fixes. route: each fix put on the true")
    print("   path, not from positions alone (what knowing the route's shape would give). rms: the oracle's places and the")
    print("   fixes' from the true places.")
    print("set      every  tracker       oracle                           oracle∫v      stand known   hindsight                          perfect       route         rms oracle/fixes  noise")
    func cell(_ within: Int, _ count: Int, _ error: Double) -> String { String(format: "%2d/%2d %+6.1f", within, count, error) }
    for row in boundRows {
        let r = row.report, b = r.bound
        let trackerWithin = row.tracker.latenesses.filter { abs($0) <= b }.count
        print(String(format: "%-8@ %3.0f s  ", row.set, r.run.variant.interval.longest)
            + cell(trackerWithin, row.tracker.latenesses.count, row.tracker.tracked - row.tracker.truth) + "  "
            + cell(r.oracle.within(b), r.oracle.misses.count, r.oracle.totalError)
            + String(format: " q %-5g (%+5.1f/%+5.1f)  ", r.oracleQ, r.cornerCutting, r.noiseInflation)
            + cell(r.oracleSpeed.within(b), r.oracleSpeed.misses.count, r.oracleSpeed.totalError) + "  "
            + cell(r.oracleStandKnown.within(b), r.oracleStandKnown.misses.count, r.oracleStandKnown.totalError) + "  "
            + cell(r.hindsight.within(b), r.hindsight.misses.count, r.hindsight.totalError) + " " + r.hindsight.name.padding(toLength: 20, withPad: " ", startingAt: 0)
            + cell(r.perfectFixes.within(b), r.perfectFixes.misses.count, r.perfectFixes.totalError) + "  "
            + cell(r.routeKnown.within(b), r.routeKnown.misses.count, r.routeKnown.totalError)
            + String(format: "  %4.1f/%4.1f m       ", r.oracleRMS, r.fixesRMS)
            + String(format: "σ %g τ %g white %g", r.run.variant.noise!.sigma, r.run.variant.noise!.timeConstant, r.run.variant.noise!.white))
    }
    for set in Set(boundRows.map(\.set)).sorted() {
        for seconds in [1.0, 5] {
            let rows = boundRows.filter { $0.set == set && $0.report.run.variant.interval.longest == seconds }
            guard let b = rows.first?.report.bound else { continue }
            func total(_ pick: (TrailBound.Report) -> TrailBound.Outcome) -> String {
                "\(rows.reduce(0) { $0 + pick($1.report).within(b) }) of \(rows.reduce(0) { $0 + pick($1.report).misses.count })"
            }
            let tracker = "\(rows.reduce(0) { $0 + $1.tracker.latenesses.filter { abs($0) <= b }.count }) of \(rows.reduce(0) { $0 + $1.tracker.latenesses.count })"
            print(String(format: "%@ every %.0f s, within %.0f m, causal chords of ", set, seconds, b) + TrailBound.chordSeconds.indices.map { index in
                String(format: "%.0f s: %d", TrailBound.chordSeconds[index], rows.reduce(0) { $0 + $1.report.chords[index].within(b) })
            }.joined(separator: ", ") + " (the same setting for every run)")
            for (name, pick) in [("oracle, stand known", \TrailBound.Report.standKnownByQ), ("its forward filter (causal), stand known", \.filterByQ)] {
                print(String(format: "%@ every %.0f s, within %.0f m, %@, one q for every run: ", set, seconds, b, name) + TrailBound.oracleQs.indices.map { index in
                    String(format: "%g: %d", TrailBound.oracleQs[index], rows.reduce(0) { $0 + $1.report[keyPath: pick][index].within(b) })
                }.joined(separator: ", "))
            }
            print(String(format: "%@ every %.0f s, within %.0f m, fixed-lag smoother (causal), one setting for every run:", set, seconds, b))
            for (index, setting) in TrailBound.fixedLagSettings.enumerated() {
                print(String(format: "    %3d of %3d  ", rows.reduce(0) { $0 + $1.report.fixedLag[index].within(b) },
                             rows.reduce(0) { $0 + $1.report.fixedLag[index].misses.count }) + setting.description)
            }
            print(String(format: "%@ every %.0f s, within %.0f m, fixed-lag smoother (causal) learning the noise model and the stand from the fixes, one setting for every run:", set, seconds, b))
            for (index, setting) in TrailBound.learnedSettings.enumerated() {
                print(String(format: "    %3d of %3d  ", rows.reduce(0) { $0 + $1.report.learned[index].within(b) },
                             rows.reduce(0) { $0 + $1.report.learned[index].misses.count }) + setting.description)
            }
            print(String(format: "%@ every %.0f s, within %.0f m: tracker %@; oracle %@; oracle ∫v %@; oracle, stand known %@; its filter, stand known %@; hindsight %@; perfect fixes %@; route known %@", set, seconds, b,
                         tracker, total(\.oracle), total(\.oracleSpeed), total(\.oracleStandKnown), total(\.filterStandKnown), total(\.hindsight), total(\.perfectFixes), total(\.routeKnown)))
        }
    }
}
for (set, pairs) in coursePairs { courseShapeTable(pairs, set: set) }
if oracleMarkers > 0 {
    let lengths = oracleLate.sorted { $0.key < $1.key }.map { String(format: "%.0f m: %d", $0.key, $0.value) }
    print("oracle chords, marks passed too far off of \(oracleMarkers): " + lengths.joined(separator: ", ") + "; the best length for each variant: \(oracleBestLate)")
}
if idealMarkers > 0 { print("ideal speeds: \(idealLate) of \(idealMarkers) 500 m marks passed too far off") }

// Side by side, one figure a line; SUMMARY=file also writes them as "set<TAB>figure<TAB>value"
// lines, which the script sets beside another build's (BEFORE=rev).
print("\n== Figures by set")
let names = table.first?.figures.map(\.0) ?? []
print(([("figure", 44)] + table.map { ($0.set, 16) }).map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }.joined(separator: " "))
for name in names {
    let values = table.map { set in set.figures.first { $0.0 == name }?.1 ?? "" }
    print(([(name, 44)] + values.map { ($0, 16) }).map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }.joined(separator: " "))
}
if let path = environment["SUMMARY"] {
    let lines = table.flatMap { set in set.figures.map { "\(set.set)\t\($0.0)\t\($0.1)" } }
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}

print("\n== Real tracks without added noise: tracker against the point-to-point sum (-4%/+1%)")
var realErrors: [Double] = []
for variant in TrackerCorpus.realTracks where filter.isEmpty || variant.description.contains(filter) {
    let fixes = try variant.fixes(samples: samples)
    let sum = CleanPath.rawSum(of: fixes)
    var tracker = DistanceTracker(configuration: configuration)
    for fix in fixes { _ = tracker.update(with: fix) }
    let error = (tracker.meters - sum) / sum
    realErrors.append(error)
    if verbose || error < -0.04 || error > 0.01 {
        print(String(format: "%+6.2f%%  sum %6.0f m  tracker %6.0f m  %d fixes  %@", error * 100, sum, tracker.meters, fixes.count, variant.description))
    }
}
if !realErrors.isEmpty {
    print(String(format: "%d variants: min %+.2f%%, median %+.2f%%, max %+.2f%%; outside: %d", realErrors.count, realErrors.min()! * 100, median(realErrors) * 100, realErrors.max()! * 100, realErrors.filter { $0 < -0.04 || $0 > 0.01 }.count))
}

print("\n== Real recordings against the device's own distance (samples/devices; at each whole km the device reached)")
let devices = (samples as NSString).deletingLastPathComponent + "/devices"
let recordings = ((try? FileManager.default.contentsOfDirectory(atPath: devices)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
if filter.isEmpty && !recordings.isEmpty {
    print("recording                      device m  tracker m   total  median |miss| at km  worst miss at km")
    for name in recordings {
        let lines = try String(contentsOfFile: devices + "/" + name, encoding: .utf8).split(separator: "\n").dropFirst()
        var tracker = DistanceTracker(configuration: configuration)
        var misses: [Double] = [], nextMark = 1000.0, device = 0.0
        for line in lines {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count == 4 else { fatalError("\(name): not seconds,latitude,longitude,device_meters: \(line)") }
            let reading = tracker.update(with: GPSFix(time: fields[0], latitude: fields[1], longitude: fields[2]))
            device = fields[3]
            while device >= nextMark {
                misses.append(reading.meters - device)
                nextMark += 1000
            }
        }
        print(String(format: "%@ %8.0f  %9.0f  %+5.1f%%  %8.1f m (%d km)  %+8.1f m",
                     name.padding(toLength: 28, withPad: " ", startingAt: 0), device, tracker.meters, (tracker.meters - device) / device * 100,
                     median(misses.map(abs)), misses.count, misses.farthestFromZero))
    }
}

print("\n== Standing still 10 minutes from the start, σ 5 m, τ 30 s: metres added, each seed 1-10 (0.00 m asked)")
var standing: [Bool: [Double]] = [:]
for seed in UInt64(1)...10 where filter.isEmpty {
    for reports in [true, false] {
        var random = SeededGenerator(seed: seed)
        var noise = GaussMarkovProcess(sigma: 5, timeConstant: 30, random: &random)
        var velocity = GaussMarkovProcess(sigma: 0.15, timeConstant: 3, random: &random)
        var tracker = DistanceTracker(configuration: configuration)
        for second in 0..<600 {
            noise.advance(by: 1, random: &random)
            velocity.advance(by: 1, random: &random)
            let place = LocalMeters.offset((52.52, 13.405), east: noise.east, north: noise.north)
            _ = tracker.update(with: GPSFix(
                time: Double(second), latitude: place.latitude, longitude: place.longitude,
                horizontalAccuracy: reports ? 5 : nil,
                speed: reports ? (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot() : nil))
        }
        standing[reports, default: []].append(tracker.meters)
    }
}
for reports in [true, false] where !standing.isEmpty {
    print((reports ? "phone:         " : "position only: ") + standing[reports, default: []].map { String(format: "%.2f", $0) }.joined(separator: " "))
}
if filter.isEmpty, environment["NO_COURSE"] == nil { courseStanding() }
if filter.isEmpty {
    // A real recording: a Garmin standing in one spot for about 90 s (fixes 16 to 31).
    let fixes = try GPXReader.read(contentsOfFile: samples + "/garmin-standing-jitter.gpx").fixes()
    var tracker = DistanceTracker(configuration: configuration)
    var metersAt: [Double] = []
    for fix in fixes { metersAt.append(tracker.update(with: fix).meters) }
    print(String(format: "garmin-standing-jitter.gpx, fixes 16-31 standing: point-to-point %.1f m, tracker %.2f m",
                 CleanPath.rawSum(of: Array(fixes[16...31])), metersAt[31] - metersAt[16]))
}
