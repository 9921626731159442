/// Decides which friend's message plays when: a pure state machine, events in, actions out.
///
/// Every answer also says when the scheduler next needs to hear from the host if nothing
/// else happens (`Answer.nextWakeUp`): the host keeps one timer for that time and sends a
/// `tick` when it fires, as hummingbird's connection state machine returns
/// `.scheduleTimeout(deadline:)`. No host polls the scheduler.
///
/// Rules:
/// - A message is due when the distance reaches its resolved marker minus the lead distance
///   (`leadSeconds` at the current speed). Between distance updates the scheduler reckons
///   the distance on at the current pace, for 1.5 usual longest update intervals at most, and
///   asks to be woken when a marker falls due then.
/// - One message plays at a time, with `minimumGapSeconds` of silence between two.
/// - Due messages play in marker order; equal markers in the order they were given.
/// - Every message plays exactly once; none is dropped. Markers passed while another plays,
///   or crossed together after a GPS gap, play one after the other.
/// - When the run finishes, or the planned distance (or the course's end) is reached, every
///   message left plays, in marker order (`finish` messages included).
///
/// Because the queue is sorted and due-ness only grows with distance, the next message to
/// play is always the head of the queue: the state is one index, which is cheap per fix and
/// trivially `Codable`, so an app can persist it and resume after a restart.
public struct PlaybackScheduler: Sendable, Equatable {
    public let configuration: Configuration
    /// The messages in playing order.
    public let queue: [Entry]
    /// Running, paused or ended.
    public private(set) var phase: Phase
    /// Everything known about the run so far.
    public private(set) var progress: Progress

    /// The phase and the progress together, as they are saved.
    public var state: State {
        switch phase {
        case .running: return .running(progress)
        case .paused: return .paused(progress)
        case .ended: return .ended(progress)
        }
    }

    /// Resolves every marker against `configuration.plannedDistance`; a marker past
    /// `configuration.endDistance` is put at it.
    ///
    /// - Throws: `invalidMarker` when a relative marker has no planned distance, and
    ///   `duplicateMessage` when two messages share an id.
    public init(messages: [Message], configuration: Configuration = .init()) throws(RunTrackingError) {
        var seen = Set<String>()
        var entries: [Entry] = []
        for (order, message) in messages.enumerated() {
            guard seen.insert(message.id).inserted else {
                throw RunTrackingError(.duplicateMessage, "message id '\(message.id)' is used twice in one run")
            }
            do {
                let meters = try message.marker.resolvedMeters(plannedDistance: configuration.plannedDistance)
                entries.append(Entry(message: message, meters: meters, order: order))
            } catch {
                throw error.attributed(to: message.id)
            }
        }
        entries.sort { ($0.meters, $0.order) < ($1.meters, $1.order) }
        if let end = configuration.endDistance {
            // A marker past the end is at the end, where the distance stops; sorted before, so
            // that those past it keep their marker order.
            for index in entries.indices { entries[index].meters = min(entries[index].meters, end) }
        }
        self.configuration = configuration
        self.queue = entries
        self.phase = .running
        self.progress = Progress()
    }

    /// Feeds one event; returns the message to start, if any, and when to wake the scheduler
    /// up next.
    public mutating func handle(_ event: Event) -> Answer {
        let action: Action?
        switch event {
        case .distanceUpdate(let time, let meters): action = distanceUpdated(time: time, meters: meters)
        case .playbackFinished(let id, let time): action = playbackFinished(id: id, time: time)
        case .pause(let time): action = paused(time: time)
        case .resume(let time): action = resumed(time: time)
        case .runFinished(let time): action = runFinished(time: time)
        case .tick(let time): action = ticked(time: time)
        }
        return Answer(action: action, nextWakeUp: wakeUpTime())
    }

    // MARK: - Events
    //
    // Each event changes `progress` in place: the phase is kept apart from it, because an enum
    // that carries the progress is copied out and back on every fix, which costs half of the
    // scheduler's time per fix.

    private mutating func distanceUpdated(time: Double, meters: Double) -> Action? {
        progress.advance(to: time, meters: meters, configuration: configuration)
        switch phase {
        case .running:
            if reachedTheEnd { return finish(time: time) }
            return startNext(time: time)
        case .paused:
            // Markers passed while paused will be catching up on resume.
            progress.previousReach = progress.meters + leadMeters
            return nil
        case .ended:
            return startNext(time: time)
        }
    }

    private mutating func playbackFinished(id: String, time: Double) -> Action? {
        // A stale or unknown id changes nothing: the host may report twice.
        guard progress.playing == id else { return nil }
        progress.playing = nil
        progress.lastFinish = time
        progress.time = max(progress.time ?? time, time)
        return resumeAfterChange(time: time)
    }

    private mutating func paused(time: Double) -> Action? {
        if phase == .running { phase = .paused }
        return nil
    }

    private mutating func resumed(time: Double) -> Action? {
        guard phase == .paused else { return nil }
        progress.time = max(progress.time ?? time, time)
        phase = .running
        return resumeAfterChange(time: time)
    }

    /// Ends the run; a paused run ends too, since the runner now has time to listen.
    private mutating func runFinished(time: Double) -> Action? {
        progress.time = max(progress.time ?? time, time)
        return finish(time: time)
    }

    private mutating func ticked(time: Double) -> Action? {
        progress.time = max(progress.time ?? time, time)
        return resumeAfterChange(time: time)
    }

    // MARK: - Queries

    /// When the next message could start if nothing else happens: the minimum gap after the
    /// last one ends, or, at the current pace, its marker is reached before the next distance
    /// update is due. Nil when nothing is waiting. Hosts read it from every `Answer`; a host
    /// that restores a saved scheduler sends a `tick` with the time now, and the answer says.
    ///
    /// `mutating` though it changes nothing: read as a property from `handle`, which has just
    /// changed `self`, it would be handed a copy of the whole scheduler on every event.
    private mutating func wakeUpTime() -> Double? {
        guard progress.playing == nil, progress.nextIndex < queue.count, phase != .paused else { return nil }
        let now = progress.time ?? -.infinity
        let ready = progress.lastFinish.map { $0 + configuration.minimumGapSeconds } ?? -.infinity
        if phase == .ended { return ready > now ? ready : nil }
        let entry = queue[progress.nextIndex]
        if isDue(entry, at: now) { return ready > now ? ready : nil }
        guard let due = predictedDueTime(entry), due > now else { return nil }
        return max(due, ready)
    }

    /// The distance the scheduler reckons the runner has covered at `time`, which is what it
    /// judges markers by: the latest distance update, carried on at the current pace for at
    /// most 1.5 usual longest update intervals (with `anticipatesNextUpdate`; else the latest
    /// update).
    public func reckonedMeters(at time: Double) -> Double {
        guard phase == .running else { return progress.meters }
        return projectedMeters(at: time)
    }

    /// Ids of the messages that have started, in order.
    public var startedIDs: [String] { queue.prefix(progress.nextIndex).map { $0.message.id } }

    /// True when every message has played to the end.
    public var isComplete: Bool { progress.nextIndex == queue.count && progress.playing == nil }

    // MARK: - Transitions

    private mutating func finish(time: Double) -> Action? {
        phase = .ended
        return startNext(time: time)
    }

    private mutating func resumeAfterChange(time: Double) -> Action? {
        phase == .paused ? nil : startNext(time: time)
    }

    /// Whether the runner has reached the planned distance, or the end (see
    /// `Configuration.endDistance`) where that comes first.
    private var reachedTheEnd: Bool {
        if let end = configuration.endDistance, progress.meters >= end { return true }
        guard let planned = configuration.plannedDistance else { return false }
        return progress.meters >= planned
    }

    private var leadMeters: Double {
        configuration.leadSeconds * progress.speed
    }

    private func projectedMeters(at time: Double) -> Double {
        guard configuration.anticipatesNextUpdate, let updateTime = progress.updateTime,
              let interval = progress.updateInterval, time > updateTime
        else { return progress.meters }
        return progress.meters + progress.speed * min(time - updateTime, Self.reckoningSpan * interval)
    }

    /// How far ahead the distance is reckoned, in usual longest update intervals: a little more
    /// than one, for an interval a little longer than the usual longest, which sinks between
    /// two long ones, and for a dropped fix that joins two intervals into one.
    static let reckoningSpan = 1.5

    private func isDue(_ entry: Entry, at time: Double) -> Bool {
        projectedMeters(at: time) + leadMeters >= entry.meters
    }

    /// When `entry` becomes due at the current pace, if that is before the next distance
    /// update is expected: the scheduler then asks to be woken at that moment, so a message
    /// starts at its marker even when fixes are 15 s (100 m) apart.
    ///
    /// Inlined: called from `wakeUpTime`, which holds `self` for mutation, a separate function
    /// was handed a 176-byte copy of the whole scheduler on every fix.
    @inline(__always)
    private func predictedDueTime(_ entry: Entry) -> Double? {
        guard configuration.anticipatesNextUpdate, progress.speed > 0, let updateTime = progress.updateTime,
              let interval = progress.updateInterval
        else { return nil }
        let span = Self.reckoningSpan * interval
        let metersToGo = entry.meters - leadMeters - progress.meters
        // Compared before dividing: on most fixes the next marker is further than one span.
        guard metersToGo <= progress.speed * span else { return nil }
        let seconds = metersToGo / progress.speed
        // The first moment that really is due, whatever the rounding of the division.
        var time = updateTime + seconds
        while !isDue(entry, at: time), time < updateTime + span { time = time.nextUp }
        return time
    }

    /// Starts the head of the queue when nothing plays, the gap has passed and it is due (once
    /// the run has ended, everything left is due).
    private mutating func startNext(time: Double) -> Action? {
        let ended = phase == .ended
        // Once the run has ended there is nothing to reckon ahead.
        let reckoned = ended ? progress.meters : projectedMeters(at: time)
        let reach = reckoned + leadMeters
        let previousReach = progress.previousReach
        progress.previousReach = reach
        guard progress.playing == nil, progress.nextIndex < queue.count else { return nil }
        if let last = progress.lastFinish, time < last + configuration.minimumGapSeconds { return nil }
        let entry = queue[progress.nextIndex]
        let due = reach >= entry.meters
        guard due || ended else { return nil }
        let reason: PlayReason = !due ? .runEnded : previousReach >= entry.meters ? .catchingUp : .markerReached
        progress.nextIndex += 1
        progress.playing = entry.message.id
        return .play(id: entry.message.id, reason: reason)
    }
}

#if !hasFeature(Embedded)
// Saved as `configuration`, `queue` and `state`, the running/paused/ended enum with the
// progress inside, so that what an app saved before the phase was stored apart still loads.
extension PlaybackScheduler: Codable {
    private enum CodingKeys: String, CodingKey {
        case configuration, queue, state
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        configuration = try container.decode(Configuration.self, forKey: .configuration)
        queue = try container.decode([Entry].self, forKey: .queue)
        let state = try container.decode(State.self, forKey: .state)
        progress = state.progress
        switch state {
        case .running: phase = .running
        case .paused: phase = .paused
        case .ended: phase = .ended
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(queue, forKey: .queue)
        try container.encode(state, forKey: .state)
    }
}
#endif

extension PlaybackScheduler.Progress {
    /// How fast the usual longest interval sinks back towards shorter ones: a fiftieth of
    /// the way per update. Faster, it sinks between two long intervals of a watch's smart
    /// recording more often; slower, one long interval stretches the reckoning for minutes
    /// after the fixes come every second again.
    static let intervalDecay = 0.02

    /// Faster than this (m/s) between two updates, the distance jumped (see `advance`): 15 m/s,
    /// beyond a sprinter's top speed and the tracker's own `maximumSpeed`.
    static let jumpSpeed = 15.0

    /// Takes a new distance: never backwards, and a smoothed speed for the lead.
    @inline(__always)
    mutating func advance(to time: Double, meters newMeters: Double, configuration: PlaybackScheduler.Configuration) {
        let clamped = newMeters.isFinite ? max(meters, newMeters) : meters
        if let previous = updateTime, time > previous {
            let elapsed = time - previous
            // An exponential smoother of the speed between updates, its weight elapsed / (τ +
            // elapsed) to first order (no exp() per fix): speed += weight × (Δm / elapsed −
            // speed), written with one division, since dividing is most of its cost per fix.
            // A step faster than anyone runs is a jump, not a pace: the distance of a runner
            // back on the course after a short cut. Taken as a pace, it carried the reckoning
            // past the next marker, which then played tens of metres early.
            let tau = max(configuration.speedTimeConstant, 0)
            let step = clamped - meters
            if step <= Self.jumpSpeed * elapsed { speed += (step - speed * elapsed) / (tau + elapsed) }
            // Watches' smart recording and phones saving battery report every 1 to 15 s;
            // longer is a gap. The usual longest interval, not the mean: rises to a longer one
            // at once and sinks back slowly, so that the reckoning spans the long intervals
            // between the short ones: 1.5 mean intervals of 1 to 15 s can stop short of the
            // next fix, and a fix 14 s after the last at 6.5 m/s then comes with the distance
            // 20 m past a marker the reckoning did not reach.
            if elapsed <= 20 {
                if let usual = updateInterval, elapsed < usual {
                    updateInterval = usual + Self.intervalDecay * (elapsed - usual)
                } else {
                    updateInterval = elapsed
                }
            }
        }
        meters = clamped
        updateTime = max(updateTime ?? time, time)
        self.time = max(self.time ?? time, time)
    }
}

