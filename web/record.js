// The recording page, /r/{runID}#invite=…: pick a point on the run, record (or choose a
// file), preview, send with progress, and follow the message until the runner can hear it.

import {
  $, show, announce, api, follow, fragmentValue, runIDFromPath, formatDistance, formatClock,
  formatBytes, describeMarker, statusBadge, playedText, plainFailure, fetchAudioURL, randomKey, voicePlayer,
} from "./common.js";
import * as microphone from "./microphone.js";
import { decodeLength } from "./decoding.js";
import * as saved from "./saved-recording.js";

const NAME_KEY = "voicemsg.senderName";
// The countdown shows in the last 30 s, or the last half of a shorter limit.
const COUNTDOWN_SECONDS = 30;
const SILENCE_DB = -50;
const SILENCE_WARNING_MS = 3000;
/** How long this browser has to decode a recording for its length. */
const DECODE_MS = 10000;

const runID = runIDFromPath();
const inviteToken = fragmentValue("invite");

const page = {
  run: null,
  // { text, canonical, meters } once the chosen point resolved on this run.
  marker: null,
  markerCheck: 0,
  slot: null,
  phase: "loading",
  stopFollowing: null,
  lastSendWasNetwork: false,
  // True while the recording on hand is one the server would refuse (too long, too large).
  sendBlocked: false,
};

// The recording in progress: the microphone session, the timer, what was announced.
const recording = {
  session: null,
  ticker: null,
  lastHeard: 0,
  announced: new Set(),
  stoppedAtLimit: false,
};

// ---------------------------------------------------------------------------------------
// Loading the run

async function start() {
  if (!runID || !inviteToken) {
    pageError("This link is missing its invite code",
      "Ask the runner to send the link again; the whole link ends with #invite= and a long code.");
    return;
  }
  let result;
  try {
    result = await api(`/v1/runs/${encodeURIComponent(runID)}`, { token: inviteToken });
  } catch {
    pageError("The server could not be reached", "Check your connection and reload the page.");
    return;
  }
  if (result.status === 401 || result.status === 403) {
    pageError("This invite link does not work", "Ask the runner for a new link. (The server said: " + result.reason + ".)");
    return;
  }
  if (!result.ok) {
    pageError("The run could not be loaded", result.reason);
    return;
  }
  page.run = result.json;
  showRun();
  page.slot = await saved.load(runID);
  if (page.slot && page.slot.messageID) {
    restoreChoices(page.slot);
    showSent(page.slot, { restored: true });
  } else if (page.slot && page.slot.blob) {
    restoreChoices(page.slot);
    showRecorded(page.slot, { restored: true });
  } else {
    setPhase("idle");
  }
}

function pageError(title, text) {
  show($("loading"), false);
  $("run-title").textContent = "Record a message";
  $("page-error-title").textContent = title;
  $("page-error-text").textContent = " " + text;
  show($("page-error"));
}

function showRun() {
  const run = page.run;
  document.title = `Record a message for ${run.title}`;
  $("run-title").textContent = run.title;
  $("run-distance").textContent = run.plannedDistanceMeters
    ? `Planned distance ${formatDistance(run.plannedDistanceMeters)}`
    : "No planned distance: give your point as a distance from the start";
  renderPresets(run.presets || []);
  $("sender-name").value = localStorage.getItem(NAME_KEY) || "";
  $("limit-help").textContent = `Up to ${describeLength(run.limits.maxSeconds)}.`;
  show($("loading"), false);
  show($("details"));
  show($("recorder"));
  checkMicrophoneSupport();
}

/** "10 minutes", "1 minute", "45 seconds", "1:30". */
function describeLength(seconds) {
  const whole = Math.floor(seconds);
  if (whole >= 60 && whole % 60 === 0) return `${whole / 60} minute${whole === 60 ? "" : "s"}`;
  if (whole < 60) return `${whole} second${whole === 1 ? "" : "s"}`;
  return formatClock(whole);
}

function renderPresets(presets) {
  const container = $("presets");
  container.replaceChildren();
  for (const preset of presets) {
    const label = document.createElement("label");
    label.className = "chip";
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "preset";
    input.value = preset.marker;
    input.dataset.canonical = preset.canonical;
    input.dataset.meters = String(preset.meters);
    input.addEventListener("change", () => choosePreset(input));
    const text = document.createElement("span");
    text.textContent = preset.label;
    if (preset.canonical.endsWith("%") || preset.canonical.startsWith("finish")) {
      const where = document.createElement("small");
      where.textContent = formatDistance(preset.meters);
      text.append(" ", where);
    }
    label.append(input, text);
    container.append(label);
  }
}

// ---------------------------------------------------------------------------------------
// The marker: a preset, or typed and checked by the server

function choosePreset(input) {
  $("marker-custom").value = "";
  $("marker-custom").removeAttribute("aria-invalid");
  setMarker({ text: input.value, canonical: input.dataset.canonical, meters: Number(input.dataset.meters) });
}

function setMarker(marker) {
  page.marker = marker;
  const help = $("marker-help");
  help.classList.remove("is-error");
  help.classList.add("is-resolved");
  help.textContent = `Plays at ${formatDistance(marker.meters)} (${describeMarker(marker.canonical, marker.meters)}).`;
}

function markerRefused(reason) {
  page.marker = null;
  const help = $("marker-help");
  help.classList.remove("is-resolved");
  help.classList.add("is-error");
  help.textContent = reason;
  $("marker-custom").setAttribute("aria-invalid", "true");
}

let markerTimer = 0;
function typedMarkerChanged() {
  const text = $("marker-custom").value.trim();
  for (const radio of document.querySelectorAll('input[name="preset"]')) radio.checked = false;
  clearTimeout(markerTimer);
  page.marker = null;
  $("marker-custom").removeAttribute("aria-invalid");
  const help = $("marker-help");
  help.classList.remove("is-error", "is-resolved");
  if (!text) {
    help.textContent = "Pick a point above, or type one: a distance, a percentage, “halfway” or “finish”.";
    return;
  }
  help.textContent = "Checking…";
  markerTimer = setTimeout(() => resolveTyped(text), 350);
}

/** Asks the server where the typed point lies; it refuses with the upload's own words. */
async function resolveTyped(text) {
  const check = ++page.markerCheck;
  let result;
  try {
    result = await api(`/v1/runs/${encodeURIComponent(runID)}/markers/resolve?marker=${encodeURIComponent(text)}`,
      { token: inviteToken });
  } catch {
    if (check === page.markerCheck) markerRefused("Could not check this point: the connection failed.");
    return null;
  }
  if (check !== page.markerCheck) return null;
  if (result.ok) {
    const marker = { text, canonical: result.json.canonical, meters: result.json.meters };
    setMarker(marker);
    return marker;
  }
  markerRefused(result.missing ? "This server cannot check typed points yet; pick one above." : result.reason);
  return null;
}

function restoreChoices(slot) {
  if (slot.sender) $("sender-name").value = slot.sender;
  if (!slot.marker) return;
  const radio = Array.from(document.querySelectorAll('input[name="preset"]')).find((r) => r.value === slot.marker);
  if (radio) {
    radio.checked = true;
    choosePreset(radio);
  } else {
    $("marker-custom").value = slot.marker;
    resolveTyped(slot.marker);
  }
}

// ---------------------------------------------------------------------------------------
// The microphone, and what to say when there is none

function checkMicrophoneSupport() {
  const reason = microphone.unavailableReason();
  if (reason) microphoneProblem(reason);
}

const MIC_PROBLEMS = {
  insecure: ["The microphone needs a secure connection",
    "This page was opened over plain http from another computer, and browsers only lend the microphone to https pages (or to localhost). Ask the runner for an https link, or choose a recording you made with your phone’s voice recorder."],
  unsupported: ["This browser cannot record here",
    "Try a recent Safari, Chrome or Firefox, or choose a recording you made with your phone’s voice recorder."],
  denied: ["Microphone permission was denied",
    "To record here, allow the microphone for this site (in the browser’s address bar or site settings) and press Record again. Or choose a recording you already have."],
  missing: ["No microphone was found",
    "This device has no microphone the browser can use. Plug one in and press Record again, or choose a recording you already have."],
  busy: ["The microphone could not be started",
    "Another app may be using it. Close that app and press Record again, or choose a recording you already have."],
  failed: ["Recording failed",
    "The browser stopped the recording. Press Record to try again, or choose a recording you already have."],
};

function microphoneProblem(kind) {
  const [title, text] = MIC_PROBLEMS[kind];
  $("mic-problem-title").textContent = title;
  $("mic-problem-text").textContent = text;
  show($("mic-problem"));
  $("file-help").textContent = "Choose a recording instead, such as a voice memo from your phone.";
  $("choose-file").classList.replace("button-secondary", "button-primary");
  if (kind === "insecure" || kind === "unsupported") $("record-button").disabled = true;
}

// ---------------------------------------------------------------------------------------
// Recording

async function startRecording() {
  if (page.phase === "recording" || page.phase === "sending") return;
  show($("mic-problem"), false);
  if (microphone.unavailableReason()) {
    checkMicrophoneSupport();
    return;
  }
  $("record-button").disabled = true;
  recording.announced.clear();
  recording.stoppedAtLimit = false;
  $("limit-help").textContent = `Up to ${describeLength(page.run.limits.maxSeconds)}.`;
  recording.lastHeard = performance.now();
  try {
    recording.session = await microphone.record({
      onLevel: showLevel,
      onDone: finishRecording,
      onError: () => {
        microphoneProblem("failed");
        stopRecording();
      },
    });
  } catch (error) {
    $("record-button").disabled = false;
    microphoneProblem(microphone.classifyError(error));
    announce($("mic-problem-title").textContent);
    return;
  }
  recording.ticker = setInterval(tick, 200);
  setPhase("recording");
  tick();
  $("stop-button").focus();
  announce("Recording. Press Stop when you are done.");
}

/** The level bar, and a warning when nothing above the silence level came for 3 s. */
function showLevel(db) {
  const now = performance.now();
  if (db > SILENCE_DB) recording.lastHeard = now;
  $("level-fill").style.transform = `scaleX(${Math.min(1, Math.max(0, (db + 60) / 60)).toFixed(3)})`;
  show($("level-warning"), now - recording.lastHeard > SILENCE_WARNING_MS);
}

function tick() {
  const elapsed = recording.session.elapsedSeconds();
  $("timer").textContent = formatClock(elapsed);
  const max = page.run.limits.maxSeconds;
  const left = max - elapsed;
  if (left <= Math.min(COUNTDOWN_SECONDS, max / 2)) {
    const whole = Math.max(0, Math.ceil(left));
    $("countdown").textContent = `${formatClock(whole)} left: the recording stops at ${formatClock(max)}.`;
    show($("countdown"));
    // Said at 30 s and 10 s, once each; a shorter limit says the time left when it starts.
    const due = [30, 10].filter((mark) => whole <= mark && !recording.announced.has(mark));
    if (due.length) {
      for (const mark of due) recording.announced.add(mark);
      announce(`${whole} second${whole === 1 ? "" : "s"} left.`);
    }
  }
  // Stop a little before the limit, so the file the server measures stays within it.
  if (left <= 0.5) {
    recording.stoppedAtLimit = true;
    stopRecording();
  }
}

function stopRecording() {
  clearInterval(recording.ticker);
  if (recording.session) recording.session.stop();
  $("level-fill").style.transform = "scaleX(0)";
}

async function finishRecording({ blob, type, durationSeconds }) {
  recording.session = null;
  if (blob.size === 0) {
    setPhase("idle");
    microphoneProblem("failed");
    return;
  }
  // The recording's own length, as the server will find it: the recorder's clock runs from the
  // button, the recording from the microphone's first sound, a few tenths of a second later.
  const decoded = await decodeLength(await blob.arrayBuffer(), DECODE_MS);
  const slot = {
    runID, blob, mimeType: type, durationSeconds: decoded.seconds || durationSeconds, fileName: null,
    idempotencyKey: randomKey(),
    marker: page.marker ? page.marker.text : null, sender: $("sender-name").value.trim() || null,
    messageID: null, senderToken: null, savedAt: Date.now(),
  };
  await saved.save(slot);
  page.slot = slot;
  showRecorded(slot);
  // The Stop button is gone; focus goes to the next step rather than to the page's start.
  if (!$("send-button").disabled) $("send-button").focus();
  if (recording.stoppedAtLimit) {
    const limit = formatClock(page.run.limits.maxSeconds);
    $("limit-help").textContent = `The recording stopped at its ${limit} limit.`;
    announce(`The recording reached its ${limit} limit and stopped. Listen to it, then send it.`);
  } else {
    announce(`Recorded ${Math.round(slot.durationSeconds)} seconds. Listen to it, then send it.`);
  }
}

// ---------------------------------------------------------------------------------------
// A recording chosen from a file

/**
 * A chosen file's length: what its player reads from the file's header when it can (a phone's
 * voice memo states it, and a long file is not decoded whole for it), else the decoded length.
 */
async function fileDuration(file) {
  const stated = await statedDuration(file);
  if (stated) return stated;
  const decoded = await decodeLength(await file.arrayBuffer(), DECODE_MS);
  return decoded.seconds || null;
}

function statedDuration(file) {
  return new Promise((resolve) => {
    const audio = document.createElement("audio");
    const url = URL.createObjectURL(file);
    const done = (value) => {
      URL.revokeObjectURL(url);
      resolve(Number.isFinite(value) && value > 0 ? value : null);
    };
    const timer = setTimeout(() => done(null), 3000);
    audio.preload = "metadata";
    audio.addEventListener("loadedmetadata", () => { clearTimeout(timer); done(audio.duration); }, { once: true });
    audio.addEventListener("error", () => { clearTimeout(timer); done(null); }, { once: true });
    audio.src = url;
  });
}

async function fileChosen() {
  const file = $("file-input").files[0];
  $("file-input").value = "";
  if (!file) return;
  const durationSeconds = await fileDuration(file);
  const slot = {
    runID, blob: file, mimeType: file.type || "application/octet-stream", durationSeconds,
    fileName: file.name, idempotencyKey: randomKey(),
    marker: page.marker ? page.marker.text : null, sender: $("sender-name").value.trim() || null,
    messageID: null, senderToken: null, savedAt: Date.now(),
  };
  await saved.save(slot);
  page.slot = slot;
  showRecorded(slot);
  if (!$("send-button").disabled) $("send-button").focus();
  announce(`Chose ${file.name}. Listen to it, then send it.`);
}

// ---------------------------------------------------------------------------------------
// Preview and sending

let previewURL = null;

/**
 * WebM from MediaRecorder carries no duration, so Chrome's player shows no length and cannot
 * seek. Seeking far past the end once makes the browser find the real end; then back to 0.
 */
function fixUnknownDuration(audio) {
  audio.addEventListener("loadedmetadata", () => {
    if (audio.duration !== Infinity) return;
    audio.addEventListener("timeupdate", () => { audio.currentTime = 0; }, { once: true });
    audio.currentTime = 1e6;
  });
}

function showRecorded(slot, { restored = false } = {}) {
  if (previewURL) URL.revokeObjectURL(previewURL);
  previewURL = URL.createObjectURL(slot.blob);
  $("preview-audio").src = previewURL;
  const parts = [];
  if (slot.fileName) parts.push(slot.fileName);
  if (slot.durationSeconds != null) parts.push(formatClock(slot.durationSeconds));
  parts.push(formatBytes(slot.blob.size));
  $("preview-meta").textContent = (restored ? "Saved on this device from before: " : "") + parts.join(" · ");
  $("timer").textContent = formatClock(slot.durationSeconds || 0);
  show($("send-error"), false);
  show($("upload"), false);
  show($("send-actions"));
  const limits = page.run.limits;
  let problem = null;
  if (slot.blob.size > limits.maxBytes) {
    problem = `This recording is ${formatBytes(slot.blob.size)}; the server accepts up to ${formatBytes(limits.maxBytes)}.`;
  } else if (slot.durationSeconds != null && slot.durationSeconds > limits.maxSeconds + 0.5) {
    problem = `This recording lasts ${formatClock(slot.durationSeconds)}; the server accepts up to ${formatClock(limits.maxSeconds)}.`;
  }
  page.sendBlocked = Boolean(problem);
  setPhase("recorded");
  if (problem) sendFailed("This recording cannot be sent", problem, { canRetry: false });
}

/** The chosen point, checking a typed one first; null (with the reason shown) when there is none. */
async function currentMarker() {
  const typed = $("marker-custom").value.trim();
  if (typed) {
    clearTimeout(markerTimer);
    if (page.marker && page.marker.text === typed) return page.marker;
    return resolveTyped(typed);
  }
  if (page.marker) return page.marker;
  const help = $("marker-help");
  help.classList.add("is-error");
  help.textContent = "Pick where on the run your message should play.";
  return null;
}

async function send() {
  const slot = page.slot;
  if (!slot || !slot.blob || page.phase === "sending") return;
  const marker = await currentMarker();
  if (!marker) {
    const first = document.querySelector('input[name="preset"]') || $("marker-custom");
    first.focus();
    announce($("marker-help").textContent);
    return;
  }
  const sender = $("sender-name").value.trim();
  if (!sender) {
    $("sender-name").setAttribute("aria-invalid", "true");
    $("sender-help").classList.add("is-error");
    $("sender-help").textContent = "Please add your name, so the runner knows who it is from.";
    $("sender-name").focus();
    announce($("sender-help").textContent);
    return;
  }
  localStorage.setItem(NAME_KEY, sender);
  slot.marker = marker.text;
  slot.sender = sender;
  await saved.save(slot);
  setPhase("sending");
  show($("send-error"), false);
  show($("send-actions"), false);
  progress(0);
  show($("upload"));
  announce("Sending your message.");

  const query = `marker=${encodeURIComponent(marker.text)}&sender=${encodeURIComponent(sender)}`;
  const xhr = new XMLHttpRequest();
  xhr.open("POST", `/v1/runs/${encodeURIComponent(runID)}/messages?${query}`);
  xhr.setRequestHeader("Authorization", `Bearer ${inviteToken}`);
  // The same key on every attempt with this recording: the server answers a repeat with the
  // message it already made, so a retry after a lost answer never makes a second one.
  xhr.setRequestHeader("Idempotency-Key", slot.idempotencyKey);
  xhr.setRequestHeader("Content-Type", slot.mimeType || "application/octet-stream");
  xhr.upload.addEventListener("progress", (event) => {
    if (event.lengthComputable) progress(event.loaded / event.total);
  });
  xhr.addEventListener("load", () => uploadAnswered(xhr));
  xhr.addEventListener("error", () => uploadLost());
  xhr.addEventListener("timeout", () => uploadLost());
  xhr.addEventListener("abort", () => uploadLost());
  xhr.send(slot.blob);
}

function progress(fraction) {
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  $("upload-fill").style.transform = `scaleX(${(percent / 100).toFixed(3)})`;
  $("upload-percent").textContent = `${percent}%`;
  $("upload-bar").setAttribute("aria-valuenow", String(percent));
}

async function uploadAnswered(xhr) {
  let json = null;
  try {
    json = JSON.parse(xhr.responseText);
  } catch {
    json = null;
  }
  if (xhr.status === 202 || xhr.status === 200 || xhr.status === 201) {
    progress(1);
    const slot = page.slot;
    slot.messageID = json.id;
    slot.senderToken = json.senderToken || null;
    slot.status = json.status;
    slot.blob = null;
    await saved.save(slot);
    showSent(slot, { restored: false });
    return;
  }
  const reason = json && json.error && json.error.message ? json.error.message : `the server answered ${xhr.status}`;
  page.lastSendWasNetwork = false;
  if (xhr.status === 400 && /marker/i.test(reason)) {
    markerRefused(reason);
    sendFailed("The point on the run was refused", reason, { canRetry: true });
  } else if (xhr.status === 401 || xhr.status === 403) {
    sendFailed("This invite link no longer works", `Ask the runner for a new link. (${reason})`, { canRetry: false });
  } else if (xhr.status === 413) {
    sendFailed("This recording is too large", reason, { canRetry: false });
  } else if (xhr.status >= 500) {
    sendFailed("The server had a problem", `Your recording is saved on this device; try again in a moment. (${reason})`, { canRetry: true });
  } else {
    sendFailed("The message was not sent", reason, { canRetry: true });
  }
}

function uploadLost() {
  if (page.phase !== "sending") return;
  page.lastSendWasNetwork = true;
  sendFailed("The connection dropped while sending",
    "Your recording is saved on this device. Try again; it will not be sent twice.", { canRetry: true });
}

function sendFailed(title, text, { canRetry }) {
  show($("upload"), false);
  show($("send-actions"), false);
  $("send-error-title").textContent = title;
  $("send-error-text").textContent = " " + text;
  show($("retry-button"), canRetry);
  show($("send-error"));
  setPhase("recorded");
  announce(`${title}. ${text}`);
  if (canRetry) $("retry-button").focus();
}

// ---------------------------------------------------------------------------------------
// After sending: follow the message

/** Where the message plays, in words: "at 21.1 km (halfway)". */
function markerWords() {
  return page.marker
    ? `at ${formatDistance(page.marker.meters)} (${describeMarker(page.marker.canonical, page.marker.meters)})`
    : "at the point you chose";
}

/** "Thank you, Ann!", or "Thank you!" when the sender gave no name. */
function thanks(sender) {
  return `Thank you${sender ? ", " + sender : ""}!`;
}

function showSent(slot, { restored }) {
  setPhase("sent");
  const where = markerWords();
  $("sent-text").textContent = restored
    ? `You sent a message for this run from this device. It plays ${where}.`
    : `${thanks(slot.sender)} The runner will hear it ${where}.`;
  $("sent").classList.remove("is-failed");
  show($("processed"), false);
  show($("failed"), false);
  show($("delete-button"), Boolean(slot.senderToken));
  show($("delete-result"), false);
  updateStatus({ status: slot.status || "queued" });
  $("sent").focus();
  if (!restored) announce("Message sent. It is being prepared for the runner.");
  const token = slot.senderToken || inviteToken;
  if (page.stopFollowing) page.stopFollowing();
  page.stopFollowing = follow(`/v1/messages/${encodeURIComponent(slot.messageID)}`, {
    token,
    onChange: (message) => updateStatus(message),
    // The server holds the request until the status differs from the one shown.
    known: (message) => `status=${encodeURIComponent(message.status)}`,
    onTrouble: (text) => {
      if (text && (text.startsWith("no message") || text.endsWith("was deleted"))) {
        text = "This message no longer exists: it was deleted.";
      }
      $("sent-detail").textContent = text || "";
    },
  });
}

let heardReady = false;

function updateStatus(message) {
  const badge = statusBadge(message);
  const element = $("sent-badge");
  element.className = `badge ${badge.cls}`;
  element.textContent = badge.text;
  const played = playedText(message);
  if (message.status === "queued") $("sent-detail").textContent = "Waiting for its turn to be prepared.";
  if (message.status === "processing") $("sent-detail").textContent = "Being prepared: trimming silence and evening out the volume.";
  if (message.status === "ready") {
    // Once played, the page speaks of it in the past: the runner has heard it.
    $("sent-heading").textContent = played ? "The runner heard your message" : "Your message is ready";
    if (played) {
      $("sent-text").textContent = `${thanks(page.slot && page.slot.sender)} You asked for it ${markerWords()}.`;
      $("processed-label").textContent = "This is how the runner heard it:";
    }
    $("sent-detail").textContent = played
      ? `${played}.`
      : `Prepared for the runner${message.durationSeconds ? ": " + formatClock(message.durationSeconds) + " long, trimmed and evened out" : ""}.`;
    if (!heardReady) {
      heardReady = true;
      announce(played ? `Your message was ${played.toLowerCase()}.` : "Your message is ready for the runner.");
      loadProcessedAudio();
    }
    return played ? "stop" : "slow";
  }
  if (message.status === "failed") {
    $("sent-heading").textContent = "Your message could not be prepared";
    $("sent-detail").textContent = "";
    $("sent").classList.add("is-failed");
    $("sent-text").textContent = "The runner will not hear this one. Please record it again.";
    $("failed-text").textContent = plainFailure(message.error);
    show($("failed"));
    $("again-button").textContent = "Record again";
    announce(`Your message could not be prepared. ${plainFailure(message.error)}`);
    return "stop";
  }
  return undefined;
}

/** The processed version, "as the runner will hear it"; it needs the sender token. */
async function loadProcessedAudio() {
  const slot = page.slot;
  if (!slot || !slot.senderToken) return;
  const result = await fetchAudioURL(slot.messageID, slot.senderToken);
  if (result.url) {
    $("processed-audio").src = result.url;
    show($("processed"));
  }
}

async function deleteMine() {
  const slot = page.slot;
  if (!slot || !slot.senderToken) return;
  $("delete-button").disabled = true;
  let result;
  try {
    result = await api(`/v1/messages/${encodeURIComponent(slot.messageID)}`, { token: slot.senderToken, method: "DELETE" });
  } catch {
    result = null;
  }
  $("delete-button").disabled = false;
  const note = $("delete-result");
  show(note);
  if (result && (result.ok || result.status === 204)) {
    if (page.stopFollowing) page.stopFollowing();
    await saved.clear(runID);
    note.textContent = "Your message was deleted; the runner will not hear it.";
    $("sent-heading").textContent = "Message deleted";
    show($("delete-button"), false);
    show($("processed"), false);
  } else if (result && result.missing) {
    note.textContent = "Deleting is not available on this server yet.";
  } else {
    note.textContent = result ? `It could not be deleted: ${result.reason}.` : "It could not be deleted: the connection failed.";
  }
  announce(note.textContent);
}

async function recordAnother() {
  if (page.stopFollowing) page.stopFollowing();
  page.stopFollowing = null;
  heardReady = false;
  await saved.clear(runID);
  page.slot = null;
  $("sent-heading").textContent = "Message sent";
  $("again-button").textContent = "Record another message";
  $("timer").textContent = "0:00";
  setPhase("idle");
  $("record-button").focus();
}

// ---------------------------------------------------------------------------------------
// What is on screen in each phase

function setPhase(phase) {
  page.phase = phase;
  const recordingNow = phase === "recording";
  const sent = phase === "sent";
  $("recorder").classList.toggle("is-recording", recordingNow);
  show($("details"), !sent);
  show($("recorder"), !sent);
  show($("sent"), sent);
  show($("preview"), phase === "recorded" || phase === "sending");
  show($("record-button"), !recordingNow);
  show($("stop-button"), recordingNow);
  if (!recordingNow) show($("countdown"), false);
  if (!recordingNow) show($("level-warning"), false);
  $("record-button").disabled = phase === "sending" || Boolean(microphone.unavailableReason());
  $("choose-file").disabled = recordingNow || phase === "sending";
  $("send-button").disabled = phase === "sending" || page.sendBlocked;
  const haveRecording = phase === "recorded" || phase === "sending";
  $("record-label").textContent = haveRecording ? "Record again" : "Record";
  // Re-recording is the secondary action once there is something to send.
  $("record-button").classList.toggle("button-record", !haveRecording);
  $("record-button").classList.toggle("button-secondary", haveRecording);
  $("recording-state").textContent = {
    idle: "Ready to record",
    recording: "Recording…",
    recorded: "Recorded",
    sending: "Sending…",
    sent: "Sent",
  }[phase] || "";
}

// ---------------------------------------------------------------------------------------
// Wiring

$("details").addEventListener("submit", (event) => event.preventDefault());
voicePlayer($("preview-audio"));
voicePlayer($("processed-audio"));
fixUnknownDuration($("preview-audio"));
$("marker-custom").addEventListener("input", typedMarkerChanged);
$("sender-name").addEventListener("input", () => {
  $("sender-name").removeAttribute("aria-invalid");
  $("sender-help").classList.remove("is-error");
  $("sender-help").textContent = "The runner hears who it is from. Remembered on this device.";
});
$("sender-name").addEventListener("change", () => {
  const name = $("sender-name").value.trim();
  if (name) localStorage.setItem(NAME_KEY, name);
});
$("record-button").addEventListener("click", startRecording);
$("stop-button").addEventListener("click", stopRecording);
$("choose-file").addEventListener("click", () => $("file-input").click());
$("file-input").addEventListener("change", fileChosen);
$("send-button").addEventListener("click", send);
$("retry-button").addEventListener("click", send);
$("again-button").addEventListener("click", recordAnother);
$("delete-button").addEventListener("click", deleteMine);
// Back online after a dropped upload: send again by itself, with the same key.
window.addEventListener("online", () => {
  if (page.phase === "recorded" && page.lastSendWasNetwork && page.slot && page.slot.blob) send();
});
window.addEventListener("beforeunload", (event) => {
  if (page.phase === "recording" || page.phase === "sending") event.preventDefault();
});

start();
