import RunTracking

// The runner's page runs RunTracking's tracker and scheduler through these functions, compiled
// with the rest of RunTracking as Embedded Swift for wasm32 (`make wasm`). Only numbers cross:
// messages are named by the order in which the page added them, times are seconds on the
// page's clock, and every event returns the message to start now, or -1.
//
// The page holds one run at a time, so the state is one global, touched only from the page's
// single thread. A run with a course (Course.swift's exports) is followed by the CourseTracker,
// one without by the DistanceTracker: `RunTracker` holds either, and the scheduler and these
// exports treat both alike.

/// The run the page is tracking.
struct PageRun {
    var tracker: RunTracker
    var scheduler: PlaybackScheduler
    /// What the tracker made of the last fix.
    var outcome = DistanceTracker.Outcome.started
    /// The scheduler's last answer.
    var answer = PlaybackScheduler.Answer()
}

nonisolated(unsafe) var plannedMessages: [PlaybackScheduler.Message] = []
nonisolated(unsafe) var schedulerConfiguration = PlaybackScheduler.Configuration()
nonisolated(unsafe) var run: PageRun?

/// Starts planning a run: its planned distance in metres (0 or less when there is none), the
/// scheduler's lead and the silence kept between two messages, in seconds.
@_expose(wasm, "run_plan")
@_cdecl("run_plan")
func runPlan(plannedDistance: Double, leadSeconds: Double, minimumGapSeconds: Double) {
    plannedMessages = []
    plannedCourse = nil
    run = nil
    schedulerConfiguration = PlaybackScheduler.Configuration(
        leadSeconds: leadSeconds, minimumGapSeconds: minimumGapSeconds,
        plannedDistance: plannedDistance > 0 ? plannedDistance : nil)
}

/// Adds a message at `meters` from the start; returns its number, the one the events return.
@_expose(wasm, "run_add_message")
@_cdecl("run_add_message")
func runAddMessage(meters: Double) -> Int32 {
    let number = Int32(plannedMessages.count)
    plannedMessages.append(.init(id: String(number), marker: .absolute(meters: meters)))
    return number
}

/// Starts the run with the messages added since `run_plan`, and its course if one was given
/// (`run_course_end`): 0, or 1 when a marker cannot be resolved (the page checks markers
/// before, so this is a bug's signal, not a user's). With a course, the scheduler is set up
/// for it (`PlaybackScheduler.Configuration.along`).
@_expose(wasm, "run_start")
@_cdecl("run_start")
func runStart() -> Int32 {
    let configuration = plannedCourse.map { schedulerConfiguration.along($0) } ?? schedulerConfiguration
    do throws(RunTrackingError) {
        let scheduler = try PlaybackScheduler(messages: plannedMessages, configuration: configuration)
        let tracker = plannedCourse.map { RunTracker.course(CourseTracker(course: $0)) } ?? .positions(DistanceTracker())
        run = PageRun(tracker: tracker, scheduler: scheduler)
        return 0
    } catch {
        run = nil
        return 1
    }
}

/// One fix from `watchPosition`. `accuracy` and `speed` are NaN when the browser gave none.
/// The tracker's distance then goes to the scheduler.
@_expose(wasm, "run_fix")
@_cdecl("run_fix")
func runFix(time: Double, latitude: Double, longitude: Double, accuracy: Double, speed: Double) -> Int32 {
    guard run != nil else { return -1 }
    let fix = GPSFix(
        time: time, latitude: latitude, longitude: longitude,
        horizontalAccuracy: accuracy.isNaN ? nil : accuracy, speed: speed.isNaN ? nil : speed)
    // Through `run!` rather than a copy, so that the tracker is updated in place.
    let reading = run!.tracker.update(with: fix)
    run!.outcome = reading.outcome
    return handle(.distanceUpdate(time: reading.time, meters: reading.meters))
}

/// The page's one timer fired, at the time the last answer asked for (`run_wake_up`).
@_expose(wasm, "run_tick")
@_cdecl("run_tick")
func runTick(time: Double) -> Int32 { handle(.tick(time: time)) }

/// Message `number` finished playing.
@_expose(wasm, "run_playback_finished")
@_cdecl("run_playback_finished")
func runPlaybackFinished(number: Int32, time: Double) -> Int32 {
    handle(.playbackFinished(id: String(number), time: time))
}

/// The runner paused: the distance stops, and nothing new starts until `run_resume`.
@_expose(wasm, "run_pause")
@_cdecl("run_pause")
func runPause(time: Double) -> Int32 {
    run?.tracker.pause()
    return handle(.pause(time: time))
}

/// The runner carried on: the distance counts on from the next fix, not across the pause.
@_expose(wasm, "run_resume")
@_cdecl("run_resume")
func runResume(time: Double) -> Int32 {
    run?.tracker.resume()
    return handle(.resume(time: time))
}

/// The runner pressed Finish: every message left plays, in marker order, one per answer.
@_expose(wasm, "run_finish")
@_cdecl("run_finish")
func runFinish(time: Double) -> Int32 { handle(.runFinished(time: time)) }

/// Metres so far; never decreases.
@_expose(wasm, "run_meters")
@_cdecl("run_meters")
func runMeters() -> Double { run?.tracker.meters ?? 0 }

/// Speed in metres per second, 0 while standing still or paused.
@_expose(wasm, "run_speed")
@_cdecl("run_speed")
func runSpeed() -> Double { run?.tracker.speed ?? 0 }

/// What the tracker made of the last fix: `DistanceTracker.Outcome`'s cases in order.
@_expose(wasm, "run_outcome")
@_cdecl("run_outcome")
func runOutcome() -> Int32 {
    switch run?.outcome ?? .started {
    case .started: 0
    case .accepted: 1
    case .bridgedGap: 2
    case .restarted: 3
    case .outOfOrder: 4
    case .repeated: 5
    case .invalidCoordinates: 6
    case .inaccurate: 7
    case .outlier: 8
    case .paused: 9
    }
}

/// When to call `run_tick` if nothing else happens first, or NaN for no timer.
@_expose(wasm, "run_wake_up")
@_cdecl("run_wake_up")
func runWakeUp() -> Double { run?.answer.nextWakeUp ?? .nan }

/// Why the message the last event returned starts: 0 its marker was reached, 1 it was due and
/// waited (catching up), 2 the run ended before its marker.
@_expose(wasm, "run_play_reason")
@_cdecl("run_play_reason")
func runPlayReason() -> Int32 {
    guard case .play(_, let reason) = run?.answer.action else { return -1 }
    switch reason {
    case .markerReached: return 0
    case .catchingUp: return 1
    case .runEnded: return 2
    }
}

/// The message playing now, or -1.
@_expose(wasm, "run_playing")
@_cdecl("run_playing")
func runPlaying() -> Int32 { run?.scheduler.progress.playing.flatMap { Int32($0) } ?? -1 }

/// How many messages have started so far.
@_expose(wasm, "run_started_count")
@_cdecl("run_started_count")
func runStartedCount() -> Int32 { Int32(run?.scheduler.progress.nextIndex ?? 0) }

/// 1 once every message has played to its end.
@_expose(wasm, "run_is_complete")
@_cdecl("run_is_complete")
func runIsComplete() -> Int32 { run?.scheduler.isComplete == true ? 1 : 0 }

/// The distance the scheduler judges markers by at `time`: the last distance carried on at
/// the current pace between fixes.
@_expose(wasm, "run_reckoned_meters")
@_cdecl("run_reckoned_meters")
func runReckonedMeters(time: Double) -> Double { run?.scheduler.reckonedMeters(at: time) ?? 0 }

/// Hands the event to the scheduler and keeps its answer.
private func handle(_ event: PlaybackScheduler.Event) -> Int32 {
    guard run != nil else { return -1 }
    run!.answer = run!.scheduler.handle(event)
    guard case .play(let id, _) = run!.answer.action else { return -1 }
    return Int32(id) ?? -1
}
