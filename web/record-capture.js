// Recording on the recording page: the microphone (and what to say when there is none), the
// timer, the level, the countdown near the length limit, and a recording chosen as a file.

import { $, show, announce, formatClock, randomKey } from "./common.js";
import * as microphone from "./microphone.js";
import * as saved from "./saved-recording.js";
import { decodeLength } from "./decoding.js";
import { runID, page, recording, setPhase } from "./record-state.js";
import { showRecorded } from "./record-send.js";

// The countdown shows in the last 30 s, or the last half of a shorter limit.
const COUNTDOWN_SECONDS = 30;
const SILENCE_DB = -50;
const SILENCE_WARNING_MS = 3000;
/** How long this browser has to decode a recording for its length. */
const DECODE_MS = 10000;

export function checkMicrophoneSupport() {
  const reason = microphone.unavailableReason();
  if (reason) microphoneProblem(reason);
}

const MIC_PROBLEMS = {
  insecure: ["The microphone needs a secure connection",
    "This page was opened over plain http from another computer, and browsers only lend the microphone to https pages (or to localhost). Ask the runner for an https link, or choose a recording you made with your phone’s voice recorder."],
  unsupported: ["This browser cannot record here",
    "On an iPhone, recording in a page needs iOS 14.3 or later; elsewhere, a recent Safari, Chrome or Firefox. Or choose a recording you made with your phone’s voice recorder (Voice Memos on an iPhone)."],
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

/** "10 minutes", "1 minute", "45 seconds", "1:30". */
export function describeLength(seconds) {
  const whole = Math.floor(seconds);
  if (whole >= 60 && whole % 60 === 0) return `${whole / 60} minute${whole === 60 ? "" : "s"}`;
  if (whole < 60) return `${whole} second${whole === 1 ? "" : "s"}`;
  return formatClock(whole);
}

export async function startRecording() {
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

export function stopRecording() {
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

export async function fileChosen() {
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
