import RunTracking

/// A run fed to the tracker and the scheduler a slice at a time, across a benchmark's
/// iterations: each iteration carries on where the last stopped, so every fix is a new one
/// (a fix from the past would be rejected unread), and a new run starts when one ends.
public final class RunReplay {
    /// A message every 2 km from 500 m on, as the old playback bench had.
    public static let messages = (0..<20).map {
        PlaybackScheduler.Message(id: "m\($0)", marker: .absolute(meters: Double($0) * 2000 + 500))
    }

    private let fixes: [GPSFix]
    private var tracker = DistanceTracker()
    private var scheduler: PlaybackScheduler
    private var offset = 0

    public init(fixes: [GPSFix]) {
        self.fixes = fixes
        scheduler = Self.newScheduler()
    }

    private static func newScheduler() -> PlaybackScheduler {
        // The markers are fixed and valid: this cannot fail.
        try! PlaybackScheduler(messages: messages)
    }

    /// Hands the next `count` fixes to `body` with the tracker and scheduler to feed them to.
    public func next(
        _ count: Int, _ body: (ArraySlice<GPSFix>, inout DistanceTracker, inout PlaybackScheduler) -> Void
    ) {
        if offset + count > fixes.count {
            tracker = DistanceTracker()
            scheduler = Self.newScheduler()
            offset = 0
        }
        body(fixes[offset..<(offset + count)], &tracker, &scheduler)
        offset += count
    }
}
