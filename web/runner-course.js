// The run's course on the runner's page: its outline with every message at its marker, and the
// runner's way to give, replace or remove it until the run starts (the server then keeps it
// fixed, as the tracker on the phone follows it).

import { $, show, announce, formatDistance, who } from "./common.js";
import { readGPX, courseLine } from "./course.js";
import { drawOutline } from "./course-outline.js";
import { sendCourse, removeCourse, takeCourseProblem } from "./course-upload.js";

const view = { runID: null, token: null, run: null, messages: [], line: null, locked: false, onChange: () => {} };

/**
 * Sets up the course's part of the page. `locked` when the run has started on this phone;
 * `onChange(course)` hears of a course given, replaced (the course) or removed (null).
 */
export function setUpCourse({ runID, token, run, locked, onChange }) {
  Object.assign(view, { runID, token, run, locked, onChange });
  $("course-choose").addEventListener("click", () => $("course-input").click());
  $("course-input").addEventListener("change", chosen);
  $("course-remove").addEventListener("click", removed);
  const problem = takeCourseProblem(runID);
  if (problem) say(`The course you chose was not kept: ${problem}. Choose it again, or another.`);
  render();
}

/** Draws the course again with these messages on it. */
export function showMessagesOnCourse(messages) {
  view.messages = messages;
  render();
}

function render() {
  const course = view.run && view.run.course;
  view.line = course && course.points && course.points.length >= 2 ? courseLine(course.points) : null;
  show($("course-preview"), Boolean(view.line));
  show($("course-controls"), !view.locked);
  $("course-choose").textContent = view.line ? "Replace the course" : "Add the course (GPX)";
  show($("course-remove"), Boolean(view.line));
  if (!view.line) return;
  const marks = view.messages.filter((m) => m.status !== "failed").map((m) => ({
    meters: m.markerMeters, kind: m.playedAtMeters != null ? "played" : "message",
    label: `${who(m)}, ${formatDistance(m.markerMeters)}`,
  }));
  drawOutline($("course-outline"), view.line, {
    marks, label: `The course, ${formatDistance(course.lengthMeters)}, with ${marks.length} message${marks.length === 1 ? "" : "s"} on it`,
  });
  $("course-caption").textContent = `The course, ${formatDistance(course.lengthMeters)}: each dot is a message at its point.`;
}

function say(text) {
  $("course-error").textContent = text || "";
  show($("course-error"), Boolean(text));
  if (text) announce(text);
}

async function chosen() {
  const file = $("course-input").files[0];
  $("course-input").value = "";
  if (!file) return;
  say(null);
  const text = await file.text().catch(() => null);
  const read = text == null ? { reason: "The file could not be read." } : readGPX(text);
  if (read.reason) {
    say(read.reason);
    return;
  }
  $("course-choose").disabled = true;
  const sent = await sendCourse(view.runID, view.token, text);
  $("course-choose").disabled = false;
  if (!sent.ok) {
    say(`The course was not kept: ${sent.reason}.`);
    return;
  }
  view.run.course = sent.course;
  render();
  view.onChange(sent.course);
  announce(`Course kept: ${formatDistance(sent.course.lengthMeters)}.`);
}

async function removed() {
  $("course-remove").disabled = true;
  const result = await removeCourse(view.runID, view.token);
  $("course-remove").disabled = false;
  if (!result.ok) {
    say(`The course could not be removed: ${result.reason}.`);
    return;
  }
  view.run.course = null;
  render();
  view.onChange(null);
  announce("The course was removed.");
}
