// The point on the run where the message plays, on the recording page: a preset, or a typed
// point the server checks as it would check the upload, and said back in words.

import { $, api, formatDistance, describeMarker } from "./common.js";
import { runID, inviteToken, page } from "./record-state.js";
import { courseLine } from "./course.js";
import { drawOutline } from "./course-outline.js";

export function choosePreset(input) {
  $("marker-custom").value = "";
  $("marker-custom").removeAttribute("aria-invalid");
  setMarker({ text: input.value, canonical: input.dataset.canonical, meters: Number(input.dataset.meters) });
}

function setMarker(marker) {
  page.marker = marker;
  const help = $("marker-help");
  help.classList.remove("is-error");
  help.classList.add("is-resolved");
  help.textContent = `Plays at ${formatDistance(marker.meters)} (${describeMarker(marker.canonical, marker.meters)}).`;
  showOnCourse(marker);
}

/**
 * The run's course, when the runner gave one, with a dot where the chosen point lies: the friend
 * sees that 15 km is on the hill after the bridge.
 */
export function showOnCourse(marker) {
  const course = page.run && page.run.course;
  if (!course || !course.points || course.points.length < 2) return;
  page.courseLine = page.courseLine || courseLine(course.points);
  const where = marker ? `${formatDistance(marker.meters)} (${describeMarker(marker.canonical, marker.meters)})` : null;
  drawOutline($("course-outline"), page.courseLine, {
    marks: marker ? [{ meters: marker.meters, kind: "next", label: `Your message plays here, at ${where}` }] : [],
    label: where ? `The course, ${formatDistance(course.lengthMeters)}, with your message’s point at ${where}` : `The course, ${formatDistance(course.lengthMeters)}`,
  });
  $("course-caption").textContent = where
    ? `The course: your message plays at the dot, ${where}.`
    : `The course, ${formatDistance(course.lengthMeters)}: pick a point to see where it lies.`;
  $("course-preview").hidden = false;
}

export function markerRefused(reason) {
  page.marker = null;
  const help = $("marker-help");
  help.classList.remove("is-resolved");
  help.classList.add("is-error");
  help.textContent = reason;
  $("marker-custom").setAttribute("aria-invalid", "true");
  showOnCourse(null);
}

let markerTimer = 0;

export function typedMarkerChanged() {
  const text = $("marker-custom").value.trim();
  for (const radio of document.querySelectorAll('input[name="preset"]')) radio.checked = false;
  clearTimeout(markerTimer);
  page.marker = null;
  $("marker-custom").removeAttribute("aria-invalid");
  const help = $("marker-help");
  help.classList.remove("is-error", "is-resolved");
  if (!text) {
    help.textContent = "Pick a point above, or type one: a distance, a percentage, “halfway” or “finish”.";
    return;
  }
  help.textContent = "Checking…";
  markerTimer = setTimeout(() => resolveTyped(text), 350);
}

/** Asks the server where the typed point lies; it refuses with the upload's own words. */
export async function resolveTyped(text) {
  const check = ++page.markerCheck;
  let result;
  try {
    result = await api(`/v1/runs/${encodeURIComponent(runID)}/markers/resolve?marker=${encodeURIComponent(text)}`,
      { token: inviteToken });
  } catch {
    if (check === page.markerCheck) markerRefused("Could not check this point: the connection failed.");
    return null;
  }
  if (check !== page.markerCheck) return null;
  if (result.ok) {
    const marker = { text, canonical: result.json.canonical, meters: result.json.meters };
    setMarker(marker);
    return marker;
  }
  markerRefused(result.missing ? "This server cannot check typed points yet; pick one above." : result.reason);
  return null;
}

export function restoreChoices(slot) {
  if (slot.sender) $("sender-name").value = slot.sender;
  if (!slot.marker) return;
  const radio = Array.from(document.querySelectorAll('input[name="preset"]')).find((r) => r.value === slot.marker);
  if (radio) {
    radio.checked = true;
    choosePreset(radio);
  } else {
    $("marker-custom").value = slot.marker;
    resolveTyped(slot.marker);
  }
}

/** The chosen point, checking a typed one first; null (with the reason shown) when there is none. */
export async function currentMarker() {
  const typed = $("marker-custom").value.trim();
  if (typed) {
    clearTimeout(markerTimer);
    if (page.marker && page.marker.text === typed) return page.marker;
    return resolveTyped(typed);
  }
  if (page.marker) return page.marker;
  const help = $("marker-help");
  help.classList.add("is-error");
  help.textContent = "Pick where on the run your message should play.";
  return null;
}

/** Where the message plays, in words: "at 21.1 km (halfway)". */
export function markerWords() {
  return page.marker
    ? `at ${formatDistance(page.marker.meters)} (${describeMarker(page.marker.canonical, page.marker.meters)})`
    : "at the point you chose";
}
