// The recording page's state, shared by its parts (record.js and record-*.js): the run, the
// point chosen, the recording on hand, and the phase the page is in.

import { $, show, fragmentValue, runIDFromPath } from "./common.js";
import * as microphone from "./microphone.js";

export const NAME_KEY = "voicemsg.senderName";

export const runID = runIDFromPath();

export const inviteToken = fragmentValue("invite");

export const page = {
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
export const recording = {
  session: null,
  ticker: null,
  lastHeard: 0,
  announced: new Set(),
  stoppedAtLimit: false,
};

export function setPhase(phase) {
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
