import Foundation
import RunTracking
import Testing

/// The course tracker on courses whose every metre is known: at every fix, its distance is
/// within a bound of where along the course the runner truly is. The bound is 4σ of the fixes'
/// error (its wander along the course reaches 3σ in a few hundred fixes): a tracker that took
/// the way home for the way out, or one lap for the next, would be hundreds of metres off.
struct CourseTrackerTests {
    let world = CourseWorld()

    /// 4σ of fixes of error σ; 5 m more with a fix every 5 s, which the runner runs in 15 m.
    static func bound(sigma: Double, interval: Double = 1) -> Double { 4 * sigma + (interval > 1 ? 5 : 0) }

    /// Every fix's reading against the truth: the worst miss after the first `settle` fixes
    /// (the start, where the odometer holds the runner until they leave its still circle).
    func worstMiss(_ course: Course, _ run: CourseWorld.Run, settle: Int = 15) -> (worst: Double, tracker: CourseTracker) {
        var tracker = CourseTracker(course: course)
        var worst = 0.0
        for (index, fix) in run.fixes.enumerated() {
            let reading = tracker.update(with: fix)
            if index >= settle, abs(reading.meters - run.truth[index]) > abs(worst) { worst = reading.meters - run.truth[index] }
        }
        return (worst, tracker)
    }

    @Test(arguments: [1.0, 5.0])
    func theWayHomeOfAnOutAndBackIsNotTakenForTheWayOut(interval: Double) throws {
        // 1 km out east and home 4 m to the north of the way out: every fix is as near the one
        // as the other.
        let points: [(Double, Double)] = [(0, 0), (1000, 0), (1000, 4), (0, 4)]
        let course = try world.course(points)
        for seed in UInt64(1)...4 {
            let path = CourseWorld.Path(points)
            let run = world.run(along: path, interval: interval, sigma: 4, seed: seed) { path.courseMeters($0, on: course) }
            let (worst, tracker) = worstMiss(course, run)
            // At the turn the runner's heading takes a few fixes to turn with them, and the way
            // home is a few metres behind for those.
            #expect(abs(worst) <= Self.bound(sigma: 4, interval: interval) + 5, "seed \(seed): \(worst) m")
            #expect(tracker.meters > 1980 && !tracker.isOffCourse, "seed \(seed): \(tracker.meters) m")
        }
    }

    @Test func aCourseThatCrossesItselfIsFollowedThroughTheCrossing() throws {
        // A figure of eight whose two roads cross at (300, 0), 1.4 km apart along the course.
        let points: [(Double, Double)] = [(0, 0), (600, 0), (600, 300), (300, 300), (300, -300), (0, -300), (0, 0)]
        let course = try world.course(points)
        for seed in UInt64(1)...4 {
            let path = CourseWorld.Path(points)
            let run = world.run(along: path, sigma: 4, seed: seed) { path.courseMeters($0, on: course) }
            let (worst, tracker) = worstMiss(course, run)
            #expect(abs(worst) <= Self.bound(sigma: 4), "seed \(seed): \(worst) m")
            #expect(abs(tracker.meters - course.length) <= Self.bound(sigma: 4))
        }
    }

    @Test(arguments: [1.0, 5.0])
    func twelveLapsOfATrackAreFollowedLapByLap(interval: Double) throws {
        let points = CourseWorld.trackLaps(12)
        let course = try world.course(points)
        #expect(abs(course.length - 12 * 400) < 12 * 1)
        for seed in UInt64(1)...3 {
            let path = CourseWorld.Path(points)
            let run = world.run(along: path, speed: 4, interval: interval, sigma: 4, seed: seed) { path.courseMeters($0, on: course) }
            let (worst, tracker) = worstMiss(course, run)
            #expect(abs(worst) <= Self.bound(sigma: 4, interval: interval), "seed \(seed): \(worst) m")
            #expect(abs(tracker.meters - course.length) <= Self.bound(sigma: 4, interval: interval), "seed \(seed): \(tracker.meters) m of \(course.length)")
        }
    }

    @Test(arguments: [1.0, 5.0])
    func aWrongTurnHoldsTheDistanceAndSaysSo(interval: Double) throws {
        // 2 km east; at 1000 m the runner turns north for 150 m, and comes back.
        let course = try world.course([(0, 0), (2000, 0)])
        let way = CourseWorld.Path([(0, 0), (1000, 0), (1000, 150), (1000, 0), (2000, 0)])
        let run = world.run(along: way, interval: interval, sigma: 4, seed: 7) { along in
            along <= 1000 ? along : along < 1300 ? 1000 : along - 300
        }
        var tracker = CourseTracker(course: course)
        var events: [CourseTracker.Event] = []
        var wasOff = false
        for (index, fix) in run.fixes.enumerated() {
            let reading = tracker.update(with: fix)
            if let event = reading.event { events.append(event) }
            wasOff = wasOff || reading.isOffCourse
            // Nothing moves along the course while the runner is on the spur.
            if run.truth[index] == 1000 { #expect(reading.meters <= 1000 + 15, "fix \(index): \(reading.meters) m") }
            if index >= 15 { #expect(abs(reading.meters - run.truth[index]) <= Self.bound(sigma: 4, interval: interval), "fix \(index)") }
        }
        #expect(wasOff)
        guard events.count == 2, case .leftCourse(let left) = events[0], case .rejoinedCourse(let back, let skipped) = events[1] else {
            Issue.record("expected the runner to leave the course and come back once: \(events)")
            return
        }
        #expect(abs(left - 1000) <= 15 && abs(back - 1000) <= 20 && skipped < CourseTracker.shortCutMeters, "\(events)")
    }

    @Test(arguments: [1.0, 5.0])
    func aShortCutJumpsAheadAndTheSkippedMarkersPlayAtOnceInOrder(interval: Double) throws {
        // The course goes round a block (500, 0)-(500, 200)-(700, 200)-(700, 0); the runner
        // runs straight across, 200 m where the course takes 600.
        let course = try world.course([(0, 0), (500, 0), (500, 200), (700, 200), (700, 0), (1500, 0)])
        let run = world.run(along: .init([(0, 0), (1500, 0)]), interval: interval, sigma: 4, seed: 3) { along in
            along <= 500 ? along : along < 700 ? 500 : along + 400
        }
        let markers = [300.0, 600, 800, 1000, 1300, 1700]
        var scheduler = try PlaybackReplay(
            scheduler: PlaybackScheduler(
                messages: markers.enumerated().map { .init(id: String($0.offset), marker: .absolute(meters: $0.element)) },
                configuration: .init(plannedDistance: course.length)),
            durations: [:])
        var tracker = CourseTracker(course: course)
        var starts: [(id: String, truth: Double, east: Double, reason: PlaybackScheduler.PlayReason)] = []
        var rejoined: (meters: Double, skipped: Double)?
        for (index, fix) in run.fixes.enumerated() {
            let reading = tracker.update(with: fix)
            if case .rejoinedCourse(let meters, let skipped) = reading.event { rejoined = (meters, skipped) }
            for start in scheduler.handle(.distanceUpdate(time: reading.time, meters: reading.meters)) {
                starts.append((start.id, run.truth[index], Double(index) * interval * 3, start.reason))
            }
        }
        let back = try #require(rejoined, "the runner never came back to the course")
        // The course from (500, 0) round the block to (700, 0): 600 m, where the runner ran 200.
        #expect(back.skipped >= 550 && back.skipped <= 650, "skipped \(back.skipped) m")
        // The three markers round the block: none before the runner is back near the course
        // (within 3.5σ of it, 14 m), then all at once, in marker order, one after the other.
        let skipped = starts.filter { ["1", "2", "3"].contains($0.id) }
        #expect(skipped.map(\.id) == ["1", "2", "3"])
        #expect(skipped.first.map { $0.east >= 700 - 15 && $0.east <= 700 + 45 } == true, "\(skipped.map(\.east))")
        // One after another: the next at the first fix after the scheduler's gap of silence.
        let gap = PlaybackScheduler.Configuration().minimumGapSeconds
        #expect(
            zip(skipped, skipped.dropFirst()).allSatisfy { $1.east - $0.east <= (gap + interval) * 3 },
            "\(skipped.map(\.east))")
        #expect(skipped.dropFirst().allSatisfy { $0.reason == .catchingUp })
        #expect(starts.map(\.id) == ["0", "1", "2", "3", "4", "5"])
        let on = starts.filter { ["0", "4", "5"].contains($0.id) }
        for (start, marker) in zip(on, [300.0, 1300, 1700]) {
            #expect(abs(start.truth - marker) <= Self.bound(sigma: 4, interval: interval), "marker \(marker): started at \(start.truth)")
        }
    }

    @Test(arguments: [false, true])
    func standingStillAddsNothing(phone: Bool) throws {
        // 600 m, then 5 minutes standing at 300 m while the fixes wander (σ 5 m, τ 30 s).
        let points: [(Double, Double)] = [(0, 0), (300, 0), (300, 300)]
        let course = try world.course(points)
        let path = CourseWorld.Path(points)
        for seed in UInt64(1)...5 {
            let run = world.run(along: path, sigma: 5, seed: seed, phone: phone, standing: [(300, 300)]) { path.courseMeters($0, on: course) }
            var tracker = CourseTracker(course: course)
            var found: Double?, most = 0.0
            for (index, fix) in run.fixes.enumerated() {
                let reading = tracker.update(with: fix)
                // From 45 s into the stand (the odometer finds a stand from positions alone
                // within 15 to 30 s) to its end, nothing is added; and never more than the
                // fixes' error past the place where the runner stands.
                guard (100 + 45...100 + 300).contains(fix.time) else { continue }
                found = found ?? reading.meters
                most = max(most, reading.meters - found!)
                #expect(reading.meters - run.truth[index] <= Self.bound(sigma: 5), "seed \(seed), fix \(index)")
            }
            #expect(most <= 0.001, "seed \(seed): the stand added \(most) m")
            #expect(abs(tracker.meters - course.length) <= Self.bound(sigma: 5))
        }
    }

    /// From positions alone, setting off from a stand is read at a runner's speed; a walker
    /// going uphill at 0.8 m/s is taken up too, once well past the stand, and never held there.
    @Test func aWalkerSettingOffFromAStandIsTakenUp() throws {
        let points: [(Double, Double)] = [(0, 0), (300, 0), (300, 300)]
        let course = try world.course(points)
        let path = CourseWorld.Path(points)
        for seed in UInt64(1)...5 {
            let run = world.run(along: path, speed: 0.8, sigma: 5, seed: seed, standing: [(200, 180)]) { path.courseMeters($0, on: course) }
            var tracker = CourseTracker(course: course)
            let standEnd = 200 / 0.8 + 180
            for (index, fix) in run.fixes.enumerated() {
                let reading = tracker.update(with: fix)
                guard fix.time >= standEnd + 60 else { continue }
                #expect(reading.meters >= run.truth[index] - 3 * Self.bound(sigma: 5), "seed \(seed), \(fix.time - standEnd) s after the stand")
            }
            #expect(tracker.meters >= course.length - 3 * Self.bound(sigma: 5), "seed \(seed)")
        }
    }

    @Test func aSpikeMovesNothing() throws {
        let course = try world.course([(0, 0), (1000, 0)])
        var run = world.run(along: .init([(0, 0), (1000, 0)]), sigma: 2, seed: 5)
        // 200 m ahead along the course, for one fix.
        let spike = world.place(east: 100 * 3 + 200, north: 0)
        run.fixes[100].latitude = spike.latitude
        run.fixes[100].longitude = spike.longitude
        var tracker = CourseTracker(course: course)
        for (index, fix) in run.fixes.enumerated() {
            let reading = tracker.update(with: fix)
            if index == 100 { #expect(reading.outcome == .outlier) }
            if index >= 15 { #expect(abs(reading.meters - run.truth[index]) <= Self.bound(sigma: 2), "fix \(index)") }
        }
    }

    @Test func sparseFixesWithDopplerSpeedsFollowAWindingCourse() throws {
        // Switchbacks: legs of 60 m joined by 8 m turns; a fix every 15 s, with Doppler speed.
        var points: [(Double, Double)] = []
        for leg in 0..<20 { points += leg % 2 == 0 ? [(0, Double(leg) * 8), (60, Double(leg) * 8)] : [(60, Double(leg) * 8), (0, Double(leg) * 8)] }
        let course = try world.course(points)
        let path = CourseWorld.Path(points)
        let run = world.run(along: path, speed: 2.5, interval: 15, sigma: 4, seed: 2, phone: true) { path.courseMeters($0, on: course) }
        let (worst, tracker) = worstMiss(course, run, settle: 2)
        #expect(abs(worst) <= Self.bound(sigma: 4, interval: 15), "\(worst) m")
        #expect(abs(tracker.meters - course.length) <= Self.bound(sigma: 4, interval: 15))
    }

    @Test func aRunnerWhoStartsAwayFromTheCourseIsTakenUpWhenTheyReachIt() throws {
        // The warm-up: 200 m south of the start, running to it, then along the course.
        let course = try world.course([(0, 0), (1000, 0)])
        let run = world.run(along: .init([(0, -200), (0, 0), (1000, 0)]), sigma: 3, seed: 4) { max(0, $0 - 200) }
        var tracker = CourseTracker(course: course)
        let first = tracker.update(with: run.fixes[0])
        #expect(first.isOffCourse && first.meters == 0)
        var joined = false
        for (index, fix) in run.fixes.enumerated().dropFirst() {
            let reading = tracker.update(with: fix)
            if case .rejoinedCourse = reading.event { joined = true }
            if run.truth[index] > 30 { #expect(abs(reading.meters - run.truth[index]) <= Self.bound(sigma: 3) && !reading.isOffCourse, "fix \(index)") }
        }
        #expect(joined)
    }

    @Test func aRunnerWaitingByALoopsFinishIsTakenUpAtTheStartNotTheFinish() throws {
        // A 2 km loop whose last leg comes back north to 30 m short of the start. The runner
        // presses Start 80 m south of the start, 10 m beside that last leg, waits there five
        // minutes, walks to the start and runs the first 500 m. Taken up where the fixes first
        // lie near the course ahead, every message before the finish would play in the wait.
        let course = try world.course([(0, 0), (500, 0), (500, -500), (0, -500), (0, -30)])
        let waiting = world.run(along: .init([(-10, -80), (-10, -79)]), speed: 1 / 300, interval: 1, sigma: 3, seed: 5)
        var tracker = CourseTracker(course: course)
        for fix in waiting.fixes {
            let reading = tracker.update(with: fix)
            #expect(reading.isOffCourse && reading.meters == 0, "t \(fix.time): \(reading.meters) m")
        }
        // Before the start, not off a course it has left: the first fix's distance from the start.
        #expect(abs((tracker.startedAway ?? 0) - 80.6) <= 10, "\(String(describing: tracker.startedAway))")
        let end = waiting.fixes.last!.time
        let onward = world.run(along: .init([(-10, -79), (0, 0), (500, 0)]), speed: 3, sigma: 3, seed: 6) { max(0, $0 - 80) }
        var joinedAt: Double?
        for (index, fix) in onward.fixes.enumerated() {
            var later = fix
            later.time += end + 1
            let reading = tracker.update(with: later)
            if case .rejoinedCourse(let meters, _) = reading.event { joinedAt = meters }
            if onward.truth[index] > 40 { #expect(abs(reading.meters - onward.truth[index]) <= Self.bound(sigma: 3), "fix \(index): \(reading.meters) m") }
            #expect((tracker.startedAway == nil) == (joinedAt != nil), "fix \(index)")
        }
        #expect((joinedAt ?? 999) < 40, "joined at \(String(describing: joinedAt))")
    }

    @Test func aRunnerWhoPressesStartLateIsTakenUpWhereTheyAreOnceTheyFollowTheCourse() throws {
        // Start pressed at the 3 km point of a 5 km out-and-back (out 2500 m east, home 100 m
        // to the north), 2 km from the start as the crow flies, running on along it.
        let course = try world.course([(0, 0), (2500, 0), (2500, 100), (100, 100)])
        let run = world.run(along: .init([(2100, 100), (100, 100)]), sigma: 3, seed: 7) { 3000 + $0 }
        // Off the course, it is sought only as far ahead as the fastest runner could have gone
        // since: the runner's place is within reach from this fix on.
        let maximumSpeed = CourseTracker.Configuration().odometer.maximumSpeed
        let reached = try #require(run.fixes.indices.first { maximumSpeed * run.fixes[$0].time >= run.truth[$0] })
        var tracker = CourseTracker(course: course)
        var joinedAt: Double?
        for (index, fix) in run.fixes.enumerated() {
            let reading = tracker.update(with: fix)
            if case .rejoinedCourse(let meters, let skipped) = reading.event {
                joinedAt = meters
                // The markers before it play at once, as after a short cut.
                #expect(abs(skipped - meters) < 1e-9)
            }
            // Taken up where it is, and on the course from then on. The place is near where it
            // is, not hundreds of metres off; within 20 m here, where the fixes' wander runs
            // 12 to 13 m along the course for a while after the join.
            if let joined = joinedAt {
                #expect(!reading.isOffCourse, "fix \(index)")
                if run.truth[index] > joined + 45 {
                    #expect(abs(reading.meters - run.truth[index]) <= 20, "fix \(index): \(reading.meters - run.truth[index])")
                }
            }
        }
        // Not taken up before it has run lateStartMeters near the course (2 km from the start
        // as the crow flies, it cannot be nearer the start than it is), nor long after that
        // from when the course within reach holds it.
        let joined = try #require(joinedAt)
        #expect(joined >= 3000 + CourseTracker.lateStartMeters - 20, "\(joined) m")
        #expect(joined <= run.truth[reached] + CourseTracker.lateStartMeters + 60, "\(joined) m")
    }

    @Test func aPauseIgnoresFixesAndTheRunIsTakenUpWhereItIs() throws {
        let course = try world.course([(0, 0), (2000, 0)])
        let run = world.run(along: .init([(0, 0), (2000, 0)]), sigma: 3, seed: 9)
        var tracker = CourseTracker(course: course)
        for (index, fix) in run.fixes.enumerated() {
            if index == 200 { tracker.pause() }
            if index == 260 { tracker.resume() }
            let reading = tracker.update(with: fix)
            if (200..<260).contains(index) { #expect(reading.outcome == .paused && reading.meters <= 600 + Self.bound(sigma: 3)) }
            // Found where it is along the course once its speed is learnt again, 15 s on.
            if index >= 275 { #expect(abs(reading.meters - run.truth[index]) <= Self.bound(sigma: 3), "fix \(index): \(reading.meters) m") }
        }
    }

    @Test func aDenseLongCourseIsFollowedAsWellAsASparseOne() throws {
        // 42 km drawn every 0.42 m (100,000 places), winding gently.
        var points: [(Double, Double)] = [(0, 0)]
        var heading = 0.0
        for step in 1..<100_000 {
            heading += 0.002 * sin(Double(step) / 2000)
            points.append((points[step - 1].0 + 0.42 * cos(heading), points[step - 1].1 + 0.42 * sin(heading)))
        }
        let course = try world.course(points)
        #expect(course.points.count == 100_000)
        let path = CourseWorld.Path(points)
        let run = world.run(along: path, speed: 3.5, interval: 1, sigma: 4, seed: 11) { path.courseMeters($0, on: course) }
        let (worst, tracker) = worstMiss(course, run)
        #expect(abs(worst) <= Self.bound(sigma: 4), "\(worst) m")
        #expect(abs(tracker.meters - course.length) <= Self.bound(sigma: 4))
    }
}
