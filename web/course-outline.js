// A course drawn as an SVG outline from its points: no map tiles, so the pages work offline and
// send nobody's position to a third party. North is up; the course fills the drawing, which
// keeps its shape (one metre is as long across as up and down).

import { placeAt } from "./course.js";

const SVG = "http://www.w3.org/2000/svg";
/** The drawing's width in its own units; its height follows the course's shape. */
const WIDTH = 320;
const MARGIN = 14;

function node(tag, attributes) {
  const shape = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) shape.setAttribute(name, String(value));
  return shape;
}

/** Projects [latitude, longitude] onto the drawing: a local flat map around the course. */
function projection(points) {
  let south = Infinity;
  let north = -Infinity;
  let west = Infinity;
  let east = -Infinity;
  for (const [lat, lon] of points) {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lon);
    east = Math.max(east, lon);
  }
  const across = Math.cos(((south + north) / 2) * (Math.PI / 180));
  const spanX = Math.max((east - west) * across, 1e-9);
  const spanY = Math.max(north - south, 1e-9);
  // A long thin course (an out-and-back on one road) still gets some height to draw in.
  const height = Math.min(WIDTH * 1.25, Math.max(WIDTH * 0.35, ((WIDTH - 2 * MARGIN) * spanY) / spanX + 2 * MARGIN));
  const scale = Math.min((WIDTH - 2 * MARGIN) / spanX, (height - 2 * MARGIN) / spanY);
  const offsetX = (WIDTH - spanX * scale) / 2;
  const offsetY = (height - spanY * scale) / 2;
  return {
    height,
    at: ([lat, lon]) => [offsetX + (lon - west) * across * scale, offsetY + (north - lat) * scale],
  };
}

/**
 * Draws `line` (course.js's `courseLine`) into `svg`, replacing what was there: the outline, its
 * start and finish, a dot for each of `marks` (`{ meters, kind, label, number }`; `kind` is a
 * class: "message", "next" or "played"; a `number` is written in a larger dot) and, when
 * `runner` is a distance, the runner's place there. `label` names the drawing for screen readers.
 * Returns `update({ marks, runner, label })`, which moves the dots and leaves the outline as it
 * is: the run screen moves them every second.
 */
export function drawOutline(svg, line, { marks = [], runner = null, label = "The course" } = {}) {
  const { at, height } = projection(line.points);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${height.toFixed(1)}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const path = line.points.map((point, i) => {
    const [x, y] = at(point);
    return `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`;
  }).join("");
  svg.append(node("path", { d: path, class: "course-line" }));
  const circle = ([x, y], className, radius) =>
    node("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: radius, class: className });
  const dot = (point, className, radius) => circle(at(point), className, radius);
  svg.append(dot(line.points[0], "course-start", 5), dot(line.points[line.points.length - 1], "course-finish", 5));
  const dots = node("g", { class: "course-dots" });
  svg.append(dots);
  const update = (what) => {
    dots.replaceChildren();
    for (const mark of what.marks || []) {
      const [x, y] = at(placeAt(line, mark.meters));
      const radius = mark.number != null ? 12 : mark.kind === "next" ? 6 : 4.5;
      const markDot = circle([x, y], `course-mark is-${mark.kind || "message"}`, radius);
      if (mark.label) markDot.append(Object.assign(document.createElementNS(SVG, "title"), { textContent: mark.label }));
      dots.append(markDot);
      if (mark.number != null) {
        // A number in the dot, which the list beside the drawing repeats: the dots are told
        // apart where markers fall close together, and the one at the finish is not lost
        // in the finish's own circle.
        const number = node("text", { x: x.toFixed(1), y: y.toFixed(1), class: "course-mark-number", "aria-hidden": "true" });
        number.textContent = String(mark.number);
        dots.append(number);
      }
    }
    if (what.runner != null) dots.append(dot(placeAt(line, what.runner), "course-runner", 7));
    if (what.label) svg.setAttribute("aria-label", what.label);
  };
  update({ marks, runner });
  return update;
}
