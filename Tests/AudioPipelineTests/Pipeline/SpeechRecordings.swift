import Foundation
import TestSupport
import Testing

/// Speech recordings made with espeak-ng and shaped with ffmpeg: any length, level, rate,
/// channel count and container, as files in a temporary folder.
enum SpeechRecordings {
    enum Container: String, Sendable, CaseIterable {
        case wav, flac, mp3, ogg

        var ffmpegArguments: [String] {
            switch self {
            case .wav: return ["-c:a", "pcm_s16le"]
            case .flac: return ["-c:a", "flac"]
            case .mp3: return ["-c:a", "libmp3lame", "-b:a", "64k"]
            case .ogg: return ["-c:a", "libvorbis", "-q:a", "4"]
            }
        }
    }

    struct Recording: Sendable {
        var path: String
        /// The level ffmpeg's ebur128 measures on the file itself.
        var loudness: Double
        var truePeak: Double
    }

    static let folder = ScratchSpace.folder("pipeline")

    /// A fresh empty folder for one test's outputs.
    static func scratchFolder() throws -> URL { try ScratchSpace.fresh(in: folder) }

    /// Speech of about `seconds`, with 0.1-0.6 s of silence before it and some after, at
    /// about `loudness` LUFS. Hot levels are reached the way hot phone recordings are, by
    /// clipping, so the level is approached in up to four passes; the measured level is returned.
    static func make(seconds: Double, loudness: Double, sampleRate: Int, channels: Int,
                     container: Container, name: String) throws -> Recording {
        let source = try base(seconds: seconds)
        let path = folder.appendingPathComponent("\(name).\(container.rawValue)").path
        var gain = loudness - source.loudness - (channels == 2 ? 3.01 : 0)
        var measured = (integrated: 0.0, truePeak: 0.0)
        let isHot = loudness > -12
        for _ in 0..<4 {
            var filters = ["aformat=sample_fmts=flt", String(format: "volume=%.2fdB", gain)]
            // Past 0 dBFS a phone clips; clipping flattens the peaks, so the loudness grows
            // about half as fast as the gain.
            if isHot { filters.append("asoftclip=type=hard") }
            filters.append("aresample=\(sampleRate):resampler=soxr")
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", source.path, "-af",
                                    filters.joined(separator: ","), "-ac", "\(channels)"]
                                    + container.ffmpegArguments + [path])
            measured = try ReferenceTools.ebur128(path)
            let miss = loudness - measured.integrated
            if abs(miss) < 0.75 { break }
            gain += isHot ? 2 * miss : miss
        }
        return Recording(path: path, loudness: measured.integrated, truePeak: measured.truePeak)
    }

    private struct Base: Sendable {
        var path: String
        var loudness: Double
    }

    private static let bases = Locked<[Double: Base]>([:])

    /// Mono 22.05 kHz espeak-ng speech, `seconds` long, cached per length.
    private static func base(seconds: Double) throws -> Base {
        try bases.withLock { bases in
            if let cached = bases[seconds] { return cached }
            let made = try makeBase(seconds: seconds)
            bases[seconds] = made
            return made
        }
    }

    private static func makeBase(seconds: Double) throws -> Base {
        let text: String
        let lead: Int
        var loop: [String] = []
        switch seconds {
        case ..<2:
            text = "Go Sam!"
            lead = 100
        case ..<10:
            text = "You are halfway there, keep going. We are so proud of you!"
            lead = 600
        default:
            text = """
                You are halfway there, keep going. We are so proud of you! Remember the hill at \
                the start, and how easy it felt. Only five kilometres to go, and then it is all \
                downhill to the finish. Drink some water at the next station, breathe, and smile. \
                Everyone at home is watching the tracker and cheering for you.
                """
            lead = 500
            loop = ["-stream_loop", "-1"]
        }
        let stem = "base-\(Int(seconds * 1000))"
        let speech = folder.appendingPathComponent("\(stem)-espeak.wav").path
        let path = folder.appendingPathComponent("\(stem).wav").path
        try Tool.run("espeak-ng", ["-s", "170", "-w", speech, text])
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + loop + ["-i", speech, "-af",
                                "aformat=sample_fmts=flt,adelay=\(lead):all=1,apad,atrim=0:\(seconds)",
                                "-c:a", "pcm_f32le", path])
        return Base(path: path, loudness: try ReferenceTools.ebur128(path).integrated)
    }
}
