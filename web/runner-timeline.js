// The runner's page's timeline: each message at its marker along the run, as the design
// system's Progress Indicator with points on it.

import { formatDistance, statusBadge, element, who } from "./common.js";

/**
 * The width of a timeline point's target (px), as `.timeline-point` and `--lane-height` in
 * app.css: points closer than this go on another lane.
 */
const TIMELINE_TARGET_PX = 44;

/** The timeline's width (px) when its lanes were last laid out. */
let timelineDrawnWidth = 0;

/**
 * Draws each message at its marker along the run. Points closer than a fingertip's target
 * (markers 1 km apart near the finish of a marathon, on a phone) hang on lanes below the
 * track, each with a stem to its place on it, so every point can still be tapped alone.
 */
export function renderTimeline(list, messages, planned, onPick) {
  list.replaceChildren();
  const furthest = Math.max(0, ...messages.map((m) => m.markerMeters || 0));
  const scale = planned || Math.max(1000, furthest * 1.1);
  const width = list.clientWidth;
  timelineDrawnWidth = width;
  // The right end of the last point on each lane, in px.
  const laneEnds = [];
  const laneFor = (share) => {
    if (width === 0) return 0;
    const at = share * width;
    let lane = laneEnds.findIndex((end) => at - end >= TIMELINE_TARGET_PX);
    if (lane === -1) {
      lane = laneEnds.length;
      laneEnds.push(at);
    } else {
      laneEnds[lane] = at;
    }
    return lane;
  };
  const ordered = [...messages].sort((a, b) => (a.markerMeters || 0) - (b.markerMeters || 0));
  for (const message of ordered) {
    const item = element("li");
    const link = element("a", "timeline-point");
    link.href = `#msg-${message.id}`;
    const badge = statusBadge(message);
    const state = badge.cls.replace("badge-", "");
    if (state === "played") link.classList.add("is-played");
    if (state === "failed") link.classList.add("is-failed");
    if (state === "queued" || state === "processing") link.classList.add("is-pending");
    const share = Math.min(1, Math.max(0, (message.markerMeters || 0) / scale));
    link.style.setProperty("--at", `${(share * 100).toFixed(2)}%`);
    const lane = laneFor(share);
    if (lane > 0) {
      link.style.setProperty("--lane", String(lane));
      link.classList.add("is-stacked");
    }
    const text = `${who(message)}, ${formatDistance(message.markerMeters)}, ${badge.text.toLowerCase()}`;
    link.setAttribute("aria-label", text);
    link.title = text;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      onPick(message);
    });
    item.append(link);
    list.append(item);
  }
  list.parentElement.style.setProperty("--lanes", String(Math.max(1, laneEnds.length)));
}

/**
 * Calls `redraw` when the timeline's width changes (a phone turned, a window resized): its lanes
 * depend on it. In the next frame, not in the observer's callback: a redraw can change the
 * timeline's height (more lanes), and a size changed inside the callback is a "ResizeObserver
 * loop" error that the browser reports as the page's own.
 */
export function redrawOnResize(list, redraw) {
  new ResizeObserver(() => {
    requestAnimationFrame(() => {
      if (list.clientWidth !== timelineDrawnWidth) redraw();
    });
  }).observe(list);
}

