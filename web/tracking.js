// RunTracking's DistanceTracker and PlaybackScheduler, compiled from the same Swift sources the
// tests and `voicemsg simulate` measure (scripts/build-wasm.sh makes run-tracking.wasm). This
// module only carries numbers across: it holds no rule of its own, so there is one tracker, not
// two that drift apart. It runs in the page and, for the tests, in Node.

/** `DistanceTracker.Outcome`'s cases, in the order the module numbers them. */
export const OUTCOMES = [
  "started", "accepted", "bridgedGap", "restarted", "outOfOrder", "repeated", "invalidCoordinates",
  "inaccurate", "outlier", "paused",
];

/** `PlaybackScheduler.PlayReason`'s cases, in the order the module numbers them. */
export const REASONS = ["markerReached", "catchingUp", "runEnded"];

/** Why the module refuses a course, by the number `run_course_end` gives (`CourseError.Reason`). */
export const COURSE_REFUSALS = [
  null, "the course needs at least 2 distinct points", "the course is shorter than 100 m",
  "the course is longer than 1000 km", "the course has more than 200,000 points",
  "a point of the course is not a place on Earth",
];

/**
 * Instantiates the module from its URL (the page) or its bytes (Node). It imports nothing.
 * Returns a `RunTracker` over it.
 */
export async function loadTracker(source) {
  let instance;
  if (typeof source === "string") {
    const response = await fetch(source, { credentials: "omit" });
    if (!response.ok) throw new Error(`the tracker could not be loaded (the server answered ${response.status})`);
    ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {}));
  } else {
    ({ instance } = await WebAssembly.instantiate(source, {}));
  }
  return new RunTracker(instance.exports);
}

/**
 * One run through the tracker and the scheduler. Every event returns the number of the message
 * to start now (its place in `markers`), or -1; `wakeUp` is then when to send `tick` if nothing
 * else comes first. Times are seconds on one steady clock.
 */
export class RunTracker {
  constructor(exports) {
    this.exports = exports;
  }

  /**
   * Starts a run: `markers` are the messages' distances in metres, in the page's order;
   * `plannedDistance` (metres, or null) ends the run for scheduling when reached. `course`, the
   * race's course as `[[latitude, longitude], ...]` (or null), makes the distance the place
   * along it, and is the planned distance when none is given.
   */
  start({ markers, plannedDistance = null, leadSeconds = 0, minimumGapSeconds = 3, course = null }) {
    const e = this.exports;
    e.run_plan(plannedDistance || 0, leadSeconds, minimumGapSeconds);
    for (const meters of markers) e.run_add_message(meters);
    if (course) {
      e.run_course_begin();
      for (const [latitude, longitude] of course) e.run_course_point(latitude, longitude);
      const refused = e.run_course_end();
      if (refused !== 0) throw new Error(COURSE_REFUSALS[refused] ?? "the course was refused");
    }
    if (e.run_start() !== 0) throw new Error("a message's distance could not be placed on the run");
  }

  /** A position; `accuracy` (m) and `speed` (m/s) may be null. */
  fix(time, latitude, longitude, accuracy = null, speed = null) {
    return this.exports.run_fix(time, latitude, longitude, accuracy ?? NaN, speed ?? NaN);
  }

  tick(time) { return this.exports.run_tick(time); }
  playbackFinished(number, time) { return this.exports.run_playback_finished(number, time); }
  pause(time) { return this.exports.run_pause(time); }
  resume(time) { return this.exports.run_resume(time); }
  finish(time) { return this.exports.run_finish(time); }

  /**
   * Applies one event as the page logs it, so that a run rebuilt from its log after a reload
   * is the run that was: `["fix", t, lat, lon, accuracy, speed]`, `["tick", t]`,
   * `["ended", number, t]`, `["pause", t]`, `["resume", t]`, `["finish", t]`.
   */
  apply(event) {
    switch (event[0]) {
      case "fix": return this.fix(event[1], event[2], event[3], event[4], event[5]);
      case "tick": return this.tick(event[1]);
      case "ended": return this.playbackFinished(event[1], event[2]);
      case "pause": return this.pause(event[1]);
      case "resume": return this.resume(event[1]);
      case "finish": return this.finish(event[1]);
      default: throw new Error(`unknown run event ${JSON.stringify(event[0])}`);
    }
  }

  /** Metres so far; never decreases. */
  get meters() { return this.exports.run_meters(); }
  /** Metres per second; 0 while standing still or paused. */
  get speed() { return this.exports.run_speed(); }
  /** What the tracker made of the last fix, one of `OUTCOMES`. */
  get outcome() { return OUTCOMES[this.exports.run_outcome()] ?? "unknown"; }
  /** When to send `tick` if nothing else happens first, or null. */
  get wakeUp() {
    const time = this.exports.run_wake_up();
    return Number.isNaN(time) ? null : time;
  }
  /** Why the message the last event returned starts, one of `REASONS`, or null. */
  get reason() { return REASONS[this.exports.run_play_reason()] ?? null; }
  /** The message playing now, or -1. */
  get playing() { return this.exports.run_playing(); }
  /** How many messages have started. */
  get startedCount() { return this.exports.run_started_count(); }
  /** True once every message has played to its end. */
  get isComplete() { return this.exports.run_is_complete() === 1; }
  /** The distance the scheduler judges markers by at `time` (reckoned on between fixes). */
  reckonedMeters(time) { return this.exports.run_reckoned_meters(time); }

  /** The course's length in metres, or 0 without a course. */
  get courseLength() { return this.exports.run_course_length(); }
  /** True while the runner is off the course. */
  get offCourse() { return this.exports.run_off_course() === 1; }
  /** True while a run that began away from the course has not reached its start yet. */
  get beforeStart() { return this.exports.run_course_before_start() === 1; }
  /** Metres along the course where the runner is (never decreasing), or null without a course. */
  get courseMeters() { return orNull(this.exports.run_course_meters()); }
  /** Metres from the course at the last fix used, or null. */
  get lateral() { return orNull(this.exports.run_course_lateral()); }
  /** Off the course: metres along it where the runner was last on it; else null. */
  get leftCourseAt() { return orNull(this.exports.run_course_left_meters()); }
  /** `[latitude, longitude]` of the place `meters` along the course, or null without one. */
  coursePlace(meters) {
    const latitude = this.exports.run_course_latitude(meters);
    return Number.isNaN(latitude) ? null : [latitude, this.exports.run_course_longitude(meters)];
  }
}

function orNull(value) { return Number.isNaN(value) ? null : value; }
