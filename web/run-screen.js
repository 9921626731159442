// The run screen, on the runner's page: the design system's ActiveRunView, with its Stat Cards,
// the Progress Indicator and the Message Preview Bubbles, drawn from the tracker and the session.

import { $, show, formatDistance, formatClock, icon, CHECK_ICON, who } from "./common.js";
import { state, now, isRunning } from "./run-state.js";
import { drawRunCourse, renderRunCourse } from "./run-course.js";
import { renderCelebration } from "./run-celebration.js";

export function runSeconds(time) {
  const paused = state.pausedSeconds + (state.pausedAt !== null ? time - state.pausedAt : 0);
  return time - state.session.startedAt - paused;
}

export function enterRunScreen() {
  show($("run-card"), false);
  show($("run-screen"));
  document.body.classList.add("on-the-run");
  state.bubbleInView = -1;
  setBadge($("run-status-badge"), "active");
  buildBubbles();
  drawRunCourse();
  state.onScreenChange(true);
  clearInterval(state.clock);
  state.clock = setInterval(render, 1000);
  render();
}

const BADGES = {
  created: ["Created", "badge-ready"],
  active: ["Active", "badge-processing"],
  paused: ["Paused", "badge-queued"],
  offCourse: ["Off course", "badge-failed"],
  beforeStart: ["Not at the start", "badge-queued"],
  completed: ["Completed", "badge-played"],
};

/** The badge of a running run for where the runner is (run-course.js's `renderRunCourse`). */
const WHERE_BADGES = { on: "active", off: "offCourse", "before the start": "beforeStart" };

export function setBadge(element, phase) {
  const [text, cls] = BADGES[phase];
  element.textContent = text;
  element.className = `badge ${cls}`;
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

export function render() {
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
  const where = renderRunCourse();
  if (isRunning()) setBadge($("run-status-badge"), paused ? "paused" : WHERE_BADGES[where]);
  $("pause-button").textContent = paused ? "Resume" : "Pause";
  const playing = state.playing >= 0 ? state.session.messages[state.playing] : null;
  if (playing) $("now-playing").textContent = `Playing ${who(playing)}’s message (${formatDistance(playing.markerMeters)})`;
  else if (where === "before the start") {
    $("now-playing").textContent = "Not on the course yet: the distance begins where you reach its start.";
  } else if (where === "off") {
    $("now-playing").textContent = "Off course: the distance waits, and messages play when you are back on it.";
  } else if (isRunning()) $("now-playing").textContent = nextUp();
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
  if (state.session.finishedAt && !isRunning()) renderCelebration(meters, runSeconds(time));
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
