import Foundation
import Testing
import TestSupport

/// The containers and codecs phones and browsers record, made at test time by ffmpeg from a
/// WAV of speech, plus CAF with AAC, which ffmpeg cannot write (`CAFAACWriter`), and HE-AAC,
/// which ffmpeg 5.1's own AAC encoder cannot make (`HEAAC`).
enum RecordedFormats {
    /// HE-AAC (SBR, and v2 with parametric stereo) from the Fraunhofer FDK encoder, the one in
    /// Android: Debian's `aac-enc` (non-free) writes ADTS with implicit SBR signalling, and
    /// ffmpeg copies it into an M4A whose edit list states the encoder's priming
    /// (`scripts/fdk-aac-delay.py`), as a muxer that knows its encoder does.
    struct HEAAC: Sendable {
        /// FDK's audio object type: 5 HE-AAC, 29 HE-AAC v2.
        var objectType: Int
        var bitrate: Int
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var fileExtension: String
        /// The WAV the row is encoded from: its rate and channel count.
        var sampleRate: Int
        var channels: Int
        /// ffmpeg's output options; the output is written to stdout when `toPipe` (so the muxer
        /// cannot seek back to fill in sizes and durations, as a browser cannot).
        var ffmpeg: [String]
        var toPipe = false
        /// Samples in one codec frame, at `sampleRate`: the tolerance on the decoded length.
        var frameSamples: Int
        /// What `inspect` and the report must name.
        var container: String
        var codec: String
        var heAAC: HEAAC?

        var testDescription: String { name }
        var frameSeconds: Double { Double(frameSamples) / Double(sampleRate) }
    }

    static let rows: [Row] = [
        Row(name: "WebM Opus", fileExtension: "webm", sampleRate: 48_000, channels: 1,
            ffmpeg: ["-c:a", "libopus", "-b:a", "32k", "-f", "webm"], frameSamples: 960, container: "WebM", codec: "Opus"),
        // Chrome's MediaRecorder: unknown-size Segment and Clusters, no Duration, 60 ms blocks.
        Row(name: "WebM Opus, live (unknown-size clusters, no duration)", fileExtension: "webm", sampleRate: 48_000, channels: 1,
            ffmpeg: ["-c:a", "libopus", "-b:a", "32k", "-frame_duration", "60", "-f", "webm", "-live", "1", "-cluster_time_limit", "1000"],
            toPipe: true, frameSamples: 2880, container: "WebM", codec: "Opus"),
        Row(name: "WebM Vorbis stereo", fileExtension: "webm", sampleRate: 44_100, channels: 2,
            ffmpeg: ["-c:a", "libvorbis", "-q:a", "4", "-f", "webm"], frameSamples: 2048, container: "WebM", codec: "Vorbis"),
        Row(name: "Matroska Opus", fileExtension: "mka", sampleRate: 48_000, channels: 1,
            ffmpeg: ["-c:a", "libopus", "-b:a", "32k", "-f", "matroska"], frameSamples: 960, container: "Matroska", codec: "Opus"),
        Row(name: "M4A AAC-LC", fileExtension: "m4a", sampleRate: 44_100, channels: 1,
            ffmpeg: ["-c:a", "aac", "-b:a", "96k", "-f", "ipod"], frameSamples: 1024, container: "M4A", codec: "AAC"),
        Row(name: "M4A AAC-LC stereo, moov first", fileExtension: "m4a", sampleRate: 48_000, channels: 2,
            ffmpeg: ["-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-f", "ipod"], frameSamples: 1024, container: "M4A", codec: "AAC"),
        Row(name: "M4A ALAC", fileExtension: "m4a", sampleRate: 44_100, channels: 1,
            ffmpeg: ["-c:a", "alac", "-f", "ipod"], frameSamples: 4096, container: "M4A", codec: "ALAC"),
        Row(name: "MP4 AAC, fragmented", fileExtension: "mp4", sampleRate: 48_000, channels: 1,
            ffmpeg: ["-c:a", "aac", "-b:a", "96k", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"],
            toPipe: true, frameSamples: 1024, container: "MP4", codec: "AAC"),
        Row(name: "MP4 Opus, fragmented", fileExtension: "mp4", sampleRate: 48_000, channels: 1,
            ffmpeg: ["-c:a", "libopus", "-b:a", "32k", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"],
            toPipe: true, frameSamples: 960, container: "MP4", codec: "Opus"),
        Row(name: "MP4 MP3", fileExtension: "mp4", sampleRate: 44_100, channels: 1,
            ffmpeg: ["-c:a", "libmp3lame", "-b:a", "96k", "-f", "mp4"], frameSamples: 1152, container: "MP4", codec: "MP3"),
        Row(name: "MOV AAC", fileExtension: "mov", sampleRate: 44_100, channels: 1,
            ffmpeg: ["-c:a", "aac", "-b:a", "96k", "-f", "mov"], frameSamples: 1024, container: "QuickTime MOV", codec: "AAC"),
        Row(name: "3GP AMR-NB", fileExtension: "3gp", sampleRate: 8_000, channels: 1,
            ffmpeg: ["-c:a", "libopencore_amrnb", "-b:a", "12.2k", "-f", "3gp"], frameSamples: 160, container: "3GP", codec: "AMR-NB"),
        Row(name: "ADTS AAC", fileExtension: "aac", sampleRate: 48_000, channels: 1,
            ffmpeg: ["-c:a", "aac", "-b:a", "96k", "-f", "adts"], frameSamples: 1024, container: "ADTS AAC", codec: "AAC"),
        Row(name: "AMR-NB 8 kHz", fileExtension: "amr", sampleRate: 8_000, channels: 1,
            ffmpeg: ["-c:a", "libopencore_amrnb", "-b:a", "12.2k", "-f", "amr"], frameSamples: 160, container: "AMR-NB", codec: "AMR-NB"),
        Row(name: "AMR-WB 16 kHz", fileExtension: "amr", sampleRate: 16_000, channels: 1,
            ffmpeg: ["-c:a", "libvo_amrwbenc", "-b:a", "23.85k", "-f", "amr"], frameSamples: 320, container: "AMR-WB", codec: "AMR-WB"),
        Row(name: "CAF ALAC", fileExtension: "caf", sampleRate: 44_100, channels: 1,
            ffmpeg: ["-c:a", "alac", "-f", "caf"], frameSamples: 4096, container: "CAF", codec: "ALAC"),
        Row(name: "CAF Opus", fileExtension: "caf", sampleRate: 48_000, channels: 1,
            ffmpeg: ["-c:a", "libopus", "-b:a", "32k", "-f", "caf"], frameSamples: 960, container: "CAF", codec: "Opus"),
        // ffmpeg has no CAF muxer for AAC: its ADTS frames are repacked by CAFAACWriter.
        Row(name: "CAF AAC", fileExtension: "caf", sampleRate: 44_100, channels: 1,
            ffmpeg: ["-c:a", "aac", "-b:a", "96k", "-f", "adts"], frameSamples: 1024, container: "CAF", codec: "AAC"),
        // SBR decodes at twice the core rate: one frame is 2048 samples at the output rate.
        // Stereo, because with implicit signalling FFmpeg decodes HE-AAC as stereo whatever
        // was encoded (it allows for parametric stereo).
        Row(name: "M4A HE-AAC stereo", fileExtension: "m4a", sampleRate: 44_100, channels: 2,
            ffmpeg: ["-c:a", "copy", "-f", "ipod"], frameSamples: 2048, container: "M4A", codec: "AAC",
            heAAC: HEAAC(objectType: 5, bitrate: 48_000)),
        Row(name: "M4A HE-AAC v2 (parametric stereo)", fileExtension: "m4a", sampleRate: 44_100, channels: 2,
            ffmpeg: ["-c:a", "copy", "-f", "ipod"], frameSamples: 2048, container: "M4A", codec: "AAC",
            heAAC: HEAAC(objectType: 29, bitrate: 32_000)),
    ]

    static let fdkDelayScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/fdk-aac-delay.py").path

    /// Encodes `source` (a WAV at the row's rate and channels) as the row says, into `folder`.
    static func make(_ row: Row, from source: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("input.\(row.fileExtension)").path
        let base = ["-nostdin", "-v", "error", "-y", "-i", source]
        if let he = row.heAAC {
            let adts = folder.appendingPathComponent("fdk.aac").path
            let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
            guard searchPath.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/aac-enc") }) else {
                throw TestFailure("aac-enc (Debian's non-free package of that name) is missing: run `make setup`")
            }
            try Tool.run("aac-enc", ["-t", "\(he.objectType)", "-r", "\(he.bitrate)", source, adts])
            let delay = try Tool.run("python3", [fdkDelayScript, "\(he.objectType)", "\(row.sampleRate)", "\(row.channels)", "\(he.bitrate)"])
            let priming = try #require(Int(delay.text.trimmingCharacters(in: .whitespacesAndNewlines)))
            // A negative start offset: the MOV muxer writes it as the edit list's media time.
            let offset = String(format: "-%.6f", Double(priming) / Double(row.sampleRate))
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-itsoffset", offset, "-i", adts] + row.ffmpeg + [path])
        } else if row.name == "CAF AAC" {
            let adts = try Tool.run("ffmpeg", base + row.ffmpeg + ["-"])
            // ffmpeg's AAC encoder primes 1024 frames.
            let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=duration_ts", "-of", "csv=p=0", source])
            let frames = try #require(Int(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)))
            try Data(CAFAACWriter.caf(fromADTS: [UInt8](adts.standardOutput), primingFrames: 1024, validFrames: frames))
                .write(to: URL(fileURLWithPath: path))
        } else if row.toPipe {
            let output = try Tool.run("ffmpeg", base + row.ffmpeg + ["-"])
            try output.standardOutput.write(to: URL(fileURLWithPath: path))
        } else {
            try Tool.run("ffmpeg", base + row.ffmpeg + [path])
        }
        return path
    }

    /// The length ffprobe gives the file, in seconds: the container's duration, or, where the
    /// container states none that is not a guess from the bitrate (a live WebM, raw ADTS or
    /// AMR), the end of its last audio packet.
    static func ffprobeSeconds(_ path: String, row: Row) throws -> Double {
        let raw = ["ADTS AAC", "AMR-NB", "AMR-WB"].contains(row.container)
        if !raw {
            let format = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
            if let seconds = Double(format.text.trimmingCharacters(in: .whitespacesAndNewlines)) { return seconds }
        }
        let packets = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                               "packet=pts_time,duration_time", "-of", "csv=p=0", path])
        var end = 0.0
        for line in packets.text.split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            if fields.count == 2 { end = max(end, fields[0] + fields[1]) }
        }
        try #require(end > 0, "ffprobe found no packets in \(path)")
        return end
    }
}
