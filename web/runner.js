// The runner's page, /runs/{runID}#owner=…&invite=…: the run itself (Get ready, Start and the
// run screen, in run.js), the invite link to share, a timeline of the run with each message at
// its marker, and every message as a card that updates live.

import {
  $, showPageError, show, announce, api, follow, fragmentValue, runIDFromPath, formatDistance, formatClock,
  describeMarker, statusBadge, playedText, plainFailure, failureDetail, fetchAudioURL, voicePlayer,
  icon, CHECK_ICON, WARNING_ICON, element, who,
} from "./common.js";
import { setUpRun } from "./run.js";
import { renderTimeline, redrawOnResize } from "./runner-timeline.js";
import { setUpCourse, showMessagesOnCourse } from "./runner-course.js";
import { loadSession, rememberRun } from "./run-store.js";

const runID = runIDFromPath();
const ownerToken = fragmentValue("owner");
const INVITE_KEY = `voicemsg.invite.${runID}`;

const page = {
  run: null,
  cards: new Map(),
  statuses: new Map(),
  firstRender: true,
};

// ---------------------------------------------------------------------------------------
// Loading

async function start() {
  if (!runID || !ownerToken) {
    showPageError("Your run", "This link is missing its owner code",
      "Open the runner’s link you got when the run was created; it ends with #owner= and a long code.");
    return;
  }
  let result;
  try {
    result = await api(`/v1/runs/${encodeURIComponent(runID)}`, { token: ownerToken });
  } catch {
    result = null;
  }
  // Without the server, a run made ready on this phone goes on from what the phone kept.
  const session = loadSession(runID);
  if (!result && session) {
    page.run = session.run;
    showRun({ offline: true });
    await setUpRun({ runID, token: ownerToken, run: null, onScreenChange: showRunScreen });
    return;
  }
  if (!result) {
    showPageError("Your run", "The server could not be reached", "Check your connection and reload the page.");
    return;
  }
  if (!result.ok) {
    showPageError("Your run", result.status === 401 || result.status === 403 ? "This link does not open the run" : "The run could not be loaded",
      result.reason);
    return;
  }
  page.run = result.json;
  rememberRun({
    id: runID, ownerToken, inviteToken: fragmentValue("invite"), title: page.run.title,
    plannedDistanceMeters: page.run.plannedDistanceMeters, runnerName: page.run.runnerName,
  });
  showRun();
  const phase = loadSession(runID) && loadSession(runID).phase;
  setUpCourse({
    runID, token: ownerToken, run: page.run, locked: phase === "active" || phase === "finished",
    onChange: () => drawTimeline(shownMessages()),
  });
  await setUpRun({ runID, token: ownerToken, run: page.run, onScreenChange: showRunScreen });
  follow(`/v1/runs/${encodeURIComponent(runID)}/messages`, {
    token: ownerToken,
    onChange: (body) => render(body.messages || []),
    onTrouble: (text) => {
      $("list-trouble").textContent = text || "";
      show($("list-trouble"), Boolean(text));
    },
  });
}

function showRun({ offline = false } = {}) {
  const run = page.run;
  document.title = `Messages for ${run.title}`;
  $("run-title").textContent = run.title;
  $("run-distance").textContent = run.plannedDistanceMeters
    ? `Planned distance ${formatDistance(run.plannedDistanceMeters)}`
    : "No planned distance";
  $("timeline-end").textContent = run.plannedDistanceMeters ? `Finish ${formatDistance(run.plannedDistanceMeters)}` : "";
  show($("loading"), false);
  page.offline = offline;
  showRunScreen(false);
}

/** The run screen replaces the page's planning parts while the run is on, and gives them back. */
function showRunScreen(running) {
  if (!running) showInvite();
  show($("invite"), !running && !page.offline);
  show($("timeline-card"), !running && !page.offline);
  show($("list"), !running && !page.offline);
  show($("offline-note"), page.offline && !running);
}

// ---------------------------------------------------------------------------------------
// The invite link. The server keeps only a hash of the invite token, so the page can show
// the link only when the runner's own link carried it (`&invite=…`); it is then remembered.

function showInvite() {
  let invite = fragmentValue("invite");
  try {
    if (invite) localStorage.setItem(INVITE_KEY, invite);
    else invite = localStorage.getItem(INVITE_KEY);
  } catch {
    // Storage is off: the link shows only while the fragment carries the code.
  }
  show($("invite-known"), Boolean(invite));
  show($("invite-unknown"), !invite);
  if (invite) $("invite-link").value = `${window.location.origin}/r/${encodeURIComponent(runID)}#invite=${encodeURIComponent(invite)}`;
}

async function copyInvite() {
  const input = $("invite-link");
  let copied = false;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(input.value);
      copied = true;
    } catch {
      copied = false;
    }
  }
  if (!copied) {
    input.focus();
    input.select();
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  const button = $("copy-button");
  button.textContent = copied ? "Copied" : "Select and copy";
  announce(copied ? "Invite link copied." : "Copying failed; the link is selected, copy it by hand.");
  setTimeout(() => { button.textContent = "Copy"; }, 2500);
}

// ---------------------------------------------------------------------------------------
// Rendering the messages

function render(messages) {
  const list = $("messages");
  const seen = new Set();
  for (const message of messages) {
    seen.add(message.id);
    let card = page.cards.get(message.id);
    if (!card) {
      card = makeCard(message);
      page.cards.set(message.id, card);
    }
    updateCard(card, message);
  }
  for (const [id, card] of page.cards) {
    if (!seen.has(id)) {
      card.root.remove();
      page.cards.delete(id);
    }
  }
  // The server's order is marker order. Only nodes out of place move, so audio that is
  // playing in a card goes on playing.
  let previous = null;
  for (const message of messages) {
    const node = page.cards.get(message.id).root;
    const expected = previous ? previous.nextElementSibling : list.firstElementChild;
    if (expected !== node) list.insertBefore(node, expected);
    previous = node;
  }
  drawTimeline(messages);
  showMessagesOnCourse(messages);
  renderSummary(messages);
  announceChanges(messages);
  show($("empty"), messages.length === 0);
}

function makeCard(message) {
  const root = element("li", "message-card");
  root.id = `msg-${message.id}`;
  root.tabIndex = -1;
  const head = element("div", "message-head");
  const tag = element("span", "distance-tag");
  const sender = element("span", "sender");
  const badge = element("span", "badge");
  head.append(tag, sender, badge);
  const meta = element("p", "message-meta");
  const played = element("p", "played-line");
  const playedText = element("span");
  played.append(icon(CHECK_ICON), playedText);
  const failure = element("div", "error-state");
  const failureBody = element("div", "error-body");
  const failureText = element("span");
  const failureDetails = element("p", "details");
  failureBody.append(failureText, failureDetails);
  failure.append(icon(WARNING_ICON), failureBody);
  const buttons = element("div", "button-row");
  const play = element("button", "button button-primary button-small", "Play");
  play.type = "button";
  const remove = element("button", "button button-secondary button-small", "Delete");
  remove.type = "button";
  buttons.append(play, remove);
  const confirm = element("div", "confirm");
  confirm.setAttribute("role", "group");
  const confirmText = element("p");
  const confirmButtons = element("div", "button-row");
  const confirmYes = element("button", "button button-destructive button-small", "Delete");
  confirmYes.type = "button";
  const confirmNo = element("button", "button button-secondary button-small", "Keep it");
  confirmNo.type = "button";
  confirmButtons.append(confirmYes, confirmNo);
  confirm.append(confirmText, confirmButtons);
  confirm.hidden = true;
  const audio = voicePlayer(element("audio"));
  audio.hidden = true;
  const note = element("p", "help");
  note.hidden = true;
  root.append(head, meta, played, failure, audio, buttons, confirm, note);

  const card = {
    root, tag, sender, badge, meta, played, playedText, failure, failureText, failureDetails,
    play, remove, confirm, confirmText, confirmYes, confirmNo, audio, note, message,
  };
  play.addEventListener("click", () => loadAndPlay(card));
  remove.addEventListener("click", () => {
    show(card.confirm);
    card.confirmYes.focus();
  });
  confirmNo.addEventListener("click", () => {
    show(card.confirm, false);
    card.remove.focus();
  });
  confirmYes.addEventListener("click", () => deleteMessage(card));
  return card;
}

function updateCard(card, message) {
  card.message = message;
  const where = formatDistance(message.markerMeters);
  card.tag.textContent = where;
  card.sender.textContent = who(message);
  const badge = statusBadge(message);
  card.badge.className = `badge ${badge.cls}`;
  card.badge.replaceChildren();
  if (badge.cls === "badge-played") card.badge.append(icon(CHECK_ICON));
  card.badge.append(badge.text);
  // The Distance Tag says where; a relative marker also says what it was ("halfway").
  const meta = /^\d+(\.\d+)?m$/.test(message.marker) ? [] : [describeMarker(message.marker, message.markerMeters)];
  if (message.durationSeconds) meta.push(formatClock(message.durationSeconds));
  if (message.status === "queued") meta.push("waiting to be prepared");
  if (message.status === "processing") meta.push("being prepared");
  card.meta.textContent = meta.join(" · ");
  const played = playedText(message);
  card.playedText.textContent = played || "";
  show(card.played, Boolean(played));
  card.root.classList.toggle("is-played", Boolean(played));
  const failed = message.status === "failed";
  show(card.failure, failed);
  if (failed) {
    card.failureText.textContent = plainFailure(message.error, { forSender: false });
    card.failureDetails.textContent = message.error ? `Details: ${failureDetail(message)}` : "";
  }
  // Once the message is loaded its player shows, with its own play and pause: one control.
  const ready = message.status === "ready";
  show(card.play, ready && !card.audio.src);
  const label = `${who(message)}’s message at ${where}`;
  card.play.setAttribute("aria-label", `${card.play.textContent} ${label}`);
  card.audio.setAttribute("aria-label", label);
  card.remove.setAttribute("aria-label", `Delete ${label}`);
  card.confirmText.textContent = `Delete ${label}? The runner will not hear it.`;
}

async function loadAndPlay(card) {
  card.play.disabled = true;
  card.play.textContent = "Loading…";
  const result = await fetchAudioURL(card.message.id, ownerToken);
  card.play.disabled = false;
  card.play.textContent = "Play";
  if (!result.url) {
    note(card, `It could not be played: ${result.reason}.`);
    return;
  }
  card.audio.src = result.url;
  show(card.audio);
  show(card.play, false);
  card.audio.focus();
  card.audio.play().catch(() => {});
}

function note(card, text) {
  card.note.textContent = text;
  show(card.note, Boolean(text));
  if (text) announce(text);
}

async function deleteMessage(card) {
  const message = card.message;
  card.confirmYes.disabled = true;
  let result;
  try {
    result = await api(`/v1/messages/${encodeURIComponent(message.id)}`, { token: ownerToken, method: "DELETE" });
  } catch {
    result = null;
  }
  card.confirmYes.disabled = false;
  show(card.confirm, false);
  if (result && result.ok) {
    const where = formatDistance(message.markerMeters);
    card.root.remove();
    page.cards.delete(message.id);
    page.statuses.delete(message.id);
    const remaining = shownMessages();
    drawTimeline(remaining);
    renderSummary(remaining);
    show($("empty"), remaining.length === 0);
    announce(`Deleted ${who(message)}’s message at ${where}.`);
    $("list-heading").focus();
    return;
  }
  card.remove.focus();
  if (result && result.missing) note(card, "Deleting is not available on this server yet.");
  else note(card, result ? `It could not be deleted: ${result.reason}.` : "It could not be deleted: the connection failed.");
}

/** The messages the cards show now. */
function shownMessages() {
  return Array.from(page.cards.values(), (card) => card.message);
}

/** The timeline of `messages`; a point, tapped, brings its card into view. */
function drawTimeline(messages) {
  renderTimeline($("timeline"), messages, page.run.plannedDistanceMeters, (message) => {
    const card = page.cards.get(message.id);
    if (card) {
      card.root.scrollIntoView({ block: "center", behavior: "smooth" });
      card.root.focus({ preventScroll: true });
    }
  });
}

function renderSummary(messages) {
  const count = (test) => messages.filter(test).length;
  const ready = count((m) => m.status === "ready");
  const pending = count((m) => m.status === "queued" || m.status === "processing");
  const failed = count((m) => m.status === "failed");
  const played = count((m) => playedText(m));
  const parts = [`${ready} ready`];
  if (played) parts.push(`${played} played`);
  if (pending) parts.push(`${pending} being prepared`);
  if (failed) parts.push(`${failed} failed`);
  $("summary").textContent = messages.length ? parts.join(" · ") : "";
}

/** Tells screen readers when a message becomes ready or fails (not on the first load). */
function announceChanges(messages) {
  const news = [];
  for (const message of messages) {
    const before = page.statuses.get(message.id);
    if (!page.firstRender && before !== message.status) {
      if (message.status === "ready") news.push(`${who(message)}’s message at ${formatDistance(message.markerMeters)} is ready.`);
      if (message.status === "failed") news.push(`${who(message)}’s message at ${formatDistance(message.markerMeters)} failed.`);
      if (before === undefined && message.status !== "ready" && message.status !== "failed") {
        news.push(`New message from ${who(message)}.`);
      }
    }
    page.statuses.set(message.id, message.status);
  }
  page.firstRender = false;
  if (news.length) announce(news.join(" "));
}

redrawOnResize($("timeline"), () => {
  if (page.run) drawTimeline(shownMessages());
});
$("copy-button").addEventListener("click", copyInvite);
$("list-heading").tabIndex = -1;
start();
