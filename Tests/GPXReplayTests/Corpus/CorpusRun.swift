import Foundation
import GPXReplay
import RunTracking
import TestSupport

/// A corpus variant made into fixes, with the truth they were made from.
struct CorpusRun: Sendable {
    var variant: CorpusVariant
    var path: TruePath
    var motion: Motion
    var fixes: [GPSFix]
    /// A course run's course and where along it the runner truly is (nil from positions alone).
    var layout: CourseLayout?

    /// Metres along the clean path from the first fix to the last: what the tracker should say.
    var truth: Double { motion.distance(at: fixes.last!.time) - motion.distance(at: fixes.first!.time) }

    /// The run's planned distance, for the scheduler: the truth, or the course's length.
    var plannedDistance: Double { layout?.course.length ?? truth }

    /// A message every 500 m and one at the finish.
    var markers: [DistanceMarker] {
        stride(from: 500.0, to: plannedDistance - 50, by: 500).map { DistanceMarker.absolute(meters: $0) } + [.finish]
    }

    /// While the app slept (no fixes) in the stale-fix case, and until three fresh fixes have
    /// come after the stale ones (the tracker needs three that agree to drop the stale one it
    /// bridged to): no message can start on time then.
    var blind: ClosedRange<Double>? {
        guard variant.staleFixes else { return nil }
        let sleep = (motion.duration * 0.55)...(motion.duration * 0.55 + 45)
        return sleep.lowerBound...(sleep.upperBound + 4 + 3 * variant.interval.longest)
    }

    /// The true distance covered at `time` (seconds on the fixes' clock, which starts at 0).
    func trueDistance(at time: Double) -> Double { motion.distance(at: time) - motion.distance(at: fixes.first!.time) }

    /// Where along the course the runner truly is at `time` (see `CourseLayout.courseMeters`).
    func trueCourseDistance(at time: Double) -> Double {
        guard let layout else { return trueDistance(at: time) }
        return layout.courseMeters(atRunner: motion.distance(at: time)) - layout.courseMeters(atRunner: motion.distance(at: fixes.first!.time))
    }

    init(_ variant: CorpusVariant, samples directory: String) throws {
        self.variant = variant
        path = try Self.path(for: variant.route, samples: directory)
        if let shape = variant.course {
            let layout = CourseLayout(shape, on: path, seed: variant.seed)
            self.layout = layout
            path = layout.runner
        }
        switch variant.movement {
        case .steady(let speed): motion = .steady(speed, length: path.length)
        case .walkBreaks(let run, let walk):
            motion = .walkBreaks(run: run, walk: walk, runSeconds: 240, walkSeconds: 60, length: path.length)
        case .trafficLight(let speed): motion = .stops(speed, length: path.length, at: [path.length * 0.4], stopSeconds: 75)
        case .swayingWithStand(let speed):
            motion = .swaying(speed, length: path.length, standAt: path.length * 0.4, standSeconds: 300)
        }
        fixes = Self.fixes(variant, path: path, motion: motion)
    }

    static func path(for route: CorpusVariant.Route, samples directory: String) throws -> TruePath {
        func track(_ file: String) throws -> GPXTrack {
            try GPXReader.read(contentsOfFile: directory + "/" + file)
        }
        switch route {
        case .real(let file):
            // 7 points at 1 Hz, 3 at the smart recording's 4 s: about 20 m of road either way.
            let points = try track(file).points
            return .cleaned(points, name: file, window: file.contains("smart") ? 3 : 7)
        case .laps(let laps):
            // Beside where the 12 km run was recorded.
            let start = try track("strava-run-with-pauses.gpx").points[0]
            return .trackLaps(laps, center: LocalMeters.offset((start.latitude, start.longitude), east: 150, north: 150), heading: 20)
        case .switchbacks(let legs):
            let start = try track("strava-run-gap.gpx").points[0]
            return .switchbacks(legs: legs, start: (start.latitude, start.longitude), heading: 300, seed: 11)
        case .stretch(let file, let meters):
            return try path(for: .real(file), samples: directory).prefix(meters)
        }
    }

    /// The fixes a device would report while the runner follows `motion` along `path`.
    static func fixes(_ variant: CorpusVariant, path: TruePath, motion: Motion) -> [GPSFix] {
        var random = SeededGenerator(seed: variant.seed)
        var times: [Double] = [0]
        while times.last! < motion.duration {
            let step: Double
            switch variant.interval {
            case .steady(let seconds): step = seconds
            case .varying(let range): step = Double.random(in: range, using: &random).rounded()
            }
            times.append(min(times.last! + step, motion.duration))
        }
        // The sleep for the stale-fix case: no fixes for 45 s half-way (see `sleep`).
        let sleep = variant.staleFixes ? (motion.duration * 0.55)...(motion.duration * 0.55 + 45) : nil

        var position = GaussMarkovProcess(sigma: variant.noise?.sigma ?? 0, timeConstant: variant.noise?.timeConstant ?? 1, random: &random)
        var velocity = GaussMarkovProcess(sigma: variant.device.speedSigma ?? 0, timeConstant: 3, random: &random)
        let spikes = Set((0..<(variant.noise?.spikes ?? 0)).map { _ in Int.random(in: 10..<max(11, times.count - 10), using: &random) })
        var fixes: [GPSFix] = []
        var previousTime = 0.0
        var wokeUp = false
        for (index, time) in times.enumerated() {
            position.advance(by: time - previousTime, random: &random)
            velocity.advance(by: time - previousTime, random: &random)
            previousTime = time
            if let sleep, sleep.contains(time) { continue }
            if let sleep, time > sleep.upperBound, !wokeUp, let last = fixes.last {
                // Waking up: the phone hands over the last fix it had, then the same place
                // stamped with the time now, before fresh fixes come.
                wokeUp = true
                fixes.append(last)
                for repeatIndex in 0..<4 {
                    var stale = last
                    stale.time = time + Double(repeatIndex)
                    fixes.append(stale)
                }
                continue
            }
            if wokeUp, let last = fixes.last, time <= last.time { continue }
            let isEnd = index == 0 || index == times.count - 1
            if !isEnd, let noise = variant.noise, Double.random(in: 0..<1, using: &random) < noise.dropout { continue }

            let place = path.locate(motion.distance(at: time))
            var east = position.east, north = position.north
            if let white = variant.noise?.white, white > 0 {
                east += white * random.gaussian()
                north += white * random.gaussian()
            }
            if spikes.contains(index), let noise = variant.noise {
                let angle = Double.random(in: 0..<(2 * .pi), using: &random), jump = Double.random(in: noise.spikeMeters, using: &random)
                east += jump * cos(angle)
                north += jump * sin(angle)
            }
            let moved = LocalMeters.offset((place.latitude, place.longitude), east: east, north: north)
            var fix = GPSFix(time: time, latitude: moved.latitude, longitude: moved.longitude)
            if variant.device.reportsAccuracy {
                fix.horizontalAccuracy = (max(4, variant.noise?.sigma ?? 4) * Double.random(in: 1.0...1.6, using: &random)).rounded()
            }
            if variant.device.speedSigma != nil {
                let speed = motion.speed(at: time)
                let ve = speed * place.east + velocity.east, vn = speed * place.north + velocity.north
                fix.speed = (ve * ve + vn * vn).squareRoot()
            }
            fixes.append(fix)
        }
        return fixes
    }
}

/// First-order Gauss–Markov error on two axes: `x[k] = ρ x[k-1] + σ √(1-ρ²) w[k]` with
/// `ρ = exp(-Δt/τ)`, which keeps σ stationary whatever the spacing of the samples.
struct GaussMarkovProcess {
    var sigma: Double
    var timeConstant: Double
    var east: Double
    var north: Double

    init(sigma: Double, timeConstant: Double, random: inout SeededGenerator) {
        self.sigma = sigma
        self.timeConstant = timeConstant
        east = sigma * random.gaussian()
        north = sigma * random.gaussian()
    }

    mutating func advance(by seconds: Double, random: inout SeededGenerator) {
        guard seconds > 0 else { return }
        let rho = exp(-seconds / timeConstant)
        let drive = sigma * (1 - rho * rho).squareRoot()
        east = rho * east + drive * random.gaussian()
        north = rho * north + drive * random.gaussian()
    }
}
