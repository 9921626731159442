import Foundation
import PropertyBased
import Testing
import RunTracking

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
