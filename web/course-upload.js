// A run's course sent to the server (PUT /v1/runs/{id}/course, the owner's token), from the plan
// page or the runner's page, and what to say when the server would not keep it.

import { api } from "./common.js";

const problemKey = (runID) => `voicemsg.course-problem.${runID}`;

/** Sends the GPX text; resolves to `{ ok: true, course }` or `{ ok: false, reason }`. */
export async function sendCourse(runID, token, gpxText) {
  let result;
  try {
    result = await api(`/v1/runs/${encodeURIComponent(runID)}/course`, {
      token, method: "PUT", headers: { "Content-Type": "application/gpx+xml" }, body: gpxText,
    });
  } catch {
    return { ok: false, reason: "the server could not be reached" };
  }
  if (result.ok && result.json && result.json.course) return { ok: true, course: result.json.course };
  return { ok: false, reason: result.missing ? "this server does not keep courses" : result.reason };
}

/** Removes the run's course; resolves to `{ ok }` or `{ ok: false, reason }`. */
export async function removeCourse(runID, token) {
  let result;
  try {
    result = await api(`/v1/runs/${encodeURIComponent(runID)}/course`, { token, method: "DELETE" });
  } catch {
    return { ok: false, reason: "the server could not be reached" };
  }
  return result.ok || result.status === 204 ? { ok: true } : { ok: false, reason: result.reason };
}

/** Leaves word for the runner's page that the course chosen on the plan page was not kept. */
export function noteCourseProblem(runID, reason) {
  try {
    sessionStorage.setItem(problemKey(runID), reason);
  } catch {
    // Without storage the runner's page simply shows no course.
  }
}

/** The word left by `noteCourseProblem`, once. */
export function takeCourseProblem(runID) {
  try {
    const reason = sessionStorage.getItem(problemKey(runID));
    sessionStorage.removeItem(problemKey(runID));
    return reason;
  } catch {
    return null;
  }
}
