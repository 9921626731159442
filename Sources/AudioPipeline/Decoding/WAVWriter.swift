/// Writes mono 16-bit PCM WAV files through libsndfile, which already knows the format.
public enum WAVWriter {
    /// Writes `samples` (clipped to ±1) as a 16-bit mono WAV at `path`.
    ///
    /// The file is written in place; a caller that must never leave a partial file writes to
    /// a temporary path and renames it.
    public static func write(_ samples: [Float], sampleRate: Int, to path: String) throws {
        do {
            let file = try SoundFile(
                writingTo: path, format: .wav16, sampleRate: sampleRate, channelCount: 1)
            try samples.withUnsafeBufferPointer { try file.write($0) }
            try file.close()
        } catch let error as AudioPipelineError {
            throw error.attributed(to: path)
        }
    }
}
