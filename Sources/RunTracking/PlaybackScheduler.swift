import Foundation

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
///   the distance on at the current pace, for one usual update interval at most, and asks to
///   be woken when a marker falls due then.
/// - One message plays at a time, with `minimumGapSeconds` of silence between two.
/// - Due messages play in marker order; equal markers in the order they were given.
/// - Every message plays exactly once; none is dropped. Markers passed while another plays,
///   or crossed together after a GPS gap, play one after the other.
/// - When the run finishes, or the planned distance is reached, every message left plays, in
///   marker order (`finish` messages included).
///
/// Because the queue is sorted and due-ness only grows with distance, the next message to
/// play is always the head of the queue: the state is one index, which is cheap per fix and
/// trivially `Codable`, so an app can persist it and resume after a restart.
public struct PlaybackScheduler: Sendable, Codable, Equatable {
    public let configuration: Configuration
    /// The messages in playing order.
    public let queue: [Entry]
    public private(set) var state: State

    /// Resolves every marker against `configuration.plannedDistance`.
    ///
    /// - Throws: `invalidMarker` when a relative marker has no planned distance, and
    ///   `duplicateMessage` when two messages share an id.
    public init(messages: [Message], configuration: Configuration = .init()) throws {
        var seen = Set<String>()
        var entries: [Entry] = []
        for (order, message) in messages.enumerated() {
            guard seen.insert(message.id).inserted else {
                throw RunTrackingError(.duplicateMessage, "message id '\(message.id)' is used twice in one run")
            }
            do {
                let meters = try message.marker.resolvedMeters(plannedDistance: configuration.plannedDistance)
                entries.append(Entry(message: message, meters: meters, order: order))
            } catch let error as RunTrackingError {
                throw error.attributed(to: message.id)
            }
        }
        entries.sort { ($0.meters, $0.order) < ($1.meters, $1.order) }
        self.configuration = configuration
        self.queue = entries
        self.state = .running(Progress())
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
        return Answer(action: action, nextWakeUp: wakeUpTime)
    }

    // MARK: - Events

    private mutating func distanceUpdated(time: Double, meters: Double) -> Action? {
        switch state {
        case .running(var progress):
            progress.advance(to: time, meters: meters, configuration: configuration)
            if reachedPlannedDistance(progress) {
                return finish(progress, time: time)
            }
            let action = startNext(&progress, time: time, ended: false)
            state = .running(progress)
            return action
        case .paused(var progress):
            progress.advance(to: time, meters: meters, configuration: configuration)
            // Markers passed while paused will be catching up on resume.
            progress.previousReach = progress.meters + leadMeters(progress)
            state = .paused(progress)
            return nil
        case .ended(var progress):
            progress.advance(to: time, meters: meters, configuration: configuration)
            let action = startNext(&progress, time: time, ended: true)
            state = .ended(progress)
            return action
        }
    }

    private mutating func playbackFinished(id: String, time: Double) -> Action? {
        var progress = state.progress
        // A stale or unknown id changes nothing: the host may report twice.
        guard progress.playing == id else { return nil }
        progress.playing = nil
        progress.lastFinish = time
        progress.time = max(progress.time ?? time, time)
        return resumeAfterChange(progress, time: time)
    }

    private mutating func paused(time: Double) -> Action? {
        if case .running(let progress) = state { state = .paused(progress) }
        return nil
    }

    private mutating func resumed(time: Double) -> Action? {
        guard case .paused(var progress) = state else { return nil }
        progress.time = max(progress.time ?? time, time)
        state = .running(progress)
        return resumeAfterChange(progress, time: time)
    }

    /// Ends the run; a paused run ends too, since the runner now has time to listen.
    private mutating func runFinished(time: Double) -> Action? {
        var progress = state.progress
        progress.time = max(progress.time ?? time, time)
        return finish(progress, time: time)
    }

    private mutating func ticked(time: Double) -> Action? {
        var progress = state.progress
        progress.time = max(progress.time ?? time, time)
        return resumeAfterChange(progress, time: time)
    }

    // MARK: - Queries

    /// When the next message could start if nothing else happens: the minimum gap after the
    /// last one ends, or, at the current pace, its marker is reached before the next distance
    /// update is due. Nil when nothing is waiting. Hosts read it from every `Answer`; a host
    /// that restores a saved scheduler sends a `tick` with the time now, and the answer says.
    private var wakeUpTime: Double? {
        let progress = state.progress
        guard progress.playing == nil, progress.nextIndex < queue.count else { return nil }
        let now = progress.time ?? -.infinity
        let ready = progress.lastFinish.map { $0 + configuration.minimumGapSeconds } ?? -.infinity
        switch state {
        case .paused:
            return nil
        case .ended:
            return ready > now ? ready : nil
        case .running:
            let entry = queue[progress.nextIndex]
            if isDue(entry, progress, at: now) { return ready > now ? ready : nil }
            guard let due = predictedDueTime(entry, progress), due > now else { return nil }
            return max(due, ready)
        }
    }

    /// The distance the scheduler reckons the runner has covered at `time`, which is what it
    /// judges markers by: the latest distance update, carried on at the current pace for at
    /// most 1.5 usual update intervals (with `anticipatesNextUpdate`; else the latest update).
    public func reckonedMeters(at time: Double) -> Double {
        guard case .running = state else { return state.progress.meters }
        return projectedMeters(state.progress, at: time)
    }

    /// Ids of the messages that have started, in order.
    public var startedIDs: [String] { queue.prefix(state.progress.nextIndex).map(\.message.id) }

    /// True when every message has played to the end.
    public var isComplete: Bool { state.progress.nextIndex == queue.count && state.progress.playing == nil }

    // MARK: - Transitions

    private mutating func finish(_ progress: Progress, time: Double) -> Action? {
        var progress = progress
        let action = startNext(&progress, time: time, ended: true)
        state = .ended(progress)
        return action
    }

    private mutating func resumeAfterChange(_ progress: Progress, time: Double) -> Action? {
        var progress = progress
        switch state {
        case .running:
            let action = startNext(&progress, time: time, ended: false)
            state = .running(progress)
            return action
        case .paused:
            state = .paused(progress)
            return nil
        case .ended:
            let action = startNext(&progress, time: time, ended: true)
            state = .ended(progress)
            return action
        }
    }

    private func reachedPlannedDistance(_ progress: Progress) -> Bool {
        guard let planned = configuration.plannedDistance else { return false }
        return progress.meters >= planned
    }

    private func leadMeters(_ progress: Progress) -> Double {
        configuration.leadSeconds * progress.speed
    }

    private func projectedMeters(_ progress: Progress, at time: Double) -> Double {
        guard configuration.anticipatesNextUpdate, let updateTime = progress.updateTime,
              let interval = progress.updateInterval, time > updateTime
        else { return progress.meters }
        return progress.meters + progress.speed * min(time - updateTime, Self.reckoningSpan * interval)
    }

    /// How far ahead the distance is reckoned, in usual update intervals: a little more than
    /// one, since intervals vary (smart recording sends fixes 1 to 15 s apart).
    static let reckoningSpan = 1.5

    private func isDue(_ entry: Entry, _ progress: Progress, at time: Double) -> Bool {
        projectedMeters(progress, at: time) + leadMeters(progress) >= entry.meters
    }

    /// When `entry` becomes due at the current pace, if that is before the next distance
    /// update is expected: the scheduler then asks to be woken at that moment, so a message
    /// starts at its marker even when fixes are 15 s (100 m) apart.
    private func predictedDueTime(_ entry: Entry, _ progress: Progress) -> Double? {
        guard configuration.anticipatesNextUpdate, progress.speed > 0, let updateTime = progress.updateTime,
              let interval = progress.updateInterval
        else { return nil }
        let seconds = (entry.meters - leadMeters(progress) - progress.meters) / progress.speed
        guard seconds <= Self.reckoningSpan * interval else { return nil }
        // The first moment that really is due, whatever the rounding of the division.
        var time = updateTime + seconds
        while !isDue(entry, progress, at: time), time < updateTime + Self.reckoningSpan * interval { time = time.nextUp }
        return time
    }

    /// Starts the head of the queue when nothing plays, the gap has passed and it is due.
    private func startNext(_ progress: inout Progress, time: Double, ended: Bool) -> Action? {
        // Once the run has ended there is nothing to reckon ahead: every message left is due.
        let reckoned = ended ? progress.meters : projectedMeters(progress, at: time)
        defer { progress.previousReach = reckoned + leadMeters(progress) }
        guard progress.playing == nil, progress.nextIndex < queue.count else { return nil }
        if let last = progress.lastFinish, time < last + configuration.minimumGapSeconds { return nil }
        let entry = queue[progress.nextIndex]
        let due = reckoned + leadMeters(progress) >= entry.meters
        guard due || ended else { return nil }
        let reason: PlayReason =
            !due ? .runEnded : progress.previousReach >= entry.meters ? .catchingUp : .markerReached
        progress.nextIndex += 1
        progress.playing = entry.message.id
        return .play(id: entry.message.id, reason: reason)
    }
}

extension PlaybackScheduler.Progress {
    /// Takes a new distance: never backwards, and a smoothed speed for the lead.
    mutating func advance(to time: Double, meters newMeters: Double, configuration: PlaybackScheduler.Configuration) {
        let clamped = newMeters.isFinite ? max(meters, newMeters) : meters
        if let previous = updateTime, time > previous {
            let elapsed = time - previous
            let instant = (clamped - meters) / elapsed
            // elapsed / (τ + elapsed): the exponential smoother's weight to first order, without
            // an exp() per fix.
            let weight = elapsed / (max(configuration.speedTimeConstant, 0) + elapsed)
            speed += weight * (instant - speed)
            // Watches' smart recording and phones saving battery report every 1 to 15 s;
            // longer is a gap.
            if elapsed <= 20 {
                updateInterval = updateInterval.map { $0 + 0.2 * (elapsed - $0) } ?? elapsed
            }
        }
        meters = clamped
        updateTime = max(updateTime ?? time, time)
        self.time = max(self.time ?? time, time)
    }
}

