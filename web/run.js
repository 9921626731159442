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

import { $, show, announce, api, formatDistance, formatClock } from "./common.js";
import { loadTracker } from "./tracking.js";
import {
  loadSession, saveSession, logEvent, loggedEvents, clearEvents, storeAudio, storedAudio,
  pendingReports, queueReport, dropReport,
} from "./run-store.js";

const TRACKER_URL = "/static/run-tracking.wasm";
const WORKER_URL = "/static/service-worker.js";
const WORKER_SCOPE = "/runs/";
/** How often queued played reports are tried again while some wait. */
const REPORT_RETRY_MS = 5000;
/** How long a file has to show that it plays before it counts as unplayable here. */
const DECODE_CHECK_MS = 15000;

const CHECK_ICON = "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2Z";

const state = {
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
  onScreenChange: () => {},
};

const now = () => Date.now() / 1000;

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

const isRunning = () => state.session && state.session.phase === "active";

// ---------------------------------------------------------------------------------------
// Get ready

function showRunCard() {
  show($("run-card"));
  setBadge($("run-badge"), "created");
  const session = state.session;
  if (session && session.phase === "ready") {
    summarizeReady(session.messages, session.problems || [], session.pending || 0);
  }
  updateStartButton();
}

function summarizeReady(messages, problems, pending) {
  const total = messages.length + problems.length;
  const summary = total === 0
    ? "No message is ready yet. Send your friends the invite link, then get ready again."
    : `${messages.length} of ${total} message${total === 1 ? "" : "s"} ready to play${messages.length ? ", kept on this phone" : ""}.`;
  $("ready-summary").textContent = summary;
  const list = $("ready-problems");
  list.replaceChildren();
  for (const problem of problems) {
    const item = document.createElement("li");
    item.textContent = problem;
    list.append(item);
  }
  if (pending) {
    const item = document.createElement("li");
    item.textContent = `${pending} more ${pending === 1 ? "message is" : "messages are"} still being prepared on the server: get ready again once ${pending === 1 ? "it is" : "they are"} ready.`;
    list.append(item);
  }
  show(list, list.childElementCount > 0);
}

/** What keeps Start from working, in words, or null when it can work. */
function startBlocker() {
  const session = state.session;
  if (!session || session.phase !== "ready") return "Get ready first: it puts the messages on this phone.";
  if (!session.messages.length) return "There is no message to play yet.";
  if (!("geolocation" in navigator)) return "This browser cannot tell the page where you are, so it cannot play messages along the run.";
  if (!window.isSecureContext) return "The page needs a secure (https) link to use your location.";
  return null;
}

function updateStartButton() {
  const blocker = startBlocker();
  $("start-button").disabled = Boolean(blocker);
  $("start-help").textContent = blocker || "Press Start when you set off.";
}

async function getReady() {
  const button = $("ready-button");
  button.disabled = true;
  button.textContent = "Getting ready…";
  show($("ready-progress"));
  try {
    await prepare();
  } catch (error) {
    $("ready-summary").textContent = `Not ready: ${error.message}`;
    announce($("ready-summary").textContent);
  } finally {
    button.disabled = false;
    button.textContent = "Get ready again";
    show($("ready-progress"), false);
    updateStartButton();
  }
}

function progress(text, done, total) {
  $("ready-progress-label").textContent = text;
  const percent = total ? Math.round((done / total) * 100) : 0;
  $("ready-progress-fill").style.transform = `scaleX(${percent / 100})`;
  $("ready-progress-bar").setAttribute("aria-valuenow", String(percent));
}

async function prepare() {
  progress("Fetching the list of messages…", 0, 1);
  let manifest;
  try {
    manifest = await api(`/v1/runs/${encodeURIComponent(state.runID)}/manifest`, { token: state.token });
  } catch {
    throw new Error("the server could not be reached. Check your connection and try again.");
  }
  if (!manifest.ok) throw new Error(manifest.reason);
  progress("Loading the distance tracker…", 0, 1);
  try {
    state.tracker = state.tracker || await loadTracker(TRACKER_URL);
  } catch (error) {
    throw new Error(`this browser could not run the distance tracker (${error.message}).`);
  }
  const offline = await keepPageOffline();
  const messages = manifest.json.messages;
  const prepared = [];
  const problems = [];
  for (const [index, message] of messages.entries()) {
    progress(`Preparing ${index + 1} of ${messages.length}…`, index, messages.length);
    const outcome = await prepareMessage(message);
    if (outcome.ok) prepared.push({ ...outcome.message });
    else problems.push(`${who(message)}’s message at ${formatDistance(message.markerMeters)}: ${outcome.reason}`);
  }
  progress("Done", 1, 1);
  const persisted = navigator.storage && navigator.storage.persist ? await navigator.storage.persist().catch(() => false) : false;
  const run = manifest.json.run;
  state.run = { ...(state.run || {}), title: run.title, plannedDistanceMeters: run.plannedDistanceMeters };
  state.session = {
    phase: "ready", run: state.run, messages: prepared, problems, pending: manifest.json.pending || 0,
    preparedAt: Date.now(),
  };
  saveSession(state.runID, state.session);
  summarizeReady(prepared, problems, state.session.pending);
  const notes = [];
  if (!offline) notes.push("This browser cannot keep the page itself for offline use: keep the signal when you reload it.");
  if (!persisted) notes.push("The phone may clear the stored messages if it runs out of space.");
  $("ready-notes").textContent = notes.join(" ");
  show($("ready-notes"), notes.length > 0);
  announce($("ready-summary").textContent);
}

/** Registers the service worker and has it keep this page; false when the browser has none. */
async function keepPageOffline() {
  if (!("serviceWorker" in navigator)) return false;
  try {
    await navigator.serviceWorker.register(WORKER_URL, { scope: WORKER_SCOPE });
    const registration = await navigator.serviceWorker.ready;
    // The page was loaded before the worker existed: it asks for its own copy to be kept.
    const answer = new MessageChannel();
    const kept = new Promise((resolve) => { answer.port1.onmessage = (event) => resolve(event.data === "kept"); });
    registration.active.postMessage({ keep: window.location.pathname }, [answer.port2]);
    return await kept;
  } catch {
    return false;
  }
}

/**
 * The containers the server can give, in the order this browser should try them: Ogg, then
 * WebM (Safari on iOS 17.4 to 18.3 plays Opus in WebM but not in Ogg), then CAF.
 */
function containers() {
  const probe = document.createElement("audio");
  const all = [
    { query: "", type: "audio/ogg", probe: 'audio/ogg; codecs="opus"' },
    { query: "?container=webm", type: "audio/webm", probe: 'audio/webm; codecs="opus"' },
    { query: "?container=caf", type: "audio/x-caf", probe: "audio/x-caf" },
  ];
  const order = all.filter((container) => probe.canPlayType(container.probe));
  // A browser that claims none may still decode one: try them all rather than give up.
  return order.length ? order : all;
}

/** Fetches a message, checks that this browser plays it, and keeps it on the phone. */
async function prepareMessage(message) {
  let reason = "this browser cannot play its audio";
  for (const container of containers()) {
    let response;
    try {
      response = await fetch(`/v1/messages/${encodeURIComponent(message.id)}/audio${container.query}`, {
        headers: { Authorization: `Bearer ${state.token}` }, cache: "no-store", credentials: "omit",
      });
    } catch {
      return { ok: false, reason: "the network failed while fetching it" };
    }
    if (!response.ok) return { ok: false, reason: `the server answered ${response.status}` };
    const blob = new Blob([await response.arrayBuffer()], { type: container.type });
    const checked = await playsHere(blob);
    if (!checked.ok) {
      reason = checked.reason;
      continue;
    }
    try {
      await storeAudio(state.runID, message.id, blob);
    } catch {
      return { ok: false, reason: "the phone would not store it (is it out of space?)" };
    }
    return {
      ok: true,
      message: {
        id: message.id, sender: message.sender || null, marker: message.marker, markerMeters: message.markerMeters,
        durationSeconds: checked.duration || message.durationSeconds,
      },
    };
  }
  return { ok: false, reason };
}

/** Loads the audio into an element of its own, as it will be played: does it decode here? */
function playsHere(blob) {
  return new Promise((resolve) => {
    const audio = document.createElement("audio");
    const url = URL.createObjectURL(blob);
    const done = (outcome) => {
      clearTimeout(timer);
      audio.removeAttribute("src");
      audio.load();
      URL.revokeObjectURL(url);
      resolve(outcome);
    };
    const timer = setTimeout(() => done({ ok: false, reason: "this browser did not manage to open its audio" }), DECODE_CHECK_MS);
    audio.preload = "auto";
    audio.addEventListener("canplaythrough", () => {
      const ok = Number.isFinite(audio.duration) && audio.duration > 0;
      done(ok ? { ok, duration: audio.duration } : { ok: false, reason: "its audio has no length here" });
    }, { once: true });
    audio.addEventListener("error", () => done({ ok: false, reason: "this browser cannot play its audio" }), { once: true });
    audio.src = url;
    audio.load();
  });
}

// ---------------------------------------------------------------------------------------
// Start, and carrying on after a reload

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
function unlockAudio() {
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

async function takeWakeLock() {
  if (!("wakeLock" in navigator)) {
    setScreenNote(false);
    return;
  }
  try {
    state.wakeLock = await navigator.wakeLock.request("screen");
    setScreenNote(true);
    state.wakeLock.addEventListener("release", () => {
      state.wakeLock = null;
      if (isRunning()) setScreenNote(false, document.visibilityState !== "visible");
    });
  } catch {
    state.wakeLock = null;
    setScreenNote(false);
  }
}

function setScreenNote(held, hidden = false) {
  const note = $("screen-on-note");
  note.dataset.wakeLock = held ? "held" : "released";
  if (held) {
    note.textContent = "The screen stays on while this page is in front. Keep the page open: a phone gives a web page no position while its screen is locked or another app is in front.";
  } else if (hidden) {
    note.textContent = "The page was hidden: it gets no position until it is back in front.";
  } else {
    note.textContent = "This browser cannot keep the screen on by itself. Set the screen to stay on (or a long auto-lock) in the phone’s settings, and keep this page in front: a locked screen gets no position.";
  }
}

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
  return { markers: session.messages.map((m) => m.markerMeters), plannedDistance: session.run.plannedDistanceMeters || null };
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
// The events: logged, then applied, then acted on

/** A time for the next event: never before the last one, so the log replays in order. */
function eventTime(time) {
  state.lastEventTime = Math.max(state.lastEventTime, time);
  return state.lastEventTime;
}

/** Keeps what the page shows that the tracker does not know: the time spent paused, and the
 * latest time so far (a replayed log leaves it where the run was). */
function noteEvent(event) {
  state.lastEventTime = Math.max(state.lastEventTime, event[0] === "ended" ? event[2] : event[1]);
  if (event[0] === "pause") state.pausedAt = event[1];
  if (event[0] === "resume" && state.pausedAt !== null) {
    state.pausedSeconds += event[1] - state.pausedAt;
    state.pausedAt = null;
  }
  if (event[0] === "finish") state.session.finishedAt = state.session.finishedAt || event[1];
}

async function record(event) {
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

function watchPosition() {
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
function scheduleWake() {
  clearTimeout(state.timer);
  const wake = state.tracker && state.tracker.wakeUp;
  if (wake == null) return;
  state.timer = setTimeout(() => record(["tick", eventTime(Math.max(now(), wake))]), Math.max(0, (wake - now()) * 1000));
}

// ---------------------------------------------------------------------------------------
// Playing

function startMessage(number, time) {
  state.started.add(number);
  const message = state.session.messages[number];
  queueReport(state.runID, {
    id: message.id, atMeters: Math.max(0, state.tracker.reckonedMeters(time)), runSeconds: Math.max(0, runSeconds(time)),
  });
  flushReports();
  if (!state.audioUnlocked || state.unlockFailed) {
    state.waitingForTap = number;
    show($("continue"));
    return;
  }
  play(number);
}

async function play(number) {
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

function playbackEnded(why) {
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

function completeRun() {
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

// ---------------------------------------------------------------------------------------
// Played reports

async function flushReports() {
  // One flush at a time, so that no report is sent twice at once; a call meanwhile asks for
  // another round when this one ends.
  if (state.flushing) {
    state.flushAgain = true;
    return;
  }
  state.flushing = true;
  try {
    do {
      state.flushAgain = false;
      await sendReports();
    } while (state.flushAgain);
  } finally {
    state.flushing = false;
  }
  clearTimeout(state.reportTimer);
  if (pendingReports(state.runID).length) state.reportTimer = setTimeout(flushReports, REPORT_RETRY_MS);
}

async function sendReports() {
  const reports = pendingReports(state.runID);
  for (const report of reports) {
    let result;
    try {
      result = await api(`/v1/messages/${encodeURIComponent(report.id)}/played`, {
        token: state.token, method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ atMeters: report.atMeters, runSeconds: report.runSeconds }),
      });
    } catch {
      result = null;
    }
    // Taken, or refused for good (deleted, not the owner): either way it is not sent again.
    if (result && (result.ok || (result.status >= 400 && result.status < 500 && result.status !== 408 && result.status !== 429))) {
      dropReport(state.runID, report.id);
    } else {
      // The network or the server is down: the rest wait for the next round.
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------
// The run screen

function runSeconds(time) {
  const paused = state.pausedSeconds + (state.pausedAt !== null ? time - state.pausedAt : 0);
  return time - state.session.startedAt - paused;
}

function enterRunScreen() {
  show($("run-card"), false);
  show($("run-screen"));
  document.body.classList.add("on-the-run");
  state.bubbleInView = -1;
  setBadge($("run-status-badge"), "active");
  buildBubbles();
  state.onScreenChange(true);
  clearInterval(state.clock);
  state.clock = setInterval(render, 1000);
  render();
}

const BADGES = {
  created: ["Created", "badge-ready"],
  active: ["Active", "badge-processing"],
  paused: ["Paused", "badge-queued"],
  completed: ["Completed", "badge-played"],
};

function setBadge(element, phase) {
  const [text, cls] = BADGES[phase];
  element.textContent = text;
  element.className = `badge ${cls}`;
}

function icon(path) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS("http://www.w3.org/2000/svg", "path");
  shape.setAttribute("fill", "currentColor");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

function who(message) {
  return message.sender || "Someone";
}

function buildBubbles() {
  const list = $("bubbles");
  list.replaceChildren();
  for (const [number, message] of state.session.messages.entries()) {
    const item = document.createElement("li");
    item.className = "bubble";
    item.dataset.number = String(number);
    const name = document.createElement("span");
    name.className = "bubble-sender";
    name.textContent = who(message);
    const tag = document.createElement("span");
    tag.className = "distance-tag";
    tag.textContent = formatDistance(message.markerMeters);
    const status = document.createElement("span");
    status.className = "bubble-status";
    item.append(name, tag, status);
    list.append(item);
  }
}

function pace(speed) {
  if (!(speed >= 0.2)) return "–";
  const perKm = Math.round(1000 / speed);
  return `${Math.floor(perKm / 60)}:${String(perKm % 60).padStart(2, "0")}`;
}

function render() {
  if (!state.tracker || !state.session) return;
  const time = state.session.finishedAt && !isRunning() ? state.session.finishedAt : now();
  const meters = state.tracker.meters;
  const distance = $("stat-distance");
  distance.textContent = (meters / 1000).toFixed(2);
  distance.dataset.meters = meters.toFixed(2);
  $("stat-duration").textContent = formatClock(runSeconds(time));
  $("stat-pace").textContent = pace(state.tracker.speed);
  const total = state.session.messages.length;
  $("stat-messages").textContent = `${state.started.size}/${total}`;
  const planned = state.session.run.plannedDistanceMeters;
  if (planned) {
    const share = Math.min(1, meters / planned);
    $("run-progress-fill").style.transform = `scaleX(${share.toFixed(4)})`;
    $("run-progress-bar").setAttribute("aria-valuenow", String(Math.round(share * 100)));
    $("run-progress-label").textContent = `${formatDistance(meters)} of ${formatDistance(planned)}`;
  }
  show($("run-progress"), Boolean(planned));
  const paused = state.pausedAt !== null;
  if (isRunning()) setBadge($("run-status-badge"), paused ? "paused" : "active");
  $("pause-button").textContent = paused ? "Resume" : "Pause";
  const playing = state.playing >= 0 ? state.session.messages[state.playing] : null;
  if (playing) $("now-playing").textContent = `Playing ${who(playing)}’s message (${formatDistance(playing.markerMeters)})`;
  else if (isRunning()) $("now-playing").textContent = nextUp();
  for (const item of $("bubbles").children) {
    const number = Number(item.dataset.number);
    const played = state.started.has(number) && number !== state.playing && number !== state.waitingForTap;
    item.classList.toggle("is-played", played);
    item.classList.toggle("is-playing", number === state.playing);
    const status = item.querySelector(".bubble-status");
    status.replaceChildren();
    if (played) status.append(icon(CHECK_ICON), "Played");
    else if (number === state.playing) status.append("Playing");
    else status.append("Upcoming");
  }
  followBubbles();
  if (state.session.finishedAt && !isRunning()) {
    $("finished-text").textContent = `${state.started.size} of ${total} message${total === 1 ? "" : "s"} played over ${formatDistance(meters)} in ${formatClock(runSeconds(time))}.`;
  }
}

/**
 * Keeps the bubble that matters in the strip's view: the one playing, else the next to play,
 * else the last. With more messages than fit, the strip would otherwise stay on the first ones,
 * played long ago. It moves only when that bubble changes (or the strip's width does), so a
 * runner who scrolls it by hand is not pulled back every second.
 */
function followBubbles() {
  const next = nextToPlay();
  const focus = state.playing >= 0 ? state.playing : next >= 0 ? next : state.session.messages.length - 1;
  if (focus < 0 || focus === state.bubbleInView) return;
  const list = $("bubbles");
  const item = list.children[focus];
  if (!item || list.offsetParent === null) return;
  state.bubbleInView = focus;
  const strip = list.getBoundingClientRect();
  const bubble = item.getBoundingClientRect();
  if (bubble.left >= strip.left && bubble.right <= strip.right) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  list.scrollBy({ left: bubble.left - strip.left - 8, behavior: still ? "auto" : "smooth" });
}

/** The number of the first message not started yet, or -1 when every one has. */
function nextToPlay() {
  return state.session.messages.findIndex((_, number) => !state.started.has(number));
}

function nextUp() {
  const next = nextToPlay();
  if (next < 0) return "Every message has played.";
  const message = state.session.messages[next];
  return `Next: ${who(message)} at ${formatDistance(message.markerMeters)}`;
}
