/// Turns GPS fixes into a running distance that GPS noise does not inflate, for every runner:
/// a steep walk at 0.8 m/s to a fast run at 6.5 m/s, a fix every second or every 15.
///
/// Pure: fixes go in with their own time, readings come out; no clock, no I/O. The whole
/// state is `Codable` (and `Equatable`), so an app can save it when it is suspended and carry
/// on after a relaunch exactly as if it had never stopped.
///
/// 1. **Gating.** Fixes that do not advance the clock, have impossible coordinates (Null
///    Island, 0°N 0°E, included) or report a poor accuracy are ignored, and so is a fix at
///    exactly the place of the last one: a stale fix the phone hands over again after waking
///    up. A fix whose implied speed from the last accepted fix is above `maximumSpeed` is a
///    spike and ignored too; a run of them that agree with each other means the fix before
///    was the bad one (see `reject`).
/// 2. **Filtering.** A constant-velocity Kalman filter in a local east/north plane smooths the
///    position. GPS error wanders slowly (it is correlated over tens of seconds), so summing raw
///    fixes adds the wander to the distance; the filter's smooth velocity follows the runner
///    and much less of the wander.
/// 3. **Counting.** When the fixes carry the device's Doppler speed, distance is that speed
///    integrated over time, less the length its noise adds (the noise learnt from successive
///    speeds): it follows every bend between sparse fixes and is untouched by the position's
///    wander. Otherwise distance is counted along chords between filtered positions, cut at
///    turns (see `countChord`), less the length the position's wander adds to them (the
///    wander learnt from the fixes, see `learnWander`). The open chord, or the speeds up to
///    the latest fix, count at once, so the distance never lags the latest fix.
/// 4. **Standing still.** A stop begins when the Doppler speed, or else the filtered speed,
///    falls below `stillSpeed` (by filtered speed, only once the fixes have settled: see
///    `hasSettled`); nothing accrues then. Moving again (Doppler speed above `movingSpeed`
///    twice in a row), or drifting out of `stillRadius`, ends it.
/// 5. **Gaps.** After more than `gapSeconds` without a fix the straight line across the gap
///    counts when its speed is plausible (more, up to 1.3 times, when the Doppler speeds on
///    both sides say the runner ran through it: see `acrossGap`), and the filter restarts.
///
/// Distance between filtered positions is measured in the plane, whose origin follows the
/// runner (re-centred every 500 m), so it stays within 0.02% of the WGS84 geodesic.
public struct DistanceTracker: Sendable, Equatable {
    public let configuration: Configuration
    /// Cumulative metres so far.
    public internal(set) var meters: Double = 0
    /// Current speed in m/s, 0 while standing still.
    public internal(set) var speed: Double = 0
    /// True while the runner is standing still.
    public internal(set) var isStill = false
    /// True between `pause()` and `resume()`: fixes are ignored and nothing is counted.
    public internal(set) var isPaused = false

    /// Seconds per kilometre, or nil while (nearly) standing still.
    public var pace: Double? { speed >= 0.2 ? 1000 / speed : nil }

    var plane: LocalTangentPlane?
    var filter = ConstantVelocityFilter()
    /// The time of the last fix used. Finite (not -∞) before the first, so that JSON can hold it.
    var lastFixTime = -Double.greatestFiniteMagnitude
    /// The last accepted raw position and its time, for the implied-speed check.
    var lastAccepted = PlanePoint.origin
    var lastAcceptedTime = 0.0
    /// The last accepted fix, kept in lat/lon for `provisionalBridge` and the stale-fix check.
    var lastAcceptedFix: GPSFix?
    /// The filtered position distance was last measured from.
    var lastCounted = PlanePoint.origin
    /// The time of the fix `lastCounted` was filtered at.
    var lastCountedTime = 0.0
    /// Where the runner stopped, while standing still.
    var stillAnchor = PlanePoint.origin
    /// Metres counted up to `lastCounted`; `meters` adds the open chord beyond it.
    var committed = 0.0
    /// The filtered position after the previous accepted fix.
    var previousFiltered = PlanePoint.origin
    let cosineOfMaximumTurn: Double
    /// 1 / `fullAccelerationSpeed`², so that `accelerationNoise` divides nothing per fix.
    let inverseSquaredFullAccelerationSpeed: Double
    /// Rejected fixes in a row that agree with each other (lat/lon, since the plane moves).
    var rejectedRun: [GPSFix] = []
    /// The last gap bridge, while it is young enough to be undone.
    var provisionalBridge: ProvisionalBridge?
    /// The Doppler speed of the previous accepted fix, while Doppler odometry runs (nil
    /// before it, after a restart, and when that fix had none).
    var previousDopplerSpeed: Double?
    /// While standing still: Doppler speeds above `movingSpeed` in a row so far, and the
    /// metres they say were run, counted if the runner turns out to be moving.
    var movingEvidence = 0
    var pendingMeters = 0.0
    /// While standing still by Doppler speeds: when the stop began, and the metres the speeds
    /// say were run since, counted if it was too brief to be a stop.
    var stillSince = 0.0
    var stillMeters = 0.0
    /// The Doppler speeds' noise variance learnt from successive speeds (see
    /// `learnDopplerNoise`), and the variance the bias correction uses.
    var measuredDopplerVariance: Double
    var dopplerVariance: Double
    /// The last step between accepted raw fixes and its seconds (0 after a restart), and how
    /// fast the fixes' error wanders, learnt from them (see `learnWander`).
    var lastStep = PlanePoint.origin
    var lastStepSeconds = 0.0
    var wanderRate = 0.0
    /// The fix two back and its time, the two steps before it with their seconds, and the
    /// rate learnt from every other fix (see `randomWanderRate`).
    var pairStart = PlanePoint.origin
    var pairStartTime = 0.0
    var previousPairStep = PlanePoint.origin
    var previousPairSeconds = 0.0
    var wanderRateAtDouble = 0.0
    /// The slow means that tell each fix's white error from wander (see `whiteOffset`), and
    /// how many samples from every other fix have gone into them.
    var steadyOffset = 0.0
    var steadyOffsetAtDouble = 0.0
    var steadySamples = 0
    /// `wanderShare` × `randomWanderRate`, kept as it is learnt: `unwandered` runs at every fix.
    var unwanderingRate = 0.0
    var learnsAtDouble = false
    /// Where the fixes have been lately: their mean over about `settlingSeconds` (see
    /// `hasSettled`).
    var settled = PlanePoint.origin
    /// The last chord counted when it spanned one step between fixes, else .origin (see
    /// `bendOverChord`).
    var lastStepChord = PlanePoint.origin

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        cosineOfMaximumTurn = cos(configuration.maximumTurn * .pi / 180)
        inverseSquaredFullAccelerationSpeed = 1 / (configuration.fullAccelerationSpeed * configuration.fullAccelerationSpeed)
        measuredDopplerVariance = configuration.dopplerNoise * configuration.dopplerNoise
        dopplerVariance = measuredDopplerVariance
    }

    /// Feeds one fix and returns the distance, speed and what was made of the fix.
    public mutating func update(with fix: GPSFix) -> Reading {
        let outcome = process(fix)
        // The open chord counts at once, so the scheduler is never a chord behind; the
        // maximum keeps the total from ever going back when a chord is re-measured.
        let open = isStill || isPaused ? 0 : openChord
        meters = max(meters, committed + open)
        return Reading(time: max(fix.time, lastFixTime), meters: meters, speed: speed, outcome: outcome)
    }

    /// The chord from the last counted position to the filtered one, as `countChord` would
    /// count it (Doppler odometry leaves `lastCounted` at the filtered position). Inlined: as a
    /// call, `update` copies the whole tracker to hand it a snapshot of `self`, a cost per fix
    /// the tracker's benchmark shows (docs/benchmarks.md, the hot paths).
    @inline(__always)
    private var openChord: Double {
        let east = filter.east - lastCounted.east, north = filter.north - lastCounted.north
        let squared = east * east + north * north
        return previousDopplerSpeed == nil
            ? unwandered(squared: squared, seconds: lastAcceptedTime - lastCountedTime) : squared.squareRoot()
    }

    private mutating func process(_ fix: GPSFix) -> Outcome {
        guard !isPaused else { return .paused }
        // Null Island is where a receiver with no fix puts one (OpenTracks counted thousands of
        // km from such fixes after an idle period).
        guard fix.hasValidCoordinates, fix.time.isFinite, fix.latitude != 0 || fix.longitude != 0 else {
            return .invalidCoordinates
        }
        guard fix.time > lastFixTime else { return .outOfOrder }
        if let accuracy = fix.horizontalAccuracy, accuracy > configuration.maximumAccuracy {
            return .inaccurate
        }
        let noise = max(fix.horizontalAccuracy ?? configuration.assumedAccuracy, 1)
        guard plane != nil else {
            start(at: fix, noise: noise)
            return .started
        }
        let position = recentredPosition(of: fix)
        let elapsed = fix.time - lastAcceptedTime
        if fix.time - lastFixTime > configuration.gapSeconds {
            return bridgeGap(to: fix, at: position, elapsed: elapsed, noise: noise)
        }
        // The same place as the last fix, to the last digit, tells nothing new: a phone
        // waking up hands over its last fix again, newly timed, before fresh ones come. After
        // a gap such a fix was the bridge, which stays provisional: if fresh fixes far away
        // follow, they undo it and the straight line from before the gap counts.
        if let last = lastAcceptedFix, last.latitude == fix.latitude, last.longitude == fix.longitude {
            return .repeated
        }
        // In squares: a square root per fix saved.
        let stepEast = position.east - lastAccepted.east, stepNorth = position.north - lastAccepted.north
        let reach = configuration.maximumSpeed * elapsed
        if stepEast * stepEast + stepNorth * stepNorth > reach * reach {
            return reject(fix)
        }
        lastFixTime = fix.time
        if !rejectedRun.isEmpty { rejectedRun.removeAll() }
        learnWander(step: PlanePoint(east: stepEast, north: stepNorth), seconds: elapsed)
        lastAccepted = position
        lastAcceptedTime = fix.time
        lastAcceptedFix = fix
        if var bridge = provisionalBridge {
            bridge.acceptedSince += 1
            provisionalBridge = bridge.acceptedSince >= 3 ? nil : bridge
        }
        let weight = min(1, elapsed * Self.inverseSettlingSeconds)
        settled.east += weight * (position.east - settled.east)
        settled.north += weight * (position.north - settled.north)
        filter.predict(by: elapsed, accelerationNoise: accelerationNoise)
        filter.correct(east: position.east, north: position.north, noise: noise)
        count(fix, elapsed: elapsed)
        return .accepted
    }

    /// The fix in the plane, after moving the plane's origin near the runner when the fix is
    /// more than 500 m from it, so the plane's scale stays true.
    private mutating func recentredPosition(of fix: GPSFix) -> PlanePoint {
        guard let plane else { return .origin }
        let position = plane.project(fix)
        guard abs(position.east) > 500 || abs(position.north) > 500 else { return position }
        let center = plane.unproject(east: filter.east, north: filter.north)
        let moved = LocalTangentPlane(originLatitude: center.latitude, originLongitude: center.longitude)
        func reproject(_ point: PlanePoint) -> PlanePoint {
            let place = plane.unproject(east: point.east, north: point.north)
            return moved.project(latitude: place.latitude, longitude: place.longitude)
        }
        lastAccepted = reproject(lastAccepted)
        lastCounted = reproject(lastCounted)
        stillAnchor = reproject(stillAnchor)
        previousFiltered = reproject(previousFiltered)
        settled = reproject(settled)
        pairStart = reproject(pairStart)
        filter.position = reproject(filter.position)
        self.plane = moved
        return moved.project(fix)
    }

    /// The first fix after a gap: the straight line across counts when its speed is
    /// plausible, and the filter starts over there.
    private mutating func bridgeGap(to fix: GPSFix, at position: PlanePoint, elapsed: Double, noise: Double) -> Outcome {
        let from = isStill ? stillAnchor : filter.position
        let across = from.distance(to: position)
        guard across <= configuration.maximumGapSpeed * elapsed else { return reject(fix) }
        lastFixTime = fix.time
        if let before = lastAcceptedFix {
            provisionalBridge = ProvisionalBridge(metersBefore: committed, from: before)
        }
        lastAcceptedFix = fix
        // A pause where the runner barely moved is standing still, not distance; while
        // standing still, only leaving the still circle counts, as without a gap.
        if across > (isStill ? configuration.stillRadius : 2 * noise) {
            committed += acrossGap(across, from: previousDopplerSpeed, to: fix.dopplerSpeed, seconds: elapsed)
            isStill = false
            countFrom(position, at: fix.time)
        } else if !isStill {
            isStill = true
            stillAnchor = from
        }
        filter.restart(at: position, noise: noise)
        settled = position
        lastStepSeconds = 0
        pairStart = position
        pairStartTime = fix.time
        previousPairSeconds = 0
        lastAccepted = position
        lastAcceptedTime = fix.time
        previousFiltered = position
        rejectedRun.removeAll()
        previousDopplerSpeed = fix.dopplerSpeed
        movingEvidence = 0
        speed = 0
        return .bridgedGap
    }

    private mutating func start(at fix: GPSFix, noise: Double) {
        let plane = LocalTangentPlane(originLatitude: fix.latitude, originLongitude: fix.longitude)
        self.plane = plane
        filter.restart(at: .origin, noise: noise)
        settled = .origin
        pairStart = .origin
        pairStartTime = fix.time
        lastFixTime = fix.time
        lastAccepted = .origin
        lastAcceptedTime = fix.time
        lastAcceptedFix = fix
        countFrom(.origin, at: fix.time)
        previousFiltered = .origin
        stillAnchor = .origin
        previousDopplerSpeed = fix.dopplerSpeed
        isStill = true
    }
}

// Decoded by hand so that a tracker saved by an earlier version (before the every-other-fix
// wander and the settled mean) still restores: an app updated during a run must carry on, and
// a fresh tracker would count from 0 m, which the scheduler, never going back, would sit out.
// What is missing starts from the last accepted fix, as after a restart of the filter.
#if !hasFeature(Embedded)
extension DistanceTracker: Codable {
    public init(from decoder: any Decoder) throws {
        let saved = try decoder.container(keyedBy: CodingKeys.self)
        self.init(configuration: try saved.decode(Configuration.self, forKey: .configuration))
        // The first saved format's fields, every one of them required.
        try restore(Double.self, from: saved, [
            (.meters, \.meters), (.speed, \.speed), (.lastFixTime, \.lastFixTime),
            (.lastAcceptedTime, \.lastAcceptedTime), (.lastCountedTime, \.lastCountedTime),
            (.committed, \.committed), (.pendingMeters, \.pendingMeters), (.stillSince, \.stillSince),
            (.stillMeters, \.stillMeters), (.measuredDopplerVariance, \.measuredDopplerVariance),
            (.dopplerVariance, \.dopplerVariance), (.lastStepSeconds, \.lastStepSeconds), (.wanderRate, \.wanderRate),
        ])
        try restore(PlanePoint.self, from: saved, [
            (.lastAccepted, \.lastAccepted), (.lastCounted, \.lastCounted), (.stillAnchor, \.stillAnchor),
            (.previousFiltered, \.previousFiltered), (.lastStep, \.lastStep),
        ])
        isStill = try saved.decode(Bool.self, forKey: .isStill)
        movingEvidence = try saved.decode(Int.self, forKey: .movingEvidence)
        filter = try saved.decode(ConstantVelocityFilter.self, forKey: .filter)
        rejectedRun = try saved.decode([GPSFix].self, forKey: .rejectedRun)
        // Optional in every format: absent when there was none.
        plane = try saved.decodeIfPresent(LocalTangentPlane.self, forKey: .plane)
        lastAcceptedFix = try saved.decodeIfPresent(GPSFix.self, forKey: .lastAcceptedFix)
        provisionalBridge = try saved.decodeIfPresent(ProvisionalBridge.self, forKey: .provisionalBridge)
        previousDopplerSpeed = try saved.decodeIfPresent(Double.self, forKey: .previousDopplerSpeed)
        // Not in the first saved format: the every-other-fix wander and the settled mean.
        pairStart = try saved.decodeIfPresent(PlanePoint.self, forKey: .pairStart) ?? lastAccepted
        pairStartTime = try saved.decodeIfPresent(Double.self, forKey: .pairStartTime) ?? lastAcceptedTime
        previousPairStep = try saved.decodeIfPresent(PlanePoint.self, forKey: .previousPairStep) ?? .origin
        previousPairSeconds = try saved.decodeIfPresent(Double.self, forKey: .previousPairSeconds) ?? 0
        wanderRateAtDouble = try saved.decodeIfPresent(Double.self, forKey: .wanderRateAtDouble) ?? 0
        // Without the every-other-fix rate, all of the learnt rate is taken for wander (see
        // `randomWanderRate`), as the first format did, rather than none of it until the
        // next every-other fix.
        unwanderingRate = try saved.decodeIfPresent(Double.self, forKey: .unwanderingRate)
            ?? Self.wanderShare * randomWanderRate
        learnsAtDouble = try saved.decodeIfPresent(Bool.self, forKey: .learnsAtDouble) ?? false
        settled = try saved.decodeIfPresent(PlanePoint.self, forKey: .settled) ?? lastAccepted
        // Not in the first two formats: the chord before, for the bend between sparse fixes.
        lastStepChord = try saved.decodeIfPresent(PlanePoint.self, forKey: .lastStepChord) ?? .origin
        // Not in the first three formats, which had no pause.
        isPaused = try saved.decodeIfPresent(Bool.self, forKey: .isPaused) ?? false
        // Not in the first four: the slow means that tell white error from wander. Without
        // them the rates learnt so far stand as they were until the means have samples.
        steadyOffset = try saved.decodeIfPresent(Double.self, forKey: .steadyOffset) ?? 0
        steadyOffsetAtDouble = try saved.decodeIfPresent(Double.self, forKey: .steadyOffsetAtDouble) ?? 0
        steadySamples = try saved.decodeIfPresent(Int.self, forKey: .steadySamples) ?? 0
    }

    /// Sets each of `fields`, all of type `type`, from the value saved under its key.
    private mutating func restore<Key: CodingKey, Value: Decodable>(
        _ type: Value.Type, from saved: KeyedDecodingContainer<Key>,
        _ fields: [(Key, WritableKeyPath<DistanceTracker, Value>)]
    ) throws {
        for (key, field) in fields {
            self[keyPath: field] = try saved.decode(Value.self, forKey: key)
        }
    }
}
#endif
