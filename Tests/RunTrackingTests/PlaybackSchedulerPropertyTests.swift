import Foundation
import PropertyBased
import Testing
import RunTracking
import TestSupport

/// Property-based tests over random distance streams and marker sets (swift-property-based
/// picks the seeds and message counts; the scenario is built from them).
struct PlaybackSchedulerPropertyTests {
    static let scenarios = zip(Gen.uint64(in: 0 ... .max), Gen.int(in: 0...14))

    static func resolved(_ scenario: SchedulerScenario) throws -> [String: (meters: Double, order: Int)] {
        var result: [String: (Double, Int)] = [:]
        for (order, message) in scenario.messages.enumerated() {
            result[message.id] = (try message.marker.resolvedMeters(plannedDistance: scenario.configuration.plannedDistance), order)
        }
        return result
    }

    @Test func everyMessagePlaysExactlyOnce() async {
        await propertyCheck(count: 300, input: Self.scenarios) { seed, count in
            let scenario = SchedulerScenario(seed: seed, messageCount: count)
            let plays = try SchedulerDriver.run(scenario)
            #expect(plays.map(\.id).sorted() == scenario.messages.map(\.id).sorted(), "\(scenario)")
        }
    }

    @Test func noneBeforeItsMarkerMinusTheLead() async {
        await propertyCheck(count: 300, input: Self.scenarios) { seed, count in
            let scenario = SchedulerScenario(seed: seed, messageCount: count)
            let markers = try Self.resolved(scenario)
            // The lead, plus half the 1 s update interval the scheduler anticipates.
            let lead = (scenario.configuration.leadSeconds + 0.5) * scenario.maximumSpeed
            for play in try SchedulerDriver.run(scenario) {
                let marker = markers[play.id]!.meters
                if play.reason == .runEnded {
                    // Early only because the run ended: the stream ended or the plan was reached.
                    let planned = scenario.configuration.plannedDistance!
                    #expect(play.start >= scenario.endTime || play.meters >= planned, "\(scenario)")
                } else {
                    #expect(play.meters >= marker - lead - 1e-9, "\(scenario) \(play)")
                }
            }
        }
    }

    @Test func neverTwoAtOnceAndTheGapIsKept() async {
        await propertyCheck(count: 300, input: Self.scenarios) { seed, count in
            let scenario = SchedulerScenario(seed: seed, messageCount: count)
            let plays = try SchedulerDriver.run(scenario)
            for (first, second) in zip(plays, plays.dropFirst()) {
                #expect(second.start >= first.end + scenario.configuration.minimumGapSeconds - 1e-9, "\(scenario)")
            }
        }
    }

    @Test func messagesPlayInMarkerOrderTiesInRecordingOrder() async {
        await propertyCheck(count: 300, input: Self.scenarios) { seed, count in
            let scenario = SchedulerScenario(seed: seed, messageCount: count)
            let markers = try Self.resolved(scenario)
            let order = try SchedulerDriver.run(scenario).map { markers[$0.id]! }
            #expect(zip(order, order.dropFirst()).allSatisfy { ($0.meters, $0.order) < ($1.meters, $1.order) }, "\(scenario)")
        }
    }

    @Test func codableStateMidRunCarriesOnIdentically() async {
        await propertyCheck(count: 200, input: Self.scenarios, Gen.double(in: 0...1)) { pair, cut in
            let (seed, count) = pair
            let scenario = SchedulerScenario(seed: seed, messageCount: count)
            let straight = try SchedulerDriver.run(scenario)
            let resumed = try SchedulerDriver.run(scenario, snapshotAt: Int(cut * Double(scenario.steps.count)))
            #expect(straight == resumed, "\(scenario)")
        }
    }
}

/// The scheduler's own part of a start's lateness: how far past its marker the distance it
/// went by was. Between sparse updates it reckons on at the current pace, so a runner at a
/// steady pace hears each message at its marker however the updates are spaced.
struct PlaybackSchedulerReckoningPropertyTests {
    @Test func atASteadyPaceEveryMessageStartsWithinTwelveMetresOfItsMarker() async {
        // A watch's smart recording: each update 1 to 15 s after the last, at 0.8 to 6.5 m/s.
        await propertyCheck(count: 200, input: Gen.uint64(in: 0 ... .max)) { seed in
            var random = SeededGenerator(seed: seed)
            let speed = Double.random(in: 0.8...6.5, using: &random)
            let markers = stride(from: 400.0, to: 6000, by: 137).map { $0.rounded() }
            var replay = PlaybackReplay(
                scheduler: try PlaybackScheduler(messages: markers.map { .init(id: "\(Int($0))", marker: .absolute(meters: $0)) }),
                durations: [:])
            // Judged from the end of the first 15 s interval on: the reckoning spans the
            // intervals the scheduler has seen, and a longer one than any before comes with the
            // distance past a marker it could not foresee.
            var judgedFrom = Double.infinity
            var time = 0.0
            var started = 0
            _ = replay.handle(.distanceUpdate(time: 0, meters: 0))
            while time * speed < 6100 {
                let interval = Int.random(in: 1...15, using: &random)
                time += Double(interval)
                for start in replay.handle(.distanceUpdate(time: time, meters: time * speed)) {
                    started += 1
                    let marker = Double(start.id)!
                    let past = start.meters - marker
                    #expect(
                        marker < judgedFrom || (past >= 0 && past <= 12),
                        "seed \(seed), \(speed) m/s: message at \(start.id) m started \(past) m past it")
                }
                if interval == 15, judgedFrom == .infinity { judgedFrom = time * speed }
            }
            #expect(started == markers.count)
        }
    }
}
