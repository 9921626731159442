// The recording page, /r/{runID}#invite=…: pick a point on the run, record (or choose a
// file), preview, send with progress, and follow the message until the runner can hear it.
//
// Its parts: record-marker.js (the point on the run), record-capture.js (recording, or a file),
// record-send.js (preview and sending), record-sent.js (following the message), sharing
// record-state.js. This file loads the run and wires the page.

import { $, showPageError, show, api, formatDistance, voicePlayer } from "./common.js";
import * as saved from "./saved-recording.js";
import { NAME_KEY, runID, inviteToken, page, setPhase } from "./record-state.js";
import { choosePreset, typedMarkerChanged, restoreChoices, showOnCourse } from "./record-marker.js";
import { checkMicrophoneSupport, describeLength, startRecording, stopRecording, fileChosen } from "./record-capture.js";
import { fixUnknownDuration, showRecorded, send } from "./record-send.js";
import { showSent, deleteMine, recordAnother } from "./record-sent.js";

// ---------------------------------------------------------------------------------------
// Loading the run

async function start() {
  if (!runID || !inviteToken) {
    showPageError("Record a message", "This link is missing its invite code",
      "Ask the runner to send the link again; the whole link ends with #invite= and a long code.");
    return;
  }
  let result;
  try {
    result = await api(`/v1/runs/${encodeURIComponent(runID)}`, { token: inviteToken });
  } catch {
    showPageError("Record a message", "The server could not be reached", "Check your connection and reload the page.");
    return;
  }
  if (result.status === 401 || result.status === 403) {
    showPageError("Record a message", "This invite link does not work", "Ask the runner for a new link. (The server said: " + result.reason + ".)");
    return;
  }
  if (!result.ok) {
    showPageError("Record a message", "The run could not be loaded", result.reason);
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

function showRun() {
  const run = page.run;
  document.title = `Record a message for ${run.title}`;
  $("run-title").textContent = run.title;
  $("run-distance").textContent = run.plannedDistanceMeters
    ? `Planned distance ${formatDistance(run.plannedDistanceMeters)}`
    : "No planned distance: give your point as a distance from the start";
  renderPresets(run.presets || []);
  showOnCourse(null);
  $("sender-name").value = localStorage.getItem(NAME_KEY) || "";
  $("limit-help").textContent = `Up to ${describeLength(run.limits.maxSeconds)}.`;
  show($("loading"), false);
  show($("details"));
  show($("recorder"));
  checkMicrophoneSupport();
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
