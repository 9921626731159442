extension DistanceTracker {
    /// Handles a fix that failed the implied-speed check.
    ///
    /// Single spikes are dropped. But when `maximumConsecutiveRejections` fixes in a row agree
    /// with each other, it is the reference that was wrong (a bad fix right after a gap, or a
    /// receiver that jumped and stayed): the tracker restarts at the first of them. The
    /// straight line to there counts when it is plausible, measured from before a gap bridged
    /// just before, since such a bridge may have ended on a bad fix.
    mutating func reject(_ fix: GPSFix) -> Outcome {
        if let last = rejectedRun.last, let plane {
            let consistent = plane.project(last).distance(to: plane.project(fix))
                <= configuration.maximumSpeed * (fix.time - last.time)
            if !consistent { rejectedRun.removeAll() }
        }
        rejectedRun.append(fix)
        guard rejectedRun.count >= configuration.maximumConsecutiveRejections, let plane else {
            return .outlier
        }
        let run = rejectedRun
        rejectedRun.removeAll()
        let before = provisionalBridge?.from.dopplerSpeed ?? lastAcceptedFix?.dopplerSpeed
        if let bridge = provisionalBridge {
            committed = bridge.metersBefore
            let from = plane.project(bridge.from)
            countFrom(from, at: bridge.from.time)
            lastAccepted = from
            lastAcceptedTime = bridge.from.time
        }
        let first = run[0]
        let start = plane.project(first)
        let across = lastCounted.distance(to: start)
        if across <= configuration.maximumGapSpeed * (first.time - lastAcceptedTime) {
            committed += acrossGap(across, from: before, to: first.dopplerSpeed, seconds: first.time - lastAcceptedTime)
        }
        let noise = max(first.horizontalAccuracy ?? configuration.assumedAccuracy, 1)
        filter.restart(at: start, noise: noise)
        settled = start
        lastStepSeconds = 0
        pairStart = start
        pairStartTime = first.time
        previousPairSeconds = 0
        lastAccepted = start
        lastAcceptedTime = first.time
        countFrom(start, at: first.time)
        previousFiltered = start
        stillAnchor = start
        isStill = false
        provisionalBridge = nil
        speed = 0
        // Replay the rest of the run through the filter as ordinary fixes.
        previousDopplerSpeed = first.dopplerSpeed
        movingEvidence = 0
        for later in run.dropFirst() {
            let previousTime = lastAcceptedTime
            let position = plane.project(later)
            filter.predict(by: later.time - lastAcceptedTime, accelerationNoise: accelerationNoise)
            filter.correct(
                east: position.east, north: position.north,
                noise: max(later.horizontalAccuracy ?? configuration.assumedAccuracy, 1))
            lastAccepted = position
            lastAcceptedTime = later.time
            count(later, elapsed: later.time - previousTime)
        }
        lastAcceptedFix = run.last
        lastFixTime = fix.time
        return .restarted
    }
}

extension DistanceTracker {
    /// A gap bridge that a run of consistent outliers right after it may still undo: the
    /// metres before it, the last accepted fix before the gap, and how many fixes it has held.
    struct ProvisionalBridge: Sendable, Equatable {
        var metersBefore: Double
        var from: GPSFix
        var acceptedSince = 0
    }
}

extension DistanceTracker {
    /// A gap bridged by a straight line is a chord: it cuts every bend of the way run in
    /// between. When the Doppler speeds on both sides say the runner was running, the way
    /// is their mean times the gap's seconds, but never more than `largestGapBend` times
    /// the straight line: a stop in the gap, which the speeds cannot see, adds no more than
    /// that. After 45 s asleep at 3 m/s on city streets, the straight line counted 123 m of
    /// 159.
    func acrossGap(_ straight: Double, from before: Double?, to after: Double?, seconds: Double) -> Double {
        guard let before, let after, before > configuration.movingSpeed, after > configuration.movingSpeed else {
            return straight
        }
        return min(max(straight, (before + after) / 2 * seconds), Self.largestGapBend * straight)
    }

    static let largestGapBend = 1.3
}

#if !hasFeature(Embedded)
extension DistanceTracker.ProvisionalBridge: Codable {}
#endif
