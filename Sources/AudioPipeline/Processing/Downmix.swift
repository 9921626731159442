/// Folds interleaved channels into one, their mean, a block at a time.
///
/// The file decoder, the Opus decoder and the pipeline all fold with this one, so a recording
/// gives the same mono samples whichever path reads it.
struct Downmix {
    let channelCount: Int
    private let scale: Float
    private var mono: [Float] = []

    init(channelCount: Int) {
        precondition(channelCount > 0)
        self.channelCount = channelCount
        scale = 1 / Float(channelCount)
    }

    /// Hands `body` the mean of every frame of `interleaved`.
    mutating func callAsFunction<Result>(
        _ interleaved: UnsafeBufferPointer<Float>, _ body: (UnsafeBufferPointer<Float>) throws -> Result
    ) rethrows -> Result {
        let frames = interleaved.count / channelCount
        if mono.count < frames { mono = [Float](repeating: 0, count: frames) }
        let channels = channelCount, scale = self.scale
        mono.withUnsafeMutableBufferPointer { mono in
            for frame in 0..<frames {
                var sum: Float = 0
                let base = frame * channels
                for channel in 0..<channels { sum += interleaved[base + channel] }
                mono[frame] = sum * scale
            }
        }
        return try mono.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<frames])) }
    }
}
