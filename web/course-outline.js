// A course drawn as an SVG outline from its points: no map tiles, so the pages work offline and
// send nobody's position to a third party. North is up, as an arrow in a corner says; the course
// fills the drawing, which keeps its shape (one metre is as long across as up and down), and a
// scale bar beside the arrow says how long a stretch of it is.

import { metersBetween, placeAt } from "./course.js";
import { formatDistance } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
/** The drawing's width in its own units; its height follows the course's shape. */
const WIDTH = 320;
const MARGIN = 14;

function node(tag, attributes) {
  const shape = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) shape.setAttribute(name, String(value));
  return shape;
}

/** `shape` with `text` as its tooltip and its name for screen readers, when there is one. */
function titled(shape, text) {
  if (text) shape.append(Object.assign(document.createElementNS(SVG, "title"), { textContent: text }));
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
    unitsPerMeter: scale / metersBetween([0, 0], [1, 0]),
    at: ([lat, lon]) => [offsetX + (lon - west) * across * scale, offsetY + (north - lat) * scale],
  };
}

/**
 * A scale bar, so that the drawing says how far its stretches are, with a north arrow beside it:
 * a round length (1, 2 or 5 times a power of ten metres) about a quarter of the drawing's width,
 * in whichever corner lies farthest from the course, so that it crosses the line as little as it
 * can. `unitsPerPixel` is how many of the drawing's units one CSS pixel on the screen holds: the
 * label, the ticks and the arrow keep one size on the screen however large the drawing is shown.
 */
function legend(drawn, height, unitsPerMeter, unitsPerPixel) {
  const most = (WIDTH * 0.28) / unitsPerMeter;
  const power = 10 ** Math.floor(Math.log10(most));
  const meters = [5, 2, 1].map((step) => step * power).find((length) => length <= most);
  const length = meters * unitsPerMeter;
  const [inset, tick, text, arrow, gap] = [6, 4, 12, 9, 8].map((pixels) => pixels * unitsPerPixel);
  const tall = tick + text * 1.4;
  // The north arrow stands left of the bar: together they are `wide` across.
  const wide = arrow + gap + length;
  const corners = [
    [inset, height - inset],
    [WIDTH - inset - wide, height - inset],
    [inset, inset + tall],
    [WIDTH - inset - wide, inset + tall],
  ];
  // How near the course comes to the arrow, the bar and its label, placed at a corner.
  const nearest = ([x, y]) => {
    let near = Infinity;
    for (const [px, py] of drawn) {
      const dx = px < x ? x - px : px > x + wide ? px - x - wide : 0;
      const dy = py > y ? py - y : py < y - tall ? y - tall - py : 0;
      near = Math.min(near, Math.hypot(dx, dy));
    }
    return near;
  };
  const clearances = corners.map(nearest);
  const [left, y] = corners[clearances.indexOf(Math.max(...clearances))];
  const drawing = node("g", { class: "course-legend", "aria-hidden": "true" });

  // North: an arrowhead over an "N", as tall as the bar and its label.
  const middle = left + arrow / 2;
  const north = node("g", { class: "course-north" });
  const head = y - tall;
  north.append(node("path", {
    d: `M${middle.toFixed(1)} ${head.toFixed(1)}L${(left + arrow).toFixed(1)} ${(head + arrow).toFixed(1)}`
      + `H${left.toFixed(1)}Z`,
  }));
  const letter = node("text", {
    x: middle.toFixed(1), y: y.toFixed(1), "font-size": text.toFixed(1), "stroke-width": (3 * unitsPerPixel).toFixed(2),
  });
  letter.textContent = "N";
  north.append(letter);

  const x = left + arrow + gap;
  const bar = node("g", { class: "course-scale" });
  const top = (y - tick).toFixed(1);
  bar.append(node("path", {
    d: `M${x.toFixed(1)} ${top}V${y.toFixed(1)}H${(x + length).toFixed(1)}V${top}`,
    "stroke-width": (1.5 * unitsPerPixel).toFixed(2),
  }));
  const label = node("text", {
    x: (x + length / 2).toFixed(1), y: (y - tick - text * 0.3).toFixed(1),
    "font-size": text.toFixed(1), "stroke-width": (3 * unitsPerPixel).toFixed(2),
  });
  label.textContent = formatDistance(meters);
  bar.append(label);
  drawing.append(north, bar);
  return drawing;
}

/** Each drawing's way to draw its legend again, for the one ResizeObserver it has. */
const redrawLegend = new WeakMap();
const resized = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => { for (const entry of entries) redrawLegend.get(entry.target)?.(); })
  : null;

/**
 * Draws the legend (the scale bar and north arrow) once the drawing is laid out, and again
 * whenever its size on the screen changes (shown, or the phone turned): its size in the
 * drawing's units depends on that.
 */
function keepLegend(svg, drawn, height, unitsPerMeter) {
  const draw = () => {
    svg.querySelector(".course-legend")?.remove();
    const box = svg.getBoundingClientRect();
    if (!box.width || !box.height) return;
    // The drawing is fitted into its box keeping its shape, so the tighter side decides.
    const unitsPerPixel = Math.max(WIDTH / box.width, height / box.height);
    svg.insertBefore(legend(drawn, height, unitsPerMeter, unitsPerPixel), svg.querySelector(".course-dots"));
  };
  const first = !redrawLegend.has(svg);
  redrawLegend.set(svg, draw);
  if (first && resized) resized.observe(svg);
  else draw();
}

/** The radius of a numbered dot, in the drawing's units. */
const NUMBERED_RADIUS = 12;
/** About how wide a character of a dot's number is (14 units, bold, in app.css): a shared dot
 * is made wide enough for its numbers. */
const NUMBER_CHARACTER_WIDTH = 8.5;

/**
 * The numbered dots in groups that would cover one another: each joins the first group whose
 * first dot is nearer than two dots' width, so a group is drawn where its first dot lies.
 */
function nearTogether(dots) {
  const groups = [];
  for (const dot of dots) {
    const near = groups.find(([first]) =>
      Math.hypot(first.place[0] - dot.place[0], first.place[1] - dot.place[1]) < 2 * NUMBERED_RADIUS + 2);
    if (near) near.push(dot);
    else groups.push([dot]);
  }
  return groups;
}

/** [1, 2] as "1, 2"; [4, 5, 6, 9] as "4–6, 9". */
function numberList(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts = [];
  for (let start = 0; start < sorted.length;) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end += 1;
    if (end - start >= 2) parts.push(`${sorted[start]}–${sorted[end]}`);
    else for (let i = start; i <= end; i += 1) parts.push(String(sorted[i]));
    start = end + 1;
  }
  return parts.join(", ");
}

/**
 * Draws `line` (course.js's `courseLine`) into `svg`, replacing what was there: the outline, its
 * start and finish, a dot for each of `marks` (`{ meters, kind, label, number }`; `kind` is a
 * class: "message", "next" or "played"; a `number` is written in a larger dot, and numbered dots
 * that would cover one another share one) and, when `runner` is a distance, the runner's place
 * there; a scale bar and north arrow unless `scale` is false (a drawing too small to read them).
 * `label` names the drawing for screen readers.
 * Returns `update({ marks, runner, label })`, which moves the dots and leaves the outline as it
 * is: the run screen moves them every second.
 */
export function drawOutline(svg, line, { marks = [], runner = null, label = "The course", scale = true } = {}) {
  const { at, height, unitsPerMeter } = projection(line.points);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${height.toFixed(1)}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const drawn = line.points.map(at);
  const path = drawn.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`).join("");
  svg.append(node("path", { d: path, class: "course-line" }));

  const circle = ([x, y], className, radius) =>
    node("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: radius, class: className });
  const dot = (point, className, radius) => circle(at(point), className, radius);
  svg.append(dot(line.points[0], "course-start", 5), dot(line.points[line.points.length - 1], "course-finish", 5));
  const dots = node("g", { class: "course-dots" });
  svg.append(dots);
  if (scale) keepLegend(svg, drawn, height, unitsPerMeter);
  const update = (what) => {
    dots.replaceChildren();
    const numbered = [];
    for (const mark of what.marks || []) {
      const place = at(placeAt(line, mark.meters));
      if (mark.number != null) {
        numbered.push({ mark, place });
        continue;
      }
      const radius = mark.kind === "next" ? 6 : 4.5;
      dots.append(titled(circle(place, `course-mark is-${mark.kind || "message"}`, radius), mark.label));
    }
    for (const group of nearTogether(numbered)) {
      // A number in the dot, which the list beside the drawing repeats, so that the one at
      // the finish is not lost in the finish's own circle. Dots that would cover one another
      // (two messages 100 m apart on a marathon's outline) are drawn as one, wide enough for
      // all their numbers: "2, 3", "4–6".
      const [x, y] = group[0].place;
      const text = numberList(group.map(({ mark }) => mark.number));
      const width = Math.max(2 * NUMBERED_RADIUS, text.length * NUMBER_CHARACTER_WIDTH + 14);
      const className = `course-mark is-${group[0].mark.kind || "message"}`;
      const label = group.map(({ mark }) => mark.label).filter(Boolean).join("; ");
      dots.append(titled(group.length === 1
        ? circle([x, y], className, NUMBERED_RADIUS)
        : node("rect", {
          x: (x - width / 2).toFixed(1), y: (y - NUMBERED_RADIUS).toFixed(1), width: width.toFixed(1),
          height: 2 * NUMBERED_RADIUS, rx: NUMBERED_RADIUS, class: className,
        }), label));
      const number = node("text", { x: x.toFixed(1), y: y.toFixed(1), class: "course-mark-number", "aria-hidden": "true" });
      number.textContent = text;
      dots.append(number);
    }
    if (what.runner != null) dots.append(dot(placeAt(line, what.runner), "course-runner", 7));
    if (what.label) svg.setAttribute("aria-label", what.label);
  };
  update({ marks, runner });
  return update;
}
