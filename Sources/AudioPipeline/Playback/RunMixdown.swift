/// The run's audio timeline: every message's samples placed at its start time in one mono
/// 48 kHz buffer.
///
/// **Silence between messages.** A run is mostly silence: an hour at 48 kHz is 173 million
/// samples (330 MB as 16-bit WAV) for perhaps two minutes of messages. So by default
/// (`.compressed`) every silence longer than `maximumGapSeconds` — before the first message
/// and between two — is shortened to that length, which gives a file you can listen through
/// in minutes; the timeline (table, JSON, SVG) keeps the true times. `.realTime` keeps true
/// digital silence (exact zeros) so each message starts at its exact run time, for lining up
/// with a video of the run. Either way nothing is resampled, faded or mixed: messages never
/// overlap, so each sample is copied as it is. A message given without samples is
/// represented by silence of its duration.
public enum RunMixdown {
    public enum Silence: Sendable, Equatable {
        /// True silence: each message at its exact start time.
        case realTime
        /// Silences longer than this many seconds are shortened to it.
        case compressed(maximumGapSeconds: Double)

        /// The default: 2 s between messages.
        public static let `default` = Silence.compressed(maximumGapSeconds: 2)
    }

    public static let sampleRate = 48_000

    /// Samples of the mixdown; `messages` are those given to `RunSimulator.simulate`, matched
    /// to the plays by file.
    public static func render(
        _ timeline: RunSimulator.Timeline, messages: [RunSimulator.Message], silence: Silence = .default
    ) -> [Float] {
        var byFile: [String: RunSimulator.Message] = [:]
        for message in messages { byFile[message.file] = message }
        let rate = Double(sampleRate)
        // First lay out where each message goes, then fill one zeroed buffer: a real-time
        // mixdown of a long run is tens of millions of samples.
        var placements: [(offset: Int, samples: [Float]?)] = []
        var length = 0
        var previousEnd = 0.0  // run seconds where the previous message ended
        for play in timeline.plays {
            var gap = max(0, play.startSeconds - previousEnd)
            if case .compressed(let maximum) = silence { gap = min(gap, maximum) }
            length += Int((gap * rate).rounded())
            let samples = byFile[play.file]?.samples
            placements.append((length, samples))
            length += samples?.count ?? Int(((play.endSeconds - play.startSeconds) * rate).rounded())
            previousEnd = play.endSeconds
        }
        var output = [Float](repeating: 0, count: length)
        for placement in placements {
            guard let samples = placement.samples else { continue }
            output.replaceSubrange(placement.offset..<(placement.offset + samples.count), with: samples)
        }
        return output
    }
}
