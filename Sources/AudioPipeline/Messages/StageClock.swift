import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wall-clock time per stage; a stage measured twice (another encode pass) adds up.
struct StageClock {
    private(set) var seconds: [String: Double] = [:]
    private var last = DispatchTime.now().uptimeNanoseconds

    /// Books `seconds` measured inside one stage's lap to another stage.
    mutating func move(_ moved: Double, from: String, to: String) {
        seconds[from, default: 0] -= moved
        seconds[to, default: 0] += moved
    }

    mutating func lap(_ stage: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        seconds[stage, default: 0] += Double(now - last) / 1e9
        last = now
    }
}
