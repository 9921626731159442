// Playing, on the runner's page: the player unlocked inside a tap (a phone's browser plays sound
// later only from an element that played in a tap), the screen kept on where the browser can,
// and each message the scheduler starts played from the copy kept on the phone.

import { $, show, announce, formatDistance, who } from "./common.js";
import { queueReport, storedAudio, saveSession } from "./run-store.js";
import { state, now, isRunning } from "./run-state.js";
import { eventTime, record } from "./run-events.js";
import { flushReports } from "./run-reports.js";
import { render, runSeconds } from "./run-screen.js";
import { completeRun } from "./run.js";

/** A tenth of a second of silence, played muted inside the tap: it unlocks the player. */
function silence() {
  const rate = 8000;
  const samples = rate / 10;
  const buffer = new ArrayBuffer(44 + samples * 2);
  const view = new DataView(buffer);
  const text = (offset, value) => [...value].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, samples * 2, true);
  return new Blob([buffer], { type: "audio/wav" });
}

/** Called inside a tap: autoplay rules let the player play later only if it played then. */
export function unlockAudio() {
  const player = $("player");
  if (state.audioUnlocked && !state.unlockFailed) return Promise.resolve();
  const url = URL.createObjectURL(silence());
  player.muted = true;
  player.src = url;
  return player.play().then(() => {
    state.audioUnlocked = true;
    state.unlockFailed = false;
  }, () => {
    state.unlockFailed = true;
  }).finally(() => {
    player.pause();
    player.muted = false;
    URL.revokeObjectURL(url);
  });
}

export async function takeWakeLock() {
  if (!("wakeLock" in navigator)) {
    setScreenNote("unavailable");
    return;
  }
  try {
    state.wakeLock = await navigator.wakeLock.request("screen");
    setScreenNote("held");
    state.wakeLock.addEventListener("release", () => {
      state.wakeLock = null;
      if (isRunning()) setScreenNote(document.visibilityState !== "visible" ? "hidden" : "released");
    });
  } catch {
    state.wakeLock = null;
    setScreenNote("unavailable");
  }
}

/**
 * Says what keeps the screen on: "held" (the page's wake lock), "hidden" (the page is not in
 * front, and gets no position), "released" or "unavailable" (the browser would not keep it on:
 * the phone's own settings must).
 */
function setScreenNote(lock) {
  const note = $("screen-on-note");
  note.dataset.wakeLock = lock;
  if (lock === "held") {
    note.textContent = "The screen stays on while this page is in front. Keep the page open: a phone gives a web page no position while its screen is locked or another app is in front.";
  } else if (lock === "hidden") {
    note.textContent = "The page was hidden: it gets no position until it is back in front.";
  } else {
    note.textContent = "This browser cannot keep the screen on by itself. Set the screen to stay on (or a long auto-lock) in the phone’s settings, and keep this page in front: a locked screen gets no position.";
  }
}

export function startMessage(number, time) {
  state.started.add(number);
  const message = state.session.messages[number];
  const atMeters = Math.max(0, state.tracker.reckonedMeters(time));
  queueReport(state.runID, { id: message.id, atMeters, runSeconds: Math.max(0, runSeconds(time)) });
  // Where it played, for the finish's summary (a reload rebuilds the run, not this).
  state.session.playedAt = { ...state.session.playedAt, [message.id]: atMeters };
  saveSession(state.runID, state.session);
  flushReports();
  if (!state.audioUnlocked || state.unlockFailed) {
    state.waitingForTap = number;
    show($("continue"));
    return;
  }
  play(number);
}

export async function play(number) {
  const message = state.session.messages[number];
  const player = $("player");
  state.playing = number;
  render();
  const blob = await storedAudio(state.runID, message.id).catch(() => null);
  if (!blob) {
    playbackEnded("missing");
    return;
  }
  if (player.dataset.url) URL.revokeObjectURL(player.dataset.url);
  player.dataset.url = URL.createObjectURL(blob);
  player.dataset.number = String(number);
  player.src = player.dataset.url;
  // Other audio (the runner's music) ducks while the message plays, where Safari allows it.
  if (navigator.audioSession) navigator.audioSession.type = "transient";
  if ("mediaSession" in navigator && window.MediaMetadata) {
    navigator.mediaSession.metadata = new MediaMetadata({ title: `${who(message)} at ${formatDistance(message.markerMeters)}`, artist: who(message) });
  }
  announce(`Playing ${who(message)}’s message.`);
  try {
    await player.play();
  } catch (error) {
    if (error && error.name === "NotAllowedError") {
      // The browser took the permission back (a reload, a long time hidden): ask for a tap.
      state.audioUnlocked = false;
      state.waitingForTap = number;
      state.playing = -1;
      show($("continue"));
      render();
      return;
    }
    playbackEnded("error");
  }
}

export function playbackEnded(why) {
  const player = $("player");
  const number = Number(player.dataset.number ?? state.playing);
  if (!isRunning() && !(state.session && state.session.finishedAt)) return;
  if (number < 0 || state.tracker.playing !== number) return;
  player.dataset.number = "-1";
  if (navigator.audioSession) navigator.audioSession.type = "auto";
  if (why !== "ended") $("now-playing").textContent = `A message could not be played (${why}); the run goes on.`;
  record(["ended", number, eventTime(now())]).then(() => {
    if (state.session.finishedAt && state.tracker.isComplete) completeRun();
  });
}
