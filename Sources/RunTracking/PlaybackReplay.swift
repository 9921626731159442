/// The host's part for a `PlaybackScheduler` on a replayed clock: each message plays for a
/// known duration, and the one timer the scheduler asks for (`Answer.nextWakeUp`) fires on
/// time.
///
/// Before each event it delivers, in time order, what a phone would have seen since the one
/// before: the end of the message playing, and the wake-up. `voicemsg simulate` and the
/// scheduler's tests run on it; an app does the same with its player's end-of-playback
/// callback and one timer. It is `Codable`, scheduler included, like the scheduler itself.
public struct PlaybackReplay: Sendable, Equatable {
    /// A message that started.
    public struct Start: Sendable, Equatable {
        public var id: String
        public var reason: PlaybackScheduler.PlayReason
        /// When it started, on the events' clock.
        public var time: Double
        /// When it ends: `time` plus its duration.
        public var endTime: Double
        /// The distance the scheduler reckoned when it started (`reckonedMeters(at:)`).
        public var meters: Double
    }

    public private(set) var scheduler: PlaybackScheduler
    /// Seconds each message plays, by id; a message not listed plays for 0 s.
    public let durations: [String: Double]
    /// The message playing now.
    public private(set) var playing: Start?
    /// The latest answer's `nextWakeUp`: the timer the host keeps.
    public private(set) var wakeUp: Double?

    public init(scheduler: PlaybackScheduler, durations: [String: Double]) {
        self.scheduler = scheduler
        self.durations = durations
    }

    /// Delivers what happens before the event's time (the end of playback, the wake-up), then
    /// the event. Returns the messages that started, in order.
    public mutating func handle(_ event: PlaybackScheduler.Event) -> [Start] {
        var starts: [Start] = []
        catchUp(to: event.time, into: &starts)
        apply(scheduler.handle(event), at: event.time, into: &starts)
        return starts
    }

    /// Ends the run at `time` and lets every message left play to its end.
    public mutating func finish(at time: Double) -> [Start] {
        var starts = handle(.runFinished(time: time))
        while !scheduler.isComplete {
            let before = scheduler.state
            catchUp(to: .infinity, into: &starts)
            if scheduler.state == before { break }
        }
        return starts
    }

    private mutating func catchUp(to time: Double, into starts: inout [Start]) {
        while true {
            if let current = playing, current.endTime <= time {
                playing = nil
                apply(scheduler.handle(.playbackFinished(id: current.id, time: current.endTime)), at: current.endTime, into: &starts)
            } else if let wake = wakeUp, wake <= time {
                apply(scheduler.handle(.tick(time: wake)), at: wake, into: &starts)
            } else {
                return
            }
        }
    }

    private mutating func apply(_ answer: PlaybackScheduler.Answer, at time: Double, into starts: inout [Start]) {
        wakeUp = answer.nextWakeUp
        guard case .play(let id, let reason) = answer.action else { return }
        let start = Start(
            id: id, reason: reason, time: time, endTime: time + durations[id, default: 0],
            meters: scheduler.reckonedMeters(at: time))
        playing = start
        starts.append(start)
    }
}

#if !hasFeature(Embedded)
extension PlaybackReplay: Codable {}
extension PlaybackReplay.Start: Codable {}
#endif
