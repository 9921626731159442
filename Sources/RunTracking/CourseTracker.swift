/// Follows a runner along a race's known course: its distance is the place along the course,
/// so every message plays where its marker stands on the course, whatever the GPS error adds.
///
/// Pure, like `DistanceTracker`: fixes go in with their own time, readings come out; no clock,
/// no I/O, and the whole state is `Codable`.
///
/// 1. **Judging fixes.** A `DistanceTracker` runs beside it (`odometer`) and judges each fix as
///    it always does: spikes, stale fixes, poor accuracy, fixes out of order and a pause are
///    left out; it finds the stands, and gives the runner's heading.
/// 2. **Matching.** A fix is put on the course near where the runner is expected along it, not
///    anywhere near it on the map: only the course from `searchBehind` metres behind the
///    current place to as far as `maximumSpeed` could have carried the runner is searched,
///    and among the stretches of course near the fix the one nearest the expected place wins,
///    the runner's heading breaking ties. So the way home of an out-and-back, metres from the
///    way out, a crossing of the course, and the same place a lap later are not mistaken for
///    each other. The fix then goes to its foot on that stretch.
/// 3. **Along the course.** A Kalman filter with a constant-velocity model (`AlongCourseFilter`)
///    follows the place along the course from those feet and, when the device reports it,
///    the Doppler speed, which carries the place on between sparse fixes. While the odometer
///    says the runner stands still, the place stays where it is.
/// 4. **Off the course.** A fix farther from the course than the off-course distance (see
///    `Configuration.offCourseDistance`) moves nothing; `offCourseFixes` of them in a row and
///    the runner has left the course (`isOffCourse`). Off it, the course ahead of where they
///    left is searched as far as they could have run, and they are back after `rejoinFixes`
///    fixes near it, heading its way. Ahead of where they left is a short cut: the distance
///    jumps, and the scheduler plays the markers passed at once, in order.
///
/// `meters` never decreases and never passes the course's length.
///
/// The cost per fix does not grow with the course's length: the search walks out from the
/// expected place only as far as a nearer match could be, and off the course, blocks and
/// groups of the course far from the fix are skipped whole (see `CourseIndex`).
public struct CourseTracker: Sendable, Equatable {
    public let course: Course
    public let configuration: Configuration
    /// Metres along the course so far; never decreases.
    public internal(set) var meters = 0.0
    /// True from when the runner has left the course until they are back on it.
    public internal(set) var isOffCourse = false
    /// How far from the course the last fix used was, in metres (nil before the first).
    public internal(set) var lateral: Double?
    /// The place along the course where the runner was last seen on it, while off it.
    public internal(set) var leftAt: Double?
    /// While a run that began away from the course has not reached it yet (Start pressed in
    /// the start's pen, or on a warm-up): how far its first fix lay from the course's start, in
    /// metres. Nil once it has, and for a run that began on the course. Such a runner is off
    /// the course (`isOffCourse`), but has left nothing: the distance begins where they reach
    /// the start (see `mayJoin`).
    public internal(set) var startedAway: Double?
    /// The positions-alone tracker run beside this one: its `meters` is the way the runner
    /// has run, detours included.
    public internal(set) var odometer: DistanceTracker

    /// The place and speed along the course, as of `lastUsedTime`.
    var filter = AlongCourseFilter()
    /// The time of the last fix that moved the filter (or held it, standing still); nil before
    /// the first fix.
    var lastUsedTime: Double?
    /// While on the course: fixes in a row straying from it (see `strayingAccuracies`), since
    /// when, and how many of the last of them in a row lay past the off-course distance.
    var strayedFixes = 0
    var straySince = 0.0
    var beyondFixes = 0
    /// While off the course: when the runner left, and the fixes in a row back near it, with
    /// the place along the course the last of them matched.
    var leftTime = 0.0
    var nearFixes = 0
    var nearMeters = 0.0
    /// The odometer's distance at the first of those near fixes.
    var nearSinceOdometer = 0.0
    /// While the place is held for a stand (see `hasSetOff`).
    var isHolding = false
    /// The fixes' error variance per axis (m²), learnt from their distances from the course.
    var lateralVariance: Double
    /// The piece of the course the last fix was matched to, where the next search starts.
    var pieceHint = 0

    /// Speed in m/s over the ground (the odometer's), 0 while standing still.
    public var speed: Double { odometer.speed }
    /// True between `pause()` and `resume()`.
    public var isPaused: Bool { odometer.isPaused }

    public init(course: Course, configuration: Configuration = .init()) {
        self.course = course
        self.configuration = configuration
        odometer = DistanceTracker(configuration: configuration.odometer)
        lateralVariance = configuration.odometer.assumedAccuracy * configuration.odometer.assumedAccuracy
    }

    /// Feeds one fix and returns the distance along the course and what was made of the fix.
    public mutating func update(with fix: GPSFix) -> Reading {
        let judged = odometer.update(with: fix)
        var event: Event?
        var matched = false
        switch judged.outcome {
        case .started, .accepted, .bridgedGap, .restarted:
            event = follow(fix)
            matched = true
        case .outOfOrder, .repeated, .invalidCoordinates, .inaccurate, .outlier, .paused:
            break
        }
        return Reading(
            time: judged.time, meters: meters, speed: judged.speed, outcome: judged.outcome, isOffCourse: isOffCourse,
            lateral: matched ? lateral : nil, event: event)
    }

    /// Stops, as a watch's pause button does: fixes are ignored until `resume()`.
    public mutating func pause() { odometer.pause() }

    /// Carries on from the first fix after this call, found on the course wherever it is ahead:
    /// a runner who moved on while paused is at a later place of the course.
    public mutating func resume() {
        guard odometer.isPaused else { return }
        odometer.resume()
        filter.hold(speedNoise: Self.setOffSpeedNoise)
    }

    /// The σ of the speed when the runner sets off (m/s): anything from a walk to a sprint.
    static let setOffSpeedNoise = 3.0

    /// The fix's error as σ per axis in metres: its reported accuracy, or else what the fixes'
    /// distances from the course show (see `learnLateral`).
    @inline(__always)
    func sigma(of fix: GPSFix) -> Double {
        max(fix.horizontalAccuracy ?? lateralVariance.squareRoot(), 1)
    }

    /// Learns the fixes' error from how far from the course they lie: on the course, a fix's
    /// distance from it is its error across the course, and its mean square the error's
    /// variance per axis. A device that reports no accuracy (most GPX files, some watches) gets
    /// the bound and the smoothing its own error calls for, not `assumedAccuracy`'s 5 m: on the
    /// trail runs' fixes of σ 8 m, that took every wander past 10 m along the course for the
    /// runner setting off from a stand.
    ///
    /// Only fixes within 2σ of the course are learnt from, and their squares scaled up by what
    /// leaving out the rest takes off a normal error's (to 0.774 of it): a runner drifting off
    /// the course must not teach the tracker that its fixes stray that far, or the off-course
    /// bound drifts out with them and the runner is never found off it. An exponential mean
    /// over about `lateralSeconds`, never below 1 m².
    @inline(__always)
    mutating func learnLateral(_ squared: Double, seconds: Double) {
        guard squared <= 4 * lateralVariance else { return }
        let weight = min(seconds * Self.inverseLateralSeconds, 1)
        lateralVariance = max(lateralVariance + (squared * Self.truncationScale - lateralVariance) * weight, 1)
    }

    /// 1 / E[x² | |x| ≤ 2σ] for a normal x of variance σ² = 1.
    static let truncationScale = 1 / 0.7737

    /// How long the learnt error looks back: 10 minutes. GPS error wanders over up to two
    /// minutes, so over less the mean square is as much the wander's present offset as its
    /// spread: over 2 minutes, trail runs' fixes of σ 8 m wandering over 120 s were learnt as
    /// anything from 3 to 14 m.
    static let lateralSeconds = 600.0
    static let inverseLateralSeconds = 1 / lateralSeconds

    /// How far from the course a fix is off it (see `Configuration.offCourseDistance`).
    @inline(__always)
    func offCourseBound(sigma: Double) -> Double {
        max(configuration.offCourseDistance, configuration.offCourseAccuracies * sigma)
    }

    /// An accepted fix: on the course, it moves the place along it; off the course, it may
    /// bring the runner back.
    private mutating func follow(_ fix: GPSFix) -> Event? {
        let sigma = sigma(of: fix)
        guard let lastTime = lastUsedTime else {
            start(at: fix, sigma: sigma)
            return nil
        }
        if isOffCourse { return seekRejoin(fix, sigma: sigma) }
        let elapsed = max(fix.time - lastTime, 0)
        let still = odometer.isStill
        let expected = filter.predicted(by: elapsed, accelerationNoise: still ? 0 : configuration.accelerationNoise)
        let match = self.match(
            fix, expected: still ? filter.meters : expected.meters,
            variance: expected.metersVariance + sigma * sigma, sigma: sigma,
            reach: configuration.odometer.maximumSpeed * elapsed)
        let off = match.squared.squareRoot()
        lateral = off
        pieceHint = match.piece
        if off > configuration.strayingAccuracies * sigma {
            // Farther than its error puts a fix: the course distance waits, as this fix says
            // nothing of where along the course the runner is. It may be the first of a way
            // off the course: past the off-course distance `offCourseFixes` times in a row, or
            // straying for `offCourseSeconds`, and the runner has left it.
            if strayedFixes == 0 { straySince = fix.time }
            strayedFixes += 1
            if off > offCourseBound(sigma: sigma) { beyondFixes += 1 } else { beyondFixes = 0 }
            guard beyondFixes >= configuration.offCourseFixes
                || (strayedFixes >= configuration.offCourseFixes && fix.time - straySince >= configuration.offCourseSeconds)
            else { return nil }
            isOffCourse = true
            strayedFixes = 0
            beyondFixes = 0
            nearFixes = 0
            leftAt = filter.meters
            leftTime = lastTime
            return .leftCourse(meters: filter.meters)
        }
        strayedFixes = 0
        beyondFixes = 0
        lastUsedTime = fix.time
        learnLateral(match.squared, seconds: elapsed)
        if still || (isHolding && !hasSetOff(fix, ahead: match.meters - filter.meters, sigma: sigma)) {
            // Standing: the place stays, until the runner has set off (see `hasSetOff`).
            isHolding = true
            filter.hold(speedNoise: Self.setOffSpeedNoise)
        } else if isHolding {
            // Set off: from the fix's place, at the odometer's speed, not at whatever speed
            // would have made up the way since the stand in one step.
            isHolding = false
            filter.restart(at: match.meters, speed: odometer.speed, metersNoise: sigma, speedNoise: 1)
        } else {
            filter = expected
            filter.correct(meters: match.meters, variance: sigma * sigma)
            if let doppler = fix.dopplerSpeed {
                let noise = configuration.odometer.dopplerNoise
                filter.correct(speed: doppler, variance: noise * noise)
            }
        }
        advance(to: filter.meters)
        return nil
    }

    /// Whether a runner held at a stand, whom the odometer no longer finds still, has set off:
    /// by the device's Doppler speed when it has one (above `movingSpeed`); else by a fix
    /// `ahead` of the stand's place along the course by more than 3σ of its error, with the
    /// odometer's speed from positions past `setOffSpeed`, or by three times that distance at
    /// any speed.
    ///
    /// The odometer ends a stand when the fixes leave its still circle, which a wander across
    /// the course leaves as readily as one along it; the wander along it then counted, up to
    /// 25 m on the trail runs' fixes of σ 8 m wandering over 10 s. Nearer than 3σ the runner
    /// may still be standing: setting off from positions alone shows only that late, 15 m
    /// past the stand for fixes of σ 5 m. A wander can also carry a fix 3σ along the course
    /// for a while, but not at a runner's speed: the odometer reads it as a walk at most. A
    /// walker slower than `setOffSpeed` is taken up at three times the distance, farther than
    /// any of the course runs' stands carried a fix (twice it was reached, once), so that
    /// nobody is held at a stand for good.
    @inline(__always)
    func hasSetOff(_ fix: GPSFix, ahead: Double, sigma: Double) -> Bool {
        if let doppler = fix.dopplerSpeed { return doppler > configuration.odometer.movingSpeed }
        let bound = max(10, 3 * sigma)
        return ahead > bound && (odometer.speed > Self.setOffSpeed || ahead > 3 * bound)
    }

    /// Faster than a walk (m/s), which a wander of the fixes along the course is read as at
    /// most: up to about 1.3 m/s on the course runs' fixes of σ 7 to 8 m.
    static let setOffSpeed = 1.5

    /// The first fix: the runner is put at the start of the course, or off it until they
    /// reach it.
    private mutating func start(at fix: GPSFix, sigma: Double) {
        lastUsedTime = fix.time
        let match = self.match(fix, expected: 0, variance: 4 * sigma * sigma, sigma: sigma, reach: configuration.searchBehind)
        let off = match.squared.squareRoot()
        lateral = off
        if off > offCourseBound(sigma: sigma) {
            isOffCourse = true
            leftAt = 0
            leftTime = fix.time
            let start = course.points[0]
            startedAway = Geodesic.localDistance(
                fromLatitude: fix.latitude, longitude: fix.longitude, toLatitude: start.latitude, longitude: start.longitude)
            filter.restart(at: 0, speed: 0, metersNoise: sigma, speedNoise: Self.setOffSpeedNoise)
            return
        }
        filter.restart(at: match.meters, speed: 0, metersNoise: sigma, speedNoise: Self.setOffSpeedNoise)
        advance(to: match.meters)
    }

    /// Off the course: the runner is back once `rejoinFixes` fixes in a row lie near the
    /// course ahead of where they left, at places that agree with each other.
    private mutating func seekRejoin(_ fix: GPSFix, sigma: Double) -> Event? {
        let left = leftAt ?? filter.meters
        let near = configuration.strayingAccuracies * sigma
        let reach = configuration.odometer.maximumSpeed * max(fix.time - leftTime, 0)
        guard let found = firstMatch(fix, from: left - configuration.searchBehind, through: left + reach, within: near) else {
            nearFixes = 0
            lateral = nil
            return nil
        }
        lateral = found.squared.squareRoot()
        pieceHint = found.piece
        let agrees = nearFixes > 0
            && abs(found.meters - nearMeters) <= configuration.odometer.maximumSpeed * max(fix.time - (lastUsedTime ?? fix.time), 1) + 2 * near
        nearFixes = agrees ? nearFixes + 1 : 1
        if !agrees { nearSinceOdometer = odometer.meters }
        nearMeters = found.meters
        lastUsedTime = fix.time
        guard nearFixes >= configuration.rejoinFixes, mayJoin(at: found.meters) else { return nil }
        isOffCourse = false
        leftAt = nil
        nearFixes = 0
        startedAway = nil
        let speedNoise = fix.dopplerSpeed == nil ? Self.setOffSpeedNoise : configuration.odometer.dopplerNoise
        filter.restart(at: found.meters, speed: fix.dopplerSpeed ?? odometer.speed, metersNoise: sigma, speedNoise: speedNoise)
        advance(to: found.meters)
        return .rejoinedCourse(meters: found.meters, skipped: found.meters - left)
    }

    /// Whether a run that began away from the course may join it at `place`. Near enough its
    /// start it may: no farther along than the first fix lay from the start, plus the way run
    /// since (the odometer's) and `searchBehind`, as a runner who pressed Start in the start's
    /// pen, on a warm-up, or a little after the start line can be. Farther on, only once the
    /// fixes have lain near the course, at places that agree, while the runner ran
    /// `lateStartMeters`, as a runner who pressed Start late does. Where a loop's finish lies
    /// by its start, or a warm-up crosses the course further on, a fix near the course there
    /// would otherwise take the runner up at once, and every message before that place would
    /// play before the race.
    @inline(__always)
    func mayJoin(at place: Double) -> Bool {
        guard let away = startedAway else { return true }
        return place <= away + odometer.meters + configuration.searchBehind
            || odometer.meters - nearSinceOdometer >= Self.lateStartMeters
    }

    /// See `mayJoin`: about two minutes of running, and more than any stretch of the course a
    /// warm-up or a walk to the start follows by chance.
    public static let lateStartMeters = 300.0

    /// The distance goes on to `place` along the course, never back, never past its end.
    @inline(__always)
    private mutating func advance(to place: Double) {
        meters = max(meters, min(place, course.length))
    }
}
