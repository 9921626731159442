// The run's state on the runner's page, shared by the run's parts (run.js and run-*.js): one
// object, so that an event replayed after a reload and an event as it happens change the same
// thing.

export const TRACKER_URL = "/static/run-tracking.wasm";

export const state = {
  runID: null,
  token: null,
  /** The run's title, planned distance and runner, from the server or from the session. */
  run: null,
  session: null,
  tracker: null,
  /** Messages that have started, by number (their place in `session.messages`). */
  started: new Set(),
  playing: -1,
  /** A message the scheduler started while the browser would not play sound yet. */
  waitingForTap: -1,
  audioUnlocked: false,
  unlockFailed: false,
  watchID: null,
  timer: null,
  wakeLock: null,
  /** Seconds spent paused before the current pause, and when the current one began. */
  pausedSeconds: 0,
  pausedAt: null,
  /** The message whose bubble the strip last brought into view; -1 to bring it again. */
  bubbleInView: -1,
  lastEventTime: 0,
  reportTimer: null,
  flushing: false,
  flushAgain: false,
  clock: null,
  onScreenChange: () => {},
};

/** Seconds on the clock every event is stamped with. */
export const now = () => Date.now() / 1000;

export const isRunning = () => state.session && state.session.phase === "active";
