// A run's course on the pages: its points read from a GPX file (the plan page shows the outline
// and the length before the server has the file), the distance along it, and the place at a
// distance. The server reads the file again by the same rules and keeps its own copy, simplified;
// on the run, RunTracking follows it (web/tracking.js).

/** What the server accepts, as it says in its refusals (docs/api.md). */
export const COURSE_LIMITS = { minMeters: 100, maxMeters: 1_000_000, maxPoints: 200_000 };

const EARTH_RADIUS = 6_371_008.8;
const radians = (degrees) => (degrees * Math.PI) / 180;

/** Metres between two [latitude, longitude] points, on a sphere: plenty for an outline. */
export function metersBetween(a, b) {
  const dLat = radians(b[0] - a[0]);
  const dLon = radians(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a[0])) * Math.cos(radians(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The course in a GPX file's text: its track (the segments joined, in order) or else its route,
 * without repeated points. Returns `{ points }` ([[latitude, longitude], …]) or `{ reason }` in
 * words a runner can act on. It reads a file as the server will: points that are no place on
 * Earth are left out, and the track is the course whenever it has a point.
 */
export function readGPX(text) {
  const notGPX = { reason: "This file is not a GPX file. Export the course as GPX (a track or a route) and choose it again." };
  // GPX is XML, which begins with "<" (after a byte-order mark or spaces), as the server checks.
  // A file that does not (a watch's FIT file, a JSON export) is refused unparsed: Chromium's XML
  // parser answers malformed XML with an error block whose inline style the pages' Content
  // Security Policy blocks: a harmless notice in the console, which malformed XML still gives.
  if (!/^\uFEFF?\s*</.test(text)) return notGPX;
  const doc = new DOMParser().parseFromString(text, "application/xml");
  if (doc.getElementsByTagName("parsererror").length || doc.documentElement.localName !== "gpx") return notGPX;
  let leftOut = 0;
  let unreadable = false;
  const places = (tag) => {
    const found = [];
    for (const node of doc.getElementsByTagNameNS("*", tag)) {
      const point = ["lat", "lon"].map((name) => {
        const value = (node.getAttribute(name) ?? "").trim();
        return value === "" ? NaN : Number(value);
      });
      if (Number.isNaN(point[0]) || Number.isNaN(point[1])) unreadable = true;
      else if (Math.abs(point[0]) <= 90 && Math.abs(point[1]) <= 180) found.push(point);
      else leftOut += 1;
    }
    return found;
  };
  // Both are read, as the server reads the whole file: a route point it cannot read is refused.
  const track = places("trkpt");
  const route = places("rtept");
  const chosen = track.length ? track : route;
  if (unreadable) return { reason: "This GPX file has a point without a latitude and longitude in numbers." };
  if (chosen.length > COURSE_LIMITS.maxPoints) {
    return { reason: `This course has ${chosen.length.toLocaleString()} points; up to ${COURSE_LIMITS.maxPoints.toLocaleString()} are accepted.` };
  }
  const points = [];
  for (const point of chosen) {
    const last = points[points.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1]) points.push(point);
  }
  if (points.length < 2) {
    const impossible = leftOut ? ` (${leftOut} of its points ${leftOut === 1 ? "is" : "are"} not a place on Earth)` : "";
    return { reason: `This GPX file has no course in it: no track or route with two or more places${impossible}.` };
  }
  const line = courseLine(points);
  if (line.length < COURSE_LIMITS.minMeters) return { reason: "This course is shorter than 100 m." };
  if (line.length > COURSE_LIMITS.maxMeters) return { reason: "This course is longer than 1000 km." };
  return { points };
}

/** The points with the distance along the course at each: `{ points, along, length }`. */
export function courseLine(points) {
  const along = new Float64Array(points.length);
  for (let i = 1; i < points.length; i++) along[i] = along[i - 1] + metersBetween(points[i - 1], points[i]);
  return { points, along, length: points.length ? along[points.length - 1] : 0 };
}

/** The [latitude, longitude] at `meters` along the course, clamped to its ends. */
export function placeAt(line, meters) {
  const { points, along } = line;
  if (meters <= 0) return points[0];
  if (meters >= line.length) return points[points.length - 1];
  let low = 0;
  let high = along.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (along[middle] <= meters) low = middle;
    else high = middle;
  }
  const span = along[high] - along[low];
  const share = span > 0 ? (meters - along[low]) / span : 0;
  const a = points[low];
  const b = points[high];
  return [a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share];
}
