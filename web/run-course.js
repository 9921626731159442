// The course on the run screen: a small outline beside the Progress Indicator with the runner's
// place and the next messages, and "Off course" said plainly while the tracker finds the runner
// off it (the distance then waits, and no message plays, until they are back on it).

import { $, show, formatDistance, who } from "./common.js";
import { state } from "./run-state.js";
import { courseLine } from "./course.js";
import { drawOutline } from "./course-outline.js";

/** How many of the messages still to come the outline shows. */
const NEXT_SHOWN = 3;

let update = null;

/** Draws the run's course, when it has one, on the run screen; once a run. */
export function drawRunCourse() {
  const course = state.session && state.session.course;
  show($("run-course"), Boolean(course));
  update = course ? drawOutline($("run-course-outline"), courseLine(course.points), { label: "The course", scale: false }) : null;
}

/**
 * The runner's place and the next messages on the outline. Returns where the runner is:
 * "off" the course, "before the start" (Start was pressed in the start's pen or on a warm-up,
 * and the distance begins where the runner reaches the start, as RunTracking's CourseTracker
 * has it; nothing is wrong, so it is not said as a warning), or "on" it, as on every run
 * without a course.
 */
export function renderRunCourse() {
  const tracker = state.tracker;
  const off = Boolean(update && tracker && tracker.offCourse);
  const where = !off ? "on" : tracker.beforeStart ? "before the start" : "off";
  document.body.classList.toggle("is-off-course", where === "off");
  if (!update) return where;
  const messages = state.session.messages;
  const next = messages.map((message, number) => ({ message, number }))
    .filter(({ number }) => !state.started.has(number)).slice(0, NEXT_SHOWN);
  const place = tracker ? tracker.courseMeters : null;
  update({
    runner: off && tracker.leftCourseAt != null ? tracker.leftCourseAt : place,
    marks: next.map(({ message }, i) => ({
      meters: message.markerMeters, kind: i === 0 ? "next" : "message",
      label: `${who(message)} at ${formatDistance(message.markerMeters)}`,
    })),
    label: place == null ? "The course" : `The course: you are at ${formatDistance(place)}${next.length
      ? `; next, ${who(next[0].message)} at ${formatDistance(next[0].message.markerMeters)}` : ""}`,
  });
  return where;
}
