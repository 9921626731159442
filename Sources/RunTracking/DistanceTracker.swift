import Foundation

/// Turns GPS fixes into a running distance that GPS noise does not inflate.
///
/// Pure: fixes go in with their own time, readings come out; no clock, no I/O.
///
/// 1. **Gating.** Fixes that do not advance the clock, have impossible coordinates or report a
///    poor accuracy are ignored. A fix whose implied speed from the last accepted fix is above
///    `maximumSpeed` is a spike and ignored too.
/// 2. **Filtering.** A constant-velocity Kalman filter in a local east/north plane smooths the
///    position. GPS error wanders slowly (it is correlated over tens of seconds), so summing raw
///    fixes adds the wander to the distance; the filter's smooth velocity follows the runner
///    and much less of the wander.
/// 3. **Standing still.** Below `stillSpeed` nothing accrues. Moving again, or drifting out of
///    `stillRadius`, counts the straight line from where the runner stopped.
/// 4. **Gaps.** After more than `gapSeconds` without a fix the straight line across the gap
///    counts when its speed is plausible, and the filter restarts.
///
/// Distance between filtered positions is measured in the plane, whose origin follows the
/// runner (re-centred every 500 m), so it stays within 0.02% of the WGS84 geodesic.
///
/// The whole state is `Codable` (and `Equatable`), so an app can save it when it is suspended
/// and carry on after a relaunch exactly as if it had never stopped.
public struct DistanceTracker: Sendable, Codable, Equatable {
    public let configuration: Configuration
    /// Cumulative metres so far.
    public private(set) var meters: Double = 0
    /// Current speed in m/s, 0 while standing still.
    public private(set) var speed: Double = 0
    /// True while the runner is standing still.
    public private(set) var isStill = false

    /// Seconds per kilometre, or nil while (nearly) standing still.
    public var pace: Double? { speed >= 0.2 ? 1000 / speed : nil }

    private var plane: LocalTangentPlane?
    private var filter = ConstantVelocityFilter()
    /// The time of the last fix used. Finite (not -∞) before the first, so that JSON can hold it.
    private var lastFixTime = -Double.greatestFiniteMagnitude
    /// The last accepted raw position and its time, for the implied-speed check.
    private var lastAccepted = PlanePoint.origin
    private var lastAcceptedTime = 0.0
    /// The filtered position distance was last measured from.
    private var lastCounted = PlanePoint.origin
    /// Where the runner stopped, while standing still.
    private var stillAnchor = PlanePoint.origin
    /// Metres counted up to `lastCounted`; `meters` adds the open chord beyond it.
    private var committed = 0.0
    /// The filtered position after the previous accepted fix.
    private var previousFiltered = PlanePoint.origin
    private let cosineOfMaximumTurn: Double
    /// Rejected fixes in a row that agree with each other (lat/lon, since the plane moves).
    private var rejectedRun: [GPSFix] = []
    /// The last gap bridge, while it is young enough to be undone.
    private var provisionalBridge: ProvisionalBridge?
    /// The last accepted fix, kept in lat/lon for `provisionalBridge`.
    private var lastAcceptedFix: GPSFix?

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        cosineOfMaximumTurn = cos(configuration.maximumTurn * .pi / 180)
    }

    /// Feeds one fix and returns the distance, speed and what was made of the fix.
    public mutating func update(with fix: GPSFix) -> Reading {
        let outcome = process(fix)
        // The open chord counts at once, so the scheduler is never a chord behind; the
        // maximum keeps the total from ever going back when a chord is re-measured.
        let open = isStill ? 0 : lastCounted.distance(to: filter.position)
        meters = max(meters, committed + open)
        return Reading(time: max(fix.time, lastFixTime), meters: meters, speed: speed, outcome: outcome)
    }

    private mutating func process(_ fix: GPSFix) -> Outcome {
        guard fix.hasValidCoordinates, fix.time.isFinite else { return .invalidCoordinates }
        guard fix.time > lastFixTime else { return .outOfOrder }
        if let accuracy = fix.horizontalAccuracy, accuracy > configuration.maximumAccuracy {
            return .inaccurate
        }
        let noise = max(fix.horizontalAccuracy ?? configuration.assumedAccuracy, 1)

        guard var plane else {
            start(at: fix, noise: noise)
            return .started
        }
        var position = plane.project(fix)
        // Keep the plane's origin near the runner so its scale stays true.
        if abs(position.east) > 500 || abs(position.north) > 500 {
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
            filter.position = reproject(filter.position)
            plane = moved
            self.plane = moved
            position = plane.project(fix)
        }

        let elapsed = fix.time - lastAcceptedTime
        let jump = lastAccepted.distance(to: position)
        let gap = fix.time - lastFixTime > configuration.gapSeconds

        if gap {
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
                committed += across
                isStill = false
            }
            filter.restart(at: position, noise: noise)
            lastAccepted = position
            lastAcceptedTime = fix.time
            lastCounted = position
            previousFiltered = lastCounted
            stillAnchor = lastCounted
            rejectedRun.removeAll()
            speed = 0
            return .bridgedGap
        }

        if jump > configuration.maximumSpeed * elapsed {
            return reject(fix)
        }
        lastFixTime = fix.time
        if !rejectedRun.isEmpty { rejectedRun.removeAll() }
        lastAccepted = position
        lastAcceptedTime = fix.time
        lastAcceptedFix = fix
        if var bridge = provisionalBridge {
            bridge.acceptedSince += 1
            provisionalBridge = bridge.acceptedSince >= 3 ? nil : bridge
        }
        filter.predict(by: elapsed, accelerationNoise: configuration.accelerationNoise)
        filter.correct(east: position.east, north: position.north, noise: noise)
        accumulate(deviceSpeed: fix.speed)
        return .accepted
    }

    private mutating func accumulate(deviceSpeed: Double?) {
        let current = filter.position
        let filtered = filter.speed
        // A device's Doppler speed is far better than one derived from positions.
        let judged = deviceSpeed ?? filtered
        if isStill {
            let away = stillAnchor.distance(to: current)
            // Filtered speed alone would end a stop whenever the slow GPS wander speeds up;
            // only leaving the circle, or a device's Doppler speed, ends it.
            if (deviceSpeed ?? 0) > configuration.movingSpeed || away > configuration.stillRadius {
                isStill = false
                committed += away
                lastCounted = current
            }
        } else if judged < configuration.stillSpeed {
            isStill = true
            committed += lastCounted.distance(to: current)
            stillAnchor = current
            lastCounted = current
        } else {
            countChord(to: current)
        }
        previousFiltered = current
        speed = isStill ? 0 : filtered
    }

    /// Counts distance along chords between filtered positions rather than fix by fix.
    ///
    /// GPS error wanders over tens of seconds; summed over short steps its sideways part adds
    /// length that was never run (about σ²/2v² of it). Over a chord of `chordLength` metres
    /// most of that sideways wander cancels. A turn sharper than `maximumTurn` ends the chord
    /// at the previous position, so corners are not cut.
    private mutating func countChord(to current: PlanePoint) {
        let chordEast = current.east - lastCounted.east, chordNorth = current.north - lastCounted.north
        let chord = planarLength(chordEast, chordNorth)
        if chord >= configuration.chordLength {
            committed += chord
            lastCounted = current
            return
        }
        guard chord > 5 else { return }
        let dot = chordEast * filter.velocityEast + chordNorth * filter.velocityNorth
        if dot < cosineOfMaximumTurn * chord * filter.speed {
            committed += lastCounted.distance(to: previousFiltered)
            lastCounted = previousFiltered
        }
    }

    private mutating func start(at fix: GPSFix, noise: Double) {
        let plane = LocalTangentPlane(originLatitude: fix.latitude, originLongitude: fix.longitude)
        self.plane = plane
        filter.restart(at: .origin, noise: noise)
        lastFixTime = fix.time
        lastAccepted = .origin
        lastAcceptedTime = fix.time
        lastAcceptedFix = fix
        lastCounted = .origin
        previousFiltered = .origin
        stillAnchor = .origin
        isStill = true
    }

    /// Handles a fix that failed the implied-speed check.
    ///
    /// Single spikes are dropped. But when `maximumConsecutiveRejections` fixes in a row agree
    /// with each other, it is the reference that was wrong (a bad fix right after a gap, or a
    /// receiver that jumped and stayed): the tracker restarts at the first of them. The
    /// straight line to there counts when it is plausible, measured from before a gap bridged
    /// just before, since such a bridge may have ended on a bad fix.
    private mutating func reject(_ fix: GPSFix) -> Outcome {
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
        if let bridge = provisionalBridge {
            committed = bridge.metersBefore
            let from = plane.project(bridge.from)
            lastCounted = from
            lastAccepted = from
            lastAcceptedTime = bridge.from.time
        }
        let first = run[0]
        let start = plane.project(first)
        let across = lastCounted.distance(to: start)
        if across <= configuration.maximumGapSpeed * (first.time - lastAcceptedTime) {
            committed += across
        }
        let noise = max(first.horizontalAccuracy ?? configuration.assumedAccuracy, 1)
        filter.restart(at: start, noise: noise)
        lastAccepted = start
        lastAcceptedTime = first.time
        lastCounted = start
        previousFiltered = start
        stillAnchor = start
        isStill = false
        provisionalBridge = nil
        speed = 0
        // Replay the rest of the run through the filter as ordinary fixes.
        for later in run.dropFirst() {
            let position = plane.project(later)
            filter.predict(by: later.time - lastAcceptedTime, accelerationNoise: configuration.accelerationNoise)
            filter.correct(
                east: position.east, north: position.north,
                noise: max(later.horizontalAccuracy ?? configuration.assumedAccuracy, 1))
            lastAccepted = position
            lastAcceptedTime = later.time
            accumulate(deviceSpeed: later.speed)
        }
        lastAcceptedFix = run.last
        lastFixTime = fix.time
        return .restarted
    }
}

extension DistanceTracker {
    /// A gap bridge that a run of consistent outliers right after it may still undo: the
    /// metres before it, the last accepted fix before the gap, and how many fixes it has held.
    struct ProvisionalBridge: Sendable, Codable, Equatable {
        var metersBefore: Double
        var from: GPSFix
        var acceptedSince = 0
    }
}
