// The plan-a-run page, `/`: a title, a target distance, the runner's name and, if the runner has
// it, the race's course become a run, and the runner goes on to its page with the invite link
// ready to share. The runs planned on this device are listed under the form, each with its state.

import { $, show, announce, api, formatDistance } from "./common.js";
import { onRunsChanged, rememberedRuns, rememberRun, runnerLink, runPhase } from "./run-store.js";
import { readGPX, courseLine } from "./course.js";
import { drawOutline } from "./course-outline.js";
import { sendCourse, noteCourseProblem } from "./course-upload.js";

const NAME_KEY = "voicemsg.runner-name";

/** The course chosen on this page: the file's text and what it reads as. */
let course = null;

/** Reads the chosen GPX file, draws it, and makes the target distance its length. */
async function courseChosen() {
  const file = $("course-input").files[0];
  $("course-input").value = "";
  if (!file) return;
  show($("course-error"), false);
  const text = await file.text().catch(() => null);
  const read = text == null ? { reason: "The file could not be read." } : readGPX(text);
  if (read.reason) {
    $("course-error").textContent = read.reason;
    show($("course-error"));
    announce(read.reason);
    return;
  }
  const line = courseLine(read.points);
  course = { text, line, name: file.name };
  drawOutline($("course-outline"), line, { label: `The course of ${file.name}, ${formatDistance(line.length)}` });
  $("course-caption").textContent = `${file.name}: ${formatDistance(line.length)}`;
  show($("course-preview"));
  show($("course-remove"));
  $("course-choose").textContent = "Choose another GPX file";
  // The target distance becomes the course's length; the runner may type another.
  $("distance-other").checked = true;
  show($("distance-typed-field"));
  $("distance-typed").value = String(Math.round(line.length / 10) / 100);
  $("distance-help").textContent = "The course’s length. Type another distance to place “halfway” and “1 km before the finish” from it instead.";
  announce(`Course chosen: ${formatDistance(line.length)}.`);
}

function courseRemoved() {
  course = null;
  show($("course-preview"), false);
  show($("course-remove"), false);
  $("course-choose").textContent = "Choose a GPX file";
  $("distance-help").textContent = "Messages for “halfway” or “1 km before the finish” are placed from it.";
  $("course-choose").focus();
}

/** The planned distance in metres from the chips or the typed kilometres, or a reason. */
function plannedDistance() {
  const chosen = document.querySelector('input[name="distance"]:checked');
  if (!chosen) return { reason: "Choose a target distance." };
  if (chosen.value !== "other") return { meters: Number(chosen.value) };
  const typed = $("distance-typed").value.trim().replace(",", ".");
  const km = Number(typed);
  if (!typed || !Number.isFinite(km) || km <= 0) return { reason: "Type the distance in kilometres, such as 15 or 12.5." };
  if (km > 1000) return { reason: "A run of more than 1000 km cannot be planned here." };
  return { meters: Math.round(km * 1000 * 100) / 100 };
}

/** What a refusal means for the person planning, in words. */
function refusal(result) {
  if (result.status === 429) {
    return "Too many runs were planned from this network in the last minute. Wait a minute, then press Create run again.";
  }
  if (result.status === 401 || result.status === 403) {
    return "This server lets only its administrator plan runs. Ask whoever runs it for a run link.";
  }
  if (result.status === 400) return `The server did not accept the run: ${result.reason}.`;
  if (result.missing) return "This server cannot create runs.";
  return `The server could not create the run (${result.reason}). Try again in a moment.`;
}

function problem(text) {
  $("plan-error-text").textContent = text ? " " + text : "";
  show($("plan-error"), Boolean(text));
  if (text) announce(text);
}

async function create(event) {
  event.preventDefault();
  problem(null);
  const title = $("run-title-input").value.trim();
  const titleInput = $("run-title-input");
  titleInput.setAttribute("aria-invalid", String(!title));
  if (!title) {
    problem("Give the run a title, so friends know which run they record for.");
    titleInput.focus();
    return;
  }
  const distance = plannedDistance();
  if (distance.reason) {
    problem(distance.reason);
    ($("distance-other").checked ? $("distance-typed") : $("distance-other")).focus();
    return;
  }
  const runnerName = $("runner-name").value.trim();
  try {
    localStorage.setItem(NAME_KEY, runnerName);
  } catch {
    // Storage is off: the name is simply not remembered.
  }
  const button = $("create-button");
  button.disabled = true;
  button.textContent = "Creating…";
  let result;
  try {
    result = await api("/v1/runs", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ title, plannedDistanceMeters: distance.meters, runnerName }),
    });
  } catch {
    result = null;
  }
  button.disabled = false;
  button.textContent = "Create run";
  if (!result) {
    problem("The server could not be reached. Check your connection and try again.");
    return;
  }
  if (!result.ok) {
    problem(refusal(result));
    return;
  }
  const run = {
    id: result.json.id, ownerToken: result.json.ownerToken, inviteToken: result.json.inviteToken,
    title, plannedDistanceMeters: distance.meters, runnerName, createdAt: Date.now(),
  };
  rememberRun(run);
  if (course) {
    button.textContent = "Sending the course…";
    const sent = await sendCourse(run.id, run.ownerToken, course.text);
    // The run exists either way: its page says why the course was not kept, and takes another.
    if (!sent.ok) noteCourseProblem(run.id, sent.reason);
  }
  window.location.assign(runnerLink(run));
}

const PHASE_BADGES = {
  created: { text: "Created", cls: "badge-ready" },
  active: { text: "Active", cls: "badge-processing" },
  completed: { text: "Completed", cls: "badge-played" },
};

function listRuns() {
  const runs = rememberedRuns();
  const list = $("run-list");
  list.replaceChildren();
  for (const run of runs) {
    const item = document.createElement("li");
    item.className = "message-card run-item";
    const head = document.createElement("div");
    head.className = "message-head";
    const link = document.createElement("a");
    link.className = "sender run-link";
    link.href = runnerLink(run);
    link.textContent = run.title;
    const phase = PHASE_BADGES[runPhase(run.id)];
    const badge = document.createElement("span");
    badge.className = `badge ${phase.cls}`;
    badge.textContent = phase.text;
    head.append(link, badge);
    const meta = document.createElement("p");
    meta.className = "message-meta";
    const planned = run.plannedDistanceMeters ? formatDistance(run.plannedDistanceMeters) : "no planned distance";
    meta.textContent = `${planned} · planned ${new Date(run.createdAt).toLocaleDateString()}`;
    item.append(head, meta);
    list.append(item);
  }
  show($("your-runs"), runs.length > 0);
}

for (const radio of document.querySelectorAll('input[name="distance"]')) {
  radio.addEventListener("change", () => {
    const other = $("distance-other").checked;
    show($("distance-typed-field"), other);
    if (other) $("distance-typed").focus();
  });
}
try {
  $("runner-name").value = localStorage.getItem(NAME_KEY) || "";
} catch {
  // Storage is off: the field starts empty.
}
$("plan").addEventListener("submit", create);
$("course-choose").addEventListener("click", () => $("course-input").click());
$("course-input").addEventListener("change", courseChosen);
$("course-remove").addEventListener("click", courseRemoved);
listRuns();
onRunsChanged(listRuns);
