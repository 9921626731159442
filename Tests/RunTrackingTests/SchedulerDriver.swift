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

/// Plays the host's part through `PlaybackReplay`, the one host loop that `voicemsg simulate`
/// also runs: feeds the scenario, plays each message for its duration, wakes the scheduler
/// when its answers ask, and finishes the run at the end.
struct SchedulerDriver {
    struct Play: Equatable {
        var id: String
        var reason: PlaybackScheduler.PlayReason
        var start: Double
        var meters: Double
        var end: Double
    }

    /// Runs the scenario; when `snapshotAt` is given, the replay (scheduler included) is
    /// encoded to JSON and decoded again before that step, as an app restarting mid-run would.
    static func run(_ scenario: SchedulerScenario, snapshotAt: Int? = nil) throws -> [Play] {
        var replay = PlaybackReplay(
            scheduler: try PlaybackScheduler(messages: scenario.messages, configuration: scenario.configuration),
            durations: scenario.durations)
        var plays: [Play] = []
        func record(_ starts: [PlaybackReplay.Start]) {
            for start in starts {
                precondition(plays.last.map { $0.end <= start.time } ?? true, "overlap")
                plays.append(Play(id: start.id, reason: start.reason, start: start.time, meters: start.meters, end: start.endTime))
            }
        }

        for (index, step) in scenario.steps.enumerated() {
            if index == snapshotAt {
                let data = try JSONEncoder().encode(replay)
                replay = try JSONDecoder().decode(PlaybackReplay.self, from: data)
            }
            switch step {
            case .update(let time, let meters): record(replay.handle(.distanceUpdate(time: time, meters: meters)))
            case .pause(let time): record(replay.handle(.pause(time: time)))
            case .resume(let time): record(replay.handle(.resume(time: time)))
            }
        }
        record(replay.finish(at: scenario.endTime))
        return plays
    }
}
