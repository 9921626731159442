// The run's events, on the runner's page: every fix, timer, pause and end of playback is logged
// on the phone, then applied to the tracker, then acted on, so that a reload rebuilds the run by
// replaying the log through the same tracker.

import { $, show, announce } from "./common.js";
import { logEvent } from "./run-store.js";
import { state, now } from "./run-state.js";
import { startMessage } from "./run-playing.js";
import { render } from "./run-screen.js";

/** A time for the next event: never before the last one, so the log replays in order. */
export function eventTime(time) {
  state.lastEventTime = Math.max(state.lastEventTime, time);
  return state.lastEventTime;
}

/** Keeps what the page shows that the tracker does not know: the time spent paused, and the
 * latest time so far (a replayed log leaves it where the run was). */
export function noteEvent(event) {
  state.lastEventTime = Math.max(state.lastEventTime, event[0] === "ended" ? event[2] : event[1]);
  if (event[0] === "pause") state.pausedAt = event[1];
  if (event[0] === "resume" && state.pausedAt !== null) {
    state.pausedSeconds += event[1] - state.pausedAt;
    state.pausedAt = null;
  }
  if (event[0] === "finish") state.session.finishedAt = state.session.finishedAt || event[1];
}

export async function record(event) {
  // Logged before it is applied: a crash between the two replays it, rather than losing it.
  const logged = logEvent(state.runID, event).catch(() => {});
  const number = state.tracker.apply(event);
  noteEvent(event);
  const time = event[0] === "ended" ? event[2] : event[1];
  if (event[0] === "ended" && state.playing === event[1]) state.playing = -1;
  if (number >= 0) startMessage(number, time);
  scheduleWake();
  render();
  await logged;
}

function onPosition(position) {
  const c = position.coords;
  const time = eventTime(position.timestamp / 1000);
  showLocationProblem(null);
  $("gps-status").textContent = Number.isFinite(c.accuracy) ? `GPS ±${Math.round(c.accuracy)} m` : "GPS";
  record(["fix", time, c.latitude, c.longitude, Number.isFinite(c.accuracy) ? c.accuracy : null,
    Number.isFinite(c.speed) && c.speed !== null ? c.speed : null]);
}

function onPositionError(error) {
  if (error.code === 1) {
    showLocationProblem("Location is blocked for this page, so the run cannot be followed. Allow location for this site in the browser’s settings, then tap Try again.");
    return;
  }
  // Unavailable or timed out: the watch goes on, and the next fix carries on the run.
  $("gps-status").textContent = "Looking for GPS…";
}

export function watchPosition() {
  if (state.watchID !== null) navigator.geolocation.clearWatch(state.watchID);
  state.watchID = navigator.geolocation.watchPosition(onPosition, onPositionError, {
    enableHighAccuracy: true, maximumAge: 0, timeout: 30000,
  });
}

function showLocationProblem(text) {
  $("location-problem-text").textContent = text || "";
  show($("location-problem"), Boolean(text));
  if (text) announce(text);
}

/** The one timer: when the scheduler next needs to hear from the page. */
export function scheduleWake() {
  clearTimeout(state.timer);
  const wake = state.tracker && state.tracker.wakeUp;
  if (wake == null) return;
  state.timer = setTimeout(() => record(["tick", eventTime(Math.max(now(), wake))]), Math.max(0, (wake - now()) * 1000));
}
