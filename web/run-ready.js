// Get ready, on the runner's page: every message fetched, checked to decode in this browser (by
// Web Audio: decoding.js says why not by a player), in the first container its player plays, and
// kept on the phone with the page itself, so that a run with no signal still plays everything.

import { $, show, announce, api, formatDistance, who } from "./common.js";
import { loadTracker } from "./tracking.js";
import { saveSession, storeAudio } from "./run-store.js";
import { state, TRACKER_URL } from "./run-state.js";
import { setBadge } from "./run-screen.js";
import { decodeLength } from "./decoding.js";

const WORKER_URL = "/static/service-worker.js";
const WORKER_SCOPE = "/runs/";
/** How long this browser has to decode a file before it counts as unplayable here. */
const DECODE_CHECK_MS = 8000;

export function showRunCard() {
  show($("run-card"));
  setBadge($("run-badge"), "created");
  const session = state.session;
  if (session && session.phase === "ready") {
    summarizeReady(session.messages, session.problems || [], session.pending || 0);
  }
  updateStartButton();
}

export function summarizeReady(messages, problems, pending) {
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
export function startBlocker() {
  const session = state.session;
  if (!session || session.phase !== "ready") return "Get ready first: it puts the messages on this phone.";
  if (!session.messages.length) return "There is no message to play yet.";
  if (!("geolocation" in navigator)) return "This browser cannot tell the page where you are, so it cannot play messages along the run.";
  if (!window.isSecureContext) return "The page needs a secure (https) link to use your location.";
  return null;
}

export function updateStartButton() {
  const blocker = startBlocker();
  $("start-button").disabled = Boolean(blocker);
  $("start-help").textContent = blocker || "Press Start when you set off.";
}

export async function getReady() {
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
    throw new Error(`this browser could not run the distance tracker (${error.message}). On an iPhone, it needs iOS 16 or later.`);
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
  // The course goes with the messages: the run follows it with no signal too.
  const course = run.course && run.course.points && run.course.points.length >= 2 ? run.course : null;
  state.session = {
    phase: "ready", run: state.run, messages: prepared, problems, pending: manifest.json.pending || 0,
    preparedAt: Date.now(), course,
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
 * The containers the server can give, in the order a browser that plays them all should take
 * them (the smallest first), keeping those this browser's player says it can play: Safari plays
 * Ogg Opus from iOS 18.4 and WebM Opus from 17.4, and AAC in MP4 on every iPhone. Opus in CAF
 * plays in Apple's apps but not in a page's <audio>, so the page never asks for it.
 */
function containers() {
  const probe = document.createElement("audio");
  const all = [
    { query: "", type: "audio/ogg", probe: 'audio/ogg; codecs="opus"' },
    { query: "?container=webm", type: "audio/webm", probe: 'audio/webm; codecs="opus"' },
    { query: "?container=mp4", type: "audio/mp4", probe: 'audio/mp4; codecs="mp4a.40.2"' },
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
    const bytes = await response.arrayBuffer();
    const checked = await decodeLength(bytes, DECODE_CHECK_MS);
    if (checked.failure) {
      reason = checked.failure === "timeout" ? "this browser did not manage to open its audio" : "this browser cannot play its audio";
      continue;
    }
    try {
      await storeAudio(state.runID, message.id, new Blob([bytes], { type: container.type }));
    } catch {
      return { ok: false, reason: "the phone would not store it (is it out of space?)" };
    }
    return {
      ok: true,
      message: {
        id: message.id, sender: message.sender || null, marker: message.marker, markerMeters: message.markerMeters,
        durationSeconds: checked.seconds || message.durationSeconds, type: container.type,
      },
    };
  }
  return { ok: false, reason };
}

