#!/bin/sh
# Playback benchmark: builds the RunTracking and GPXReplay sources with -O into one small
# executable and prints tracker+scheduler throughput and a marathon's simulate time.
# Usage: scripts/bench-playback.sh
#
# The sources are compiled as one module, as they were before the package was split, so the
# figures stay comparable and the hot loop is optimised across the tracker and the scheduler;
# the `import RunTracking` lines that the split added are dropped from a copy for that.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
swiftc=$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)
out=${TMPDIR:-/tmp}/voicemsg-bench-playback
work=$(mktemp -d "${TMPDIR:-/tmp}/voicemsg-bench-playback.XXXXXX")
trap 'rm -rf "$work"' EXIT
for file in "$root"/Sources/RunTracking/*.swift "$root"/Sources/GPXReplay/*.swift "$root"/scripts/bench-playback/main.swift; do
    sed -e '/^import RunTracking$/d' -e '/^import GPXReplay$/d' "$file" > "$work/$(basename "$file")"
done
# GPX reading on libexpat goes through a system-library module, when the package has one.
cflags=""
if [ -d "$root/Sources/CExpat" ]; then cflags="-I $root/Sources/CExpat -lexpat"; fi
# shellcheck disable=SC2086
"$swiftc" -O -wmo -module-name PlaybackBench $cflags -o "$out" "$work"/*.swift
"$out"
