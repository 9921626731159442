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

/// Stops a recording whose opening is digital silence for longer than a voice message waits
/// before its first word, while it decodes: ten minutes of zeros would otherwise be decoded,
/// resampled and measured in full before the trimmer finds no speech in them. A microphone
/// always hears some noise; only a file made of silence, or a muted track, stays below the
/// trimmer's digital-silence level this long.
struct LeadingSilenceGuard {
    /// The trimmer's digital-silence level, -100 dBFS, as a sample magnitude.
    static let level: Float = 1e-5

    private let limitSeconds: Double
    private let limitFrames: Int
    private var frames = 0
    private var heard = false

    /// `limitSeconds` nil: never refuses.
    init(limitSeconds: Double?, sampleRate: Int) {
        self.limitSeconds = limitSeconds ?? .infinity
        limitFrames = limitSeconds.map { Int($0 * Double(sampleRate)) } ?? .max
    }

    /// Looks at the next `frameCount` frames of decoded audio (any channel layout).
    mutating func check(_ block: UnsafeBufferPointer<Float>, frameCount: Int) throws {
        guard !heard else { return }
        for value in block where abs(value) > Self.level {
            heard = true
            return
        }
        frames += frameCount
        if frames >= limitFrames {
            throw AudioPipelineError(
                .noSpeech,
                "no speech: the first \(String(printf: "%g", limitSeconds)) s are digital silence (every sample below -100 dBFS); the rest was not decoded")
        }
    }
}
