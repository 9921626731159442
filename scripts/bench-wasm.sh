#!/usr/bin/env bash
# Fixes per second through the tracker and the scheduler: the runner's page's WebAssembly build
# (web/run-tracking.wasm, in Node, through web/tracking.js) against the native build (-O), on
# the same runs, in one run of this script; then the same for the course tracker on a marathon
# course of 100,000 places, and the native course tracker alone. Each build replays every run three times; the best
# of the three is printed, as the least disturbed by the rest of the machine.
#   scripts/bench-wasm.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
swiftc=$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)
work=$(mktemp -d "${TMPDIR:-/tmp}/voicemsg-bench-wasm.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Twelve 10 km runs at 3 m/s, a fix a second, along a winding line, with Gauss-Markov error
# (σ 4 m, τ 30 s) and a phone's Doppler speed: the kind of run the page sees.
python3 - "$work/runs.json" <<'PY'
import json, math, random, sys
runs = []
for seed in range(12):
    rng = random.Random(seed)
    fixes, t, along = [], 1_700_000_000.0, 0.0
    east_error = north_error = 0.0
    heading = rng.uniform(0, 2 * math.pi)
    east = north = 0.0
    decay = math.exp(-1 / 30)
    while along < 10_000:
        heading += rng.gauss(0, 0.05)
        east += 3 * math.cos(heading)
        north += 3 * math.sin(heading)
        along += 3
        east_error = decay * east_error + math.sqrt(1 - decay * decay) * rng.gauss(0, 4)
        north_error = decay * north_error + math.sqrt(1 - decay * decay) * rng.gauss(0, 4)
        lat = 47.37 + (north + north_error) / 111_132.954
        lon = 8.54 + (east + east_error) / (111_319.488 * math.cos(math.radians(47.37)))
        fixes.append([t, lat, lon, 5.0, max(0.0, 3 + rng.gauss(0, 0.1))])
        t += 1
    markers = [m * 1000.0 for m in range(1, 10)] + [10_000.0]
    runs.append({"plannedDistance": 10_000.0, "markers": markers, "durations": [5.0] * len(markers), "fixes": fixes})
json.dump(runs, open(sys.argv[1], "w"))
PY

# The course tracker's runs: a 42.2 km course drawn with 100,000 places (every 42 cm), winding,
# and four runs along it at 3 m/s, a fix a second, with the same error and Doppler speed.
python3 - "$work/course-runs.json" <<'PY'
import json, math, random, sys
length, count = 42_195.0, 100_000
step = length / (count - 1)
heading, east, north, places = 0.3, 0.0, 0.0, []
for index in range(count):
    places.append((east, north))
    heading += 0.004 * math.sin(index / 1500) + 0.002 * math.sin(index / 97)
    east += step * math.cos(heading)
    north += step * math.sin(heading)
cos_lat = math.cos(math.radians(47.37))
def place(east, north):
    return [47.37 + north / 111_132.954, 8.54 + east / (111_319.488 * cos_lat)]
course = [place(e, n) for e, n in places]
runs = []
for seed in range(4):
    rng = random.Random(100 + seed)
    fixes, t, along, decay = [], 1_700_000_000.0, 0.0, math.exp(-1 / 30)
    east_error = north_error = 0.0
    while along < length:
        index = min(int(along / step), count - 2)
        share = along / step - index
        e = places[index][0] + share * (places[index + 1][0] - places[index][0])
        n = places[index][1] + share * (places[index + 1][1] - places[index][1])
        east_error = decay * east_error + math.sqrt(1 - decay * decay) * rng.gauss(0, 4)
        north_error = decay * north_error + math.sqrt(1 - decay * decay) * rng.gauss(0, 4)
        fixes.append(place(e + east_error, n + north_error) + [5.0, max(0.0, 3 + rng.gauss(0, 0.1))])
        fixes[-1].insert(0, t)
        t += 1
        along += 3
    markers = [m * 1000.0 for m in range(1, 43)]
    runs.append({"plannedDistance": None, "markers": markers, "durations": [5.0] * len(markers), "fixes": fixes, "course": course})
json.dump(runs, open(sys.argv[1], "w"))
PY

# The native build: RunTracking's sources and the driver, as one module, optimised.
for file in "$root"/Sources/RunTracking/*.swift "$root"/scripts/tracker-bench/main.swift; do
    cp "$file" "$work/$(basename "$file")"
done
"$swiftc" -O -wmo -enable-experimental-feature Extern -module-name TrackerBench -o "$work/tracker-bench" \
    "$work"/*.swift

best() { python3 -c 'import json,sys; runs=[json.loads(l) for l in sys.stdin if l.strip()]; print(max(r["'"${1:-fixesPerSecond}"'"] for r in runs))'; }
native=$(for _ in 1 2 3; do "$work/tracker-bench" "$work/runs.json"; done | best)
wasm=$(for _ in 1 2 3; do node "$root/scripts/wasm-replay.mjs" "$root/web/run-tracking.wasm" "$work/runs.json" --bench; done | best)
for _ in 1 2 3; do "$work/tracker-bench" "$work/course-runs.json"; done > "$work/course-native.jsonl"
course_native=$(best < "$work/course-native.jsonl")
course_alone=$(best trackerFixesPerSecond < "$work/course-native.jsonl")
course_wasm=$(for _ in 1 2 3; do node "$root/scripts/wasm-replay.mjs" "$root/web/run-tracking.wasm" "$work/course-runs.json" --bench; done | best)
python3 - "$native" "$wasm" "$course_alone" "$course_native" "$course_wasm" <<'PY'
import sys
native, wasm, alone, course, course_wasm = map(float, sys.argv[1:])
print("tracker and scheduler, fixes per second (12 runs of 10 km at 1 Hz, best of 3):")
print(f"  native -O           {native:>12,.0f}")
print(f"  wasm in Node        {wasm:>12,.0f}   {wasm / native:.2f}x native")
print("course tracker on a 42.2 km course of 100,000 places, fixes per second (4 runs at 1 Hz, best of 3):")
print(f"  native -O, alone    {alone:>12,.0f}")
print(f"  native -O, with the scheduler {course:>12,.0f}")
print(f"  wasm in Node, with the scheduler {course_wasm:>12,.0f}   {course_wasm / course:.2f}x native")
PY
