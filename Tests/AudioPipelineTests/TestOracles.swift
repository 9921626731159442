import Testing
@_spi(Benchmarks) @testable import AudioPipeline

// Whole-signal conveniences that only the tests use, built from the streamed API the pipeline
// uses, or written from the definition where a test compares the code against it.

extension GainCurve {
    /// The gain at sample `n`, from the definition: each value belongs to its block's centre,
    /// and a sample between two centres gets their linear interpolation.
    func gain(at n: Int) -> Float {
        let size = Float(Self.blockSize)
        let centre = (Float(n) - (size - 1) / 2) / size  // in blocks
        let first = max(0, min(values.count - 1, Int(centre.rounded(.down))))
        let second = max(0, min(values.count - 1, Int(centre.rounded(.down)) + 1))
        let fraction = centre - centre.rounded(.down)
        return values[first] + (values[second] - values[first]) * fraction
    }
}

extension InterSamplePeakEstimator {
    /// The peak of every interval [n, n+1) of `samples`, with zeros assumed beyond both ends.
    func intervalPeaks(of samples: [Float]) -> [Float] {
        var stream = Stream(estimator: self)
        var peaks: [Float] = []
        samples.withUnsafeBufferPointer { stream.append($0) { peaks.append(contentsOf: $0) } }
        stream.finish { peaks.append(contentsOf: $0) }
        return peaks
    }

    /// The true peak of `samples`, linear, per BS.1770-4 Annex 2.
    func truePeak(of samples: [Float]) -> Float {
        intervalPeaks(of: samples).max() ?? 0
    }
}

extension OpusEncoder {
    /// Encodes mono 48 kHz `samples`.
    func encode(_ samples: [Float], inputSampleRate: Int, tags: OpusTags) throws -> OpusStream {
        try encodeInPieces(GainedSamples(samples), inputSampleRate: inputSampleRate, tags: tags).stream
    }
}

extension OpusStreamDecoder {
    /// Interleaved 48 kHz samples, `validSampleCount` frames long.
    static func decodeInterleaved(_ stream: OpusStream) throws -> [Float] {
        var output: [Float] = []
        try decodeInterleaved(stream) { output.append(contentsOf: $0) }
        return output
    }
}
