// Preview and sending, on the recording page: the recording heard back, then sent with its
// progress and its Idempotency-Key, and every way that can fail said in words.

import { $, show, announce, formatClock, formatBytes } from "./common.js";
import * as saved from "./saved-recording.js";
import { NAME_KEY, runID, inviteToken, page, setPhase } from "./record-state.js";
import { currentMarker, markerRefused } from "./record-marker.js";
import { showSent } from "./record-sent.js";

let previewURL = null;

/**
 * WebM from MediaRecorder carries no duration, so Chrome's player shows no length and cannot
 * seek. Seeking far past the end once makes the browser find the real end; then back to 0.
 */
export function fixUnknownDuration(audio) {
  audio.addEventListener("loadedmetadata", () => {
    if (audio.duration !== Infinity) return;
    audio.addEventListener("timeupdate", () => { audio.currentTime = 0; }, { once: true });
    audio.currentTime = 1e6;
  });
}

export function showRecorded(slot, { restored = false } = {}) {
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

export async function send() {
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
