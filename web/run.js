// The run itself, on the runner's page: Get ready (every message fetched, checked to play in
// this browser and kept on the phone), Start, and the run screen (the design system's
// ActiveRunView: Stat Cards, the Progress Indicator, Message Preview Bubbles, Pause and Finish).
//
// Every fix goes to RunTracking's tracker and scheduler, compiled to WebAssembly
// (web/tracking.js); the page does what the scheduler answers: it starts the message, keeps one
// timer for the next wake-up, and says when the message ended. Each event is logged on the
// device before it is applied, so a reload rebuilds the run exactly by replaying the log.
//
// What a browser cannot do is said plainly on the page: it gets no position while the screen
// is locked or the page is hidden, and after a reload it needs a tap before it plays sound.
//
// Its parts: run-ready.js (Get ready), run-events.js (the event log), run-playing.js (the
// player and the screen lock), run-reports.js (played reports) and run-screen.js (the run
// screen), sharing run-state.js. This file starts, resumes, pauses and finishes the run.

import { $, show, announce } from "./common.js";
import { loadTracker } from "./tracking.js";
import { loadSession, saveSession, loggedEvents, clearEvents } from "./run-store.js";
import { state, TRACKER_URL, now, isRunning } from "./run-state.js";
import { showRunCard, startBlocker, getReady } from "./run-ready.js";
import { eventTime, noteEvent, record, watchPosition, scheduleWake } from "./run-events.js";
import { unlockAudio, takeWakeLock, play, playbackEnded } from "./run-playing.js";
import { flushReports } from "./run-reports.js";
import { render, enterRunScreen, setBadge } from "./run-screen.js";

// ---------------------------------------------------------------------------------------
// Entry

/**
 * Sets the run up on the runner's page. `run` is the run's info from the server, or null when
 * it could not be reached (the session kept on the device then stands in for it).
 * `onScreenChange(running)` lets the page hide what the run screen replaces.
 */
export async function setUpRun({ runID, token, run, onScreenChange }) {
  state.runID = runID;
  state.token = token;
  state.session = loadSession(runID);
  state.run = run || (state.session && state.session.run) || null;
  state.onScreenChange = onScreenChange;
  $("ready-button").addEventListener("click", getReady);
  $("start-button").addEventListener("click", startRun);
  $("pause-button").addEventListener("click", togglePause);
  $("finish-button").addEventListener("click", () => {
    show($("finish-confirm"));
    $("finish-yes").focus();
  });
  $("finish-no").addEventListener("click", () => {
    show($("finish-confirm"), false);
    $("finish-button").focus();
  });
  $("finish-yes").addEventListener("click", finishRun);
  $("continue-button").addEventListener("click", carryOn);
  $("done-button").addEventListener("click", leaveRunScreen);
  $("location-retry").addEventListener("click", watchPosition);
  $("player").addEventListener("ended", () => playbackEnded("ended"));
  $("player").addEventListener("error", () => playbackEnded("error"));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && isRunning()) takeWakeLock();
  });
  window.addEventListener("online", flushReports);
  // A turned phone or a resized window changes what the bubble strip shows: bring its bubble
  // into view again at the next render.
  window.addEventListener("resize", () => { state.bubbleInView = -1; });
  flushReports();

  const phase = state.session && state.session.phase;
  if (phase === "active") {
    await resumeAfterReload();
  } else if (phase === "finished") {
    await showFinished();
  } else {
    showRunCard();
  }
}

// ---------------------------------------------------------------------------------------
// Start, and carrying on after a reload

async function startRun() {
  // In the tap: the player is unlocked first, before anything awaits.
  const unlocked = unlockAudio();
  const session = state.session;
  if (startBlocker()) return;
  state.tracker = state.tracker || await loadTracker(TRACKER_URL);
  await clearEvents(state.runID);
  session.phase = "active";
  session.startedAt = now();
  saveSession(state.runID, session);
  state.tracker.start(trackerPlan(session));
  state.started = new Set();
  state.lastEventTime = session.startedAt;
  await unlocked;
  enterRunScreen();
  takeWakeLock();
  watchPosition();
  announce("The run has started. Messages play at their markers.");
}

function trackerPlan(session) {
  return {
    markers: session.messages.map((m) => m.markerMeters), plannedDistance: session.run.plannedDistanceMeters || null,
    course: session.course ? session.course.points : null,
  };
}

/** Rebuilds the run from its log: the same tracker, the same events, the same state. */
async function resumeAfterReload() {
  const session = state.session;
  state.tracker = await loadTracker(TRACKER_URL);
  state.tracker.start(trackerPlan(session));
  state.lastEventTime = session.startedAt;
  for (const event of await loggedEvents(state.runID)) {
    const number = state.tracker.apply(event);
    noteEvent(event);
    if (number >= 0) state.started.add(number);
  }
  enterRunScreen();
  // The message that was playing when the page went away was cut off: it counts as heard, so
  // nothing plays twice, and the run carries on from it.
  if (state.tracker.playing >= 0) {
    const number = state.tracker.playing;
    const time = eventTime(now());
    await record(["ended", number, time]);
  }
  if (state.tracker.isComplete && session.finishedAt) {
    await showFinished();
    return;
  }
  takeWakeLock();
  if (state.pausedAt === null && !session.finishedAt) watchPosition();
  // The browser needs a new tap before it plays sound; the distance counts on meanwhile.
  show($("continue"));
  $("continue-button").focus();
  scheduleWake();
}

/** The tap after a reload: sound is allowed again, and a message that waited for it plays. */
async function carryOn() {
  await unlockAudio();
  if (state.unlockFailed) {
    $("continue-text").textContent = "The browser still would not play sound. Tap again.";
    return;
  }
  show($("continue"), false);
  takeWakeLock();
  if (state.waitingForTap >= 0) {
    const number = state.waitingForTap;
    state.waitingForTap = -1;
    play(number);
  }
  $("pause-button").focus();
}

// ---------------------------------------------------------------------------------------
// Pause, Finish

function togglePause() {
  const time = eventTime(now());
  if (state.pausedAt === null) {
    record(["pause", time]);
    announce("Paused. The distance stops until you resume.");
  } else {
    record(["resume", time]);
    announce("Resumed.");
  }
}

async function finishRun() {
  show($("finish-confirm"), false);
  if (state.watchID !== null) navigator.geolocation.clearWatch(state.watchID);
  state.watchID = null;
  state.session.finishedAt = now();
  saveSession(state.runID, state.session);
  await record(["finish", eventTime(now())]);
  if (state.tracker.isComplete) completeRun();
  else announce("Finishing: the messages left play now.");
}

export function completeRun() {
  state.session.phase = "finished";
  saveSession(state.runID, state.session);
  if (state.wakeLock) state.wakeLock.release().catch(() => {});
  showFinished();
}

async function showFinished() {
  if (!state.tracker) {
    state.tracker = await loadTracker(TRACKER_URL);
    state.tracker.start(trackerPlan(state.session));
    for (const event of await loggedEvents(state.runID)) {
      const number = state.tracker.apply(event);
      noteEvent(event);
      if (number >= 0) state.started.add(number);
    }
  }
  enterRunScreen();
  setBadge($("run-status-badge"), "completed");
  for (const id of ["run-controls", "gps-status", "screen-on-note", "now-playing", "location-problem"]) show($(id), false);
  $("run-screen").classList.add("is-finished");
  show($("finished"));
  render();
  $("finished").focus();
}

function leaveRunScreen() {
  show($("run-screen"), false);
  document.body.classList.remove("on-the-run");
  show($("run-card"));
  setBadge($("run-badge"), "completed");
  $("ready-summary").textContent = `Run finished: ${state.started.size} of ${state.session.messages.length} messages played.`;
  show($("ready-button"), false);
  show($("start-button"), false);
  $("start-help").textContent = "";
  state.onScreenChange(false);
}
