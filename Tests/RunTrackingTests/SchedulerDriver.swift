import Foundation
import RunTracking
import TestSupport

/// A random run for the scheduler: markers, a distance stream with standing, sprints, GPS
/// gaps and pauses, and how long each message plays. Built from a seed so any failure
/// replays exactly.
struct SchedulerScenario: CustomStringConvertible {
    enum Step {
        case update(time: Double, meters: Double)
        case pause(time: Double)
        case resume(time: Double)
    }

    var messages: [PlaybackScheduler.Message]
    var durations: [String: Double]
    var configuration: PlaybackScheduler.Configuration
    var steps: [Step]
    var endTime: Double
    var maximumSpeed: Double
    var seed: UInt64

    var description: String { "seed \(seed): \(messages.count) messages, \(steps.count) steps" }

    init(seed: UInt64, messageCount: Int) {
        self.seed = seed
        var random = SeededGenerator(seed: seed)
        let planned = Double.random(in: 2000...12000, using: &random).rounded()
        var messages: [PlaybackScheduler.Message] = []
        var durations: [String: Double] = [:]
        for index in 0..<messageCount {
            let marker: DistanceMarker
            switch Int.random(in: 0..<10, using: &random) {
            case 0: marker = .finish
            case 1: marker = .percent(Double(Int.random(in: 0...100, using: &random)))
            case 2: marker = .beforeFinish(meters: Double(Int.random(in: 0...Int(planned), using: &random)))
            // Often the same marker twice, to exercise ties; sometimes beyond the plan.
            case 3: marker = messages.last?.marker ?? .absolute(meters: 1000)
            default: marker = .absolute(meters: Double(Int.random(in: 0...Int(planned * 1.2), using: &random)))
            }
            let id = "m\(index)"
            messages.append(.init(id: id, marker: marker))
            durations[id] = Double.random(in: 1...25, using: &random).rounded()
        }
        self.messages = messages
        self.durations = durations
        configuration = .init(
            leadSeconds: Bool.random(using: &random) ? 0 : Double.random(in: 0...5, using: &random),
            minimumGapSeconds: Double.random(in: 0...5, using: &random),
            plannedDistance: planned)

        var steps: [Step] = []
        var time = 0.0, meters = 0.0, speed = 3.0, maximumSpeed = 0.0
        // Sometimes the stream stops short of the plan, so the run-finished rule matters.
        let target = planned * Double.random(in: 0.5...1.1, using: &random)
        var paused = false
        while meters < target {
            if Int.random(in: 0..<60, using: &random) == 0 {
                speed = [0, 0.5, 2.5, 3, 4, 6][Int.random(in: 0..<6, using: &random)]
            }
            // GPS gaps: many markers may be crossed by one update.
            let elapsed = Int.random(in: 0..<200, using: &random) == 0 ? Double.random(in: 20...300, using: &random) : 1
            time += elapsed
            let step = speed * elapsed
            maximumSpeed = max(maximumSpeed, speed)
            meters += step
            steps.append(.update(time: time, meters: meters))
            if Int.random(in: 0..<400, using: &random) == 0 {
                steps.append(paused ? .resume(time: time) : .pause(time: time))
                paused.toggle()
            }
        }
        self.steps = steps
        endTime = time + 1
        self.maximumSpeed = maximumSpeed
    }
}

/// Plays the host's part: feeds the scenario, plays each message for its duration, sends
/// `tick` when the scheduler asks to wake up, and finishes the run at the end.
struct SchedulerDriver {
    struct Play: Equatable {
        var id: String
        var reason: PlaybackScheduler.PlayReason
        var start: Double
        var meters: Double
        var end: Double
    }

    /// Runs the scenario; when `snapshotAt` is given, the scheduler is encoded to JSON and
    /// decoded again before that step, as an app restarting mid-run would.
    static func run(_ scenario: SchedulerScenario, snapshotAt: Int? = nil) throws -> [Play] {
        var scheduler = try PlaybackScheduler(messages: scenario.messages, configuration: scenario.configuration)
        var plays: [Play] = []
        var meters = 0.0

        func apply(_ action: PlaybackScheduler.Action?, at time: Double) {
            guard case .play(let id, let reason) = action else { return }
            precondition(plays.last.map { $0.end <= time } ?? true, "overlap")
            plays.append(Play(id: id, reason: reason, start: time, meters: meters, end: time + scenario.durations[id]!))
        }
        /// Delivers everything that happens before `time`: ends of playback and wake-ups.
        func catchUp(to time: Double) {
            while true {
                let end = plays.last.map(\.end)
                let playing = scheduler.state.progress.playing != nil
                if playing, let end, end <= time {
                    apply(scheduler.handle(.playbackFinished(id: plays.last!.id, time: end)), at: end)
                } else if let wake = scheduler.wakeUpTime, wake <= time {
                    apply(scheduler.handle(.tick(time: wake)), at: wake)
                } else {
                    return
                }
            }
        }

        for (index, step) in scenario.steps.enumerated() {
            if index == snapshotAt {
                let data = try JSONEncoder().encode(scheduler)
                scheduler = try JSONDecoder().decode(PlaybackScheduler.self, from: data)
            }
            switch step {
            case .update(let time, let newMeters):
                catchUp(to: time)
                meters = newMeters
                apply(scheduler.handle(.distanceUpdate(time: time, meters: newMeters)), at: time)
            case .pause(let time):
                catchUp(to: time)
                apply(scheduler.handle(.pause(time: time)), at: time)
            case .resume(let time):
                catchUp(to: time)
                apply(scheduler.handle(.resume(time: time)), at: time)
            }
        }
        catchUp(to: scenario.endTime)
        apply(scheduler.handle(.runFinished(time: scenario.endTime)), at: scenario.endTime)
        var guardCount = 0
        while !scheduler.isComplete, guardCount < 10_000 {
            catchUp(to: .infinity)
            guardCount += 1
        }
        return plays
    }
}
