import Foundation

/// Decodes any format libsndfile reads (WAV in all its encodings, FLAC, MP3, Ogg Vorbis,
/// Ogg Opus, AIFF, CAF with PCM, ...) into mono Float samples at the source rate.
public enum AudioDecoder {
    /// Decodes the file at `path`. Errors name the path.
    ///
    /// With `downmix` false, `samples` holds the source's channels interleaved.
    public static func decode(path: String, limits: InputLimits = .default, downmix: Bool = true) throws -> DecodedAudio {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AudioPipelineError(.io, "no such file", source: path)
        }
        guard !isDirectory.boolValue else {
            throw AudioPipelineError(.io, "is a directory, not an audio file", source: path)
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw AudioPipelineError(.io, "permission denied", source: path)
        }
        do {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            if size == 0 { throw AudioPipelineError(.unreadableInput, "the file is empty") }
            return try decode(try SoundFile(path: path), limits: limits, downmix: downmix)
        } catch let error as AudioPipelineError {
            throw error.attributed(to: path)
        }
    }

    /// Decodes bytes held in memory, such as an upload, through libsndfile's virtual I/O.
    /// `name` is used in error messages.
    public static func decode(data: Data, name: String, limits: InputLimits = .default, downmix: Bool = true) throws -> DecodedAudio {
        do {
            guard !data.isEmpty else { throw AudioPipelineError(.unreadableInput, "the file is empty") }
            return try decode(try SoundFile(data: data), limits: limits, downmix: downmix)
        } catch let error as AudioPipelineError {
            throw error.attributed(to: name)
        }
    }

    private static func decode(_ file: SoundFile, limits: InputLimits, downmix: Bool) throws -> DecodedAudio {
        let channels = Int(file.info.channels)
        let rate = Int(file.info.samplerate)
        guard channels >= 1 else {
            throw AudioPipelineError(.unsupportedInput, "the header declares \(channels) channels")
        }
        guard channels <= limits.maximumChannelCount else {
            throw AudioPipelineError(
                .unsupportedInput, "\(channels) channels; at most \(limits.maximumChannelCount) are accepted")
        }
        guard limits.sampleRates.contains(rate) else {
            throw AudioPipelineError(
                .unsupportedInput,
                "sample rate \(rate) Hz is outside \(limits.sampleRates.lowerBound)...\(limits.sampleRates.upperBound) Hz")
        }
        if let chunk = file.overstatedAudioChunk {
            throw AudioPipelineError(
                .unreadableInput,
                "truncated: the header declares \(chunk.declared) bytes of audio but the file holds only \(chunk.present)")
        }
        let maximumFrames = Int(limits.maximumDurationSeconds * Double(rate))
        let declaredFrames = Int(clamping: file.info.frames)
        // MP3 frame counts are estimates, so only the decoded length is checked for them.
        if !file.isMPEG, declaredFrames > maximumFrames, declaredFrames < Int(Int32.max) * 2 {
            throw tooLong(Double(declaredFrames) / Double(rate), limits: limits)
        }

        let blockFrames = 8192
        var interleaved = [Float](repeating: 0, count: blockFrames * channels)
        var mono: [Float] = []
        mono.reserveCapacity(min(max(declaredFrames, 0), maximumFrames + 1) * (downmix ? 1 : channels))
        let scale = 1 / Float(channels)
        var sawNonFinite = false

        while true {
            let read = try interleaved.withUnsafeMutableBufferPointer {
                try file.readFrames(into: $0.baseAddress!, frames: blockFrames)
            }
            if read == 0 { break }
            let framesSoFar = downmix ? mono.count : mono.count / channels
            guard framesSoFar + read <= maximumFrames else {
                throw tooLong(Double(framesSoFar + read) / Double(rate), limits: limits, atLeast: true)
            }
            interleaved.withUnsafeBufferPointer { block in
                if channels == 1 || !downmix {
                    let valueCount = read * channels
                    for i in 0..<valueCount {
                        let value = block[i]
                        if !value.isFinite { sawNonFinite = true }
                        mono.append(value)
                    }
                } else {
                    for frame in 0..<read {
                        var sum: Float = 0
                        let base = frame * channels
                        for channel in 0..<channels { sum += block[base + channel] }
                        if !sum.isFinite { sawNonFinite = true }
                        mono.append(sum * scale)
                    }
                }
            }
        }

        if sawNonFinite {
            throw AudioPipelineError(.invalidSamples, "the audio contains NaN or infinite samples")
        }
        guard !mono.isEmpty else {
            throw AudioPipelineError(.unreadableInput, "the file holds no audio samples")
        }
        // A header that promises more than the file holds means the file was cut short.
        let frames = downmix ? mono.count : mono.count / channels
        if !file.isMPEG, declaredFrames > 0, frames < declaredFrames {
            throw AudioPipelineError(
                .unreadableInput,
                "truncated: the header declares \(declaredFrames) frames but only \(frames) could be read")
        }
        var audio = DecodedAudio(samples: mono, sampleRate: rate, channelCount: channels, format: file.formatDescription)
        audio.isInterleaved = !downmix && channels > 1
        return audio
    }

    private static func tooLong(_ seconds: Double, limits: InputLimits, atLeast: Bool = false) -> AudioPipelineError {
        let minutes = limits.maximumDurationSeconds / 60
        let length = String(format: "%.1f", seconds / 60)
        return AudioPipelineError(
            .unsupportedInput,
            "\(atLeast ? "more than " : "")\(length) minutes long; at most \(String(format: "%g", minutes)) minutes are accepted")
    }
}
