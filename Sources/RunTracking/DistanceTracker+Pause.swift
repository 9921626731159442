extension DistanceTracker {
    /// Stops counting, as a running watch's pause button does: the distance stays where it is,
    /// and fixes that come while paused are ignored (`Outcome.paused`), wherever they are.
    ///
    /// The distance shown at the pause is the one kept: the open chord, already counted in
    /// `meters`, is committed, so nothing is taken back or added when the run goes on.
    public mutating func pause() {
        guard !isPaused else { return }
        isPaused = true
        committed = meters
        speed = 0
    }

    /// Counts on from the first fix after this call, as from a new start: where the runner
    /// went while paused is not counted, and no straight line is drawn across the pause, as
    /// `gapSeconds` would otherwise. What the tracker learnt of the device's noise is kept.
    public mutating func resume() {
        guard isPaused else { return }
        isPaused = false
        // With no plane, the next fix starts afresh (see `start(at:noise:)`).
        plane = nil
        rejectedRun.removeAll()
        provisionalBridge = nil
        movingEvidence = 0
        pendingMeters = 0
        stillMeters = 0
        lastStepSeconds = 0
        previousPairSeconds = 0
    }
}
