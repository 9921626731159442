#!/usr/bin/env node
// Replays runs through web/run-tracking.wasm, by way of the page's own web/tracking.js, the way
// PlaybackReplay replays them natively: before each fix, the end of the message playing and the
// scheduler's wake-up, in time order; after the last fix, the finish and every message left.
// The Swift test that compares the two builds (WasmTrackerTests) writes the runs and reads the
// answers; `--bench` times fixes per second instead.
//
//   node scripts/wasm-replay.mjs web/run-tracking.wasm runs.json > answers.json
//   node scripts/wasm-replay.mjs web/run-tracking.wasm runs.json --bench
//
// runs.json: [{"plannedDistance": m|null, "markers": [m…], "durations": [s…],
//              "fixes": [[t, lat, lon, accuracy|null, speed|null]…], "course": [[lat, lon]…]|null}…]
// answers:   [{"meters": [m per fix…], "offCourse": [0|1 per fix…], "beforeStart": [0|1 per fix…],
//              "starts": [{"number", "reason", "time", "fix", "meters"}…]}…]
import fs from "node:fs";
import path from "node:path";
import url from "node:url";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const { loadTracker } = await import(url.pathToFileURL(path.join(here, "..", "web", "tracking.js")).href);

const [wasmPath, runsPath, mode] = process.argv.slice(2);
if (!wasmPath || !runsPath) {
  console.error("usage: wasm-replay.mjs RUN-TRACKING.wasm RUNS.json [--bench]");
  process.exit(64);
}
const bytes = fs.readFileSync(wasmPath);
const runs = JSON.parse(fs.readFileSync(runsPath, "utf8"));
const tracker = await loadTracker(bytes);

/** One run, as the host of PlaybackReplay plays it: messages last `durations`, timers fire on time. */
function replay(run) {
  tracker.start({ markers: run.markers, plannedDistance: run.plannedDistance, course: run.course ?? null });
  const meters = [];
  const offCourse = [];
  const beforeStart = [];
  const starts = [];
  let playing = null;
  let fixIndex = -1;
  const answered = (number, time) => {
    if (number < 0) return;
    starts.push({ number, reason: tracker.reason, time, fix: fixIndex, meters: tracker.reckonedMeters(time) });
    playing = { number, end: time + run.durations[number] };
  };
  const catchUp = (time) => {
    for (;;) {
      if (playing && playing.end <= time) {
        const { number, end } = playing;
        playing = null;
        answered(tracker.playbackFinished(number, end), end);
      } else if (tracker.wakeUp !== null && tracker.wakeUp <= time) {
        const wake = tracker.wakeUp;
        answered(tracker.tick(wake), wake);
      } else {
        return;
      }
    }
  };
  let last = -Infinity;
  for (const [time, latitude, longitude, accuracy, speed] of run.fixes) {
    fixIndex += 1;
    catchUp(time);
    const number = tracker.fix(time, latitude, longitude, accuracy, speed);
    meters.push(tracker.meters);
    offCourse.push(tracker.offCourse ? 1 : 0);
    beforeStart.push(tracker.beforeStart ? 1 : 0);
    last = Math.max(last, time);
    answered(number, time);
  }
  answered(tracker.finish(last), last);
  while (!tracker.isComplete) {
    const before = tracker.startedCount;
    const wasPlaying = playing;
    catchUp(Infinity);
    if (tracker.startedCount === before && playing === wasPlaying && tracker.wakeUp === null) break;
  }
  return { meters, offCourse, beforeStart, starts };
}

if (mode === "--bench") {
  // Every fix through the tracker and the scheduler, as the page sends them.
  let fixes = 0;
  const started = process.hrtime.bigint();
  for (const run of runs) {
    replay(run);
    fixes += run.fixes.length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(JSON.stringify({ fixes, seconds, fixesPerSecond: fixes / seconds }));
} else {
  process.stdout.write(JSON.stringify(runs.map(replay)));
}
