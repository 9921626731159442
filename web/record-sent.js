// After sending, on the recording page: the message followed live until it is ready (or why
// it failed, in plain words), the processed version to hear, and when the runner heard it.

import { $, show, announce, api, follow, formatClock, statusBadge, playedText, plainFailure, fetchAudioURL } from "./common.js";
import * as saved from "./saved-recording.js";
import { runID, inviteToken, page, setPhase } from "./record-state.js";
import { markerWords } from "./record-marker.js";

/** "Thank you, Ann!", or "Thank you!" when the sender gave no name. */
function thanks(sender) {
  return `Thank you${sender ? ", " + sender : ""}!`;
}

export function showSent(slot, { restored }) {
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

export async function deleteMine() {
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

export async function recordAnother() {
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
