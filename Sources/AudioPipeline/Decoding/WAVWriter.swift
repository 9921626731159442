import CSndfile

/// Writes mono 16-bit PCM WAV files through libsndfile, which already knows the format.
public enum WAVWriter {
    /// Writes `samples` (clipped to ±1 by libsndfile) as a 16-bit mono WAV at `path`.
    ///
    /// The file is written in place; a caller that must never leave a partial file writes to
    /// a temporary path and renames it.
    public static func write(_ samples: [Float], sampleRate: Int, to path: String) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioPipelineError(.io, "cannot write the WAV file: \(String(cString: sf_strerror(nil)))", source: path)
        }
        // Float input is scaled and clipped to the 16-bit range rather than wrapped.
        vm_sf_set_clipping(handle, 1)
        let written = samples.withUnsafeBufferPointer { buffer in
            sf_writef_float(handle, buffer.baseAddress, sf_count_t(buffer.count))
        }
        let closed = sf_close(handle)
        guard written == samples.count, closed == 0 else {
            throw AudioPipelineError(.io, "cannot write the WAV file: the disk refused the samples", source: path)
        }
    }
}
