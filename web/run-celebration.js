// The finish, on the runner's page: the design system's Completion Celebration with the run's
// summary: the distance, the time, the messages heard (who, and where each played) and, with a
// course, its outline with a numbered dot where each one played.

import { $, show, element, formatDistance, formatClock, who } from "./common.js";
import { state } from "./run-state.js";
import { courseLine } from "./course.js";
import { drawOutline } from "./course-outline.js";

/** Fills the celebration from the session; `meters` and `seconds` are the run's totals. */
export function renderCelebration(meters, seconds) {
  const messages = state.session.messages;
  const playedAt = state.session.playedAt || {};
  // Each message heard, with where it played (its marker where the page kept no place for it).
  const heard = messages.filter((message, number) => state.started.has(number))
    .map((message) => ({ message, meters: playedAt[message.id] ?? message.markerMeters }));
  $("finished-distance").textContent = formatDistance(meters);
  $("finished-time").textContent = formatClock(seconds);
  $("finished-count").textContent = `${heard.length} of ${messages.length}`;
  $("finished-text").textContent = `${heard.length} of ${messages.length} message${messages.length === 1 ? "" : "s"} played over ${formatDistance(meters)} in ${formatClock(seconds)}.`;
  const course = state.session.course;
  const list = $("finished-heard");
  list.replaceChildren();
  for (const [index, { message, meters: at }] of heard.entries()) {
    const item = element("li", "heard-item");
    // Numbered as the dots on the course's outline are, when there is one.
    if (course) item.append(element("span", "heard-number", String(index + 1)));
    item.append(element("span", "sender", who(message)), element("span", "distance-tag", formatDistance(at)));
    list.append(item);
  }
  show(list, heard.length > 0);
  show($("finished-course"), Boolean(course));
  if (course) {
    drawOutline($("finished-outline"), courseLine(course.points), {
      marks: heard.map(({ message, meters: at }, index) => ({
        meters: at, kind: "played", number: index + 1, label: `${who(message)}, played at ${formatDistance(at)}`,
      })),
      label: `The course, with where each of ${heard.length} message${heard.length === 1 ? "" : "s"} played`,
    });
  }
}
