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

extension Denoiser.Measurement {
    /// One line for people: what the stage found and did.
    public var summary: String {
        func dB(_ value: Double?) -> String { value.map { String(printf: "%.1f", $0) } ?? "?" }
        switch decision {
        case .applied:
            return "\(engine ?? "applied"): noise floor \(dB(noiseFloorBeforeDB)) -> \(dB(noiseFloorAfterDB)) dBFS "
                + "(\(dB(attenuationDB)) dB off, at most \(dB(attenuationLimitDB))), speech \(dB(signalToNoiseDB)) dB above it before"
        case .clean:
            return "clean, passed untouched: speech \(dB(signalToNoiseDB)) dB above a noise floor of \(dB(noiseFloorBeforeDB)) dBFS"
        case .off:
            return "off"
        case .noSpeech:
            return "no speech to clean"
        case .unavailable:
            return "no engine installed, passed through (\(note ?? "unknown reason"))"
        }
    }
}
