#!/bin/sh
# Playback benchmark: builds the Playback sources with -O into a small executable (no C
# libraries needed) and prints tracker+scheduler throughput and a marathon's simulate time.
# Usage: scripts/bench-playback.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
swiftc=$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)
out=${TMPDIR:-/tmp}/voicemsg-bench-playback
"$swiftc" -O -wmo -module-name PlaybackBench -o "$out" \
    "$root"/Sources/AudioPipeline/AudioPipelineError.swift \
    "$root"/Sources/AudioPipeline/Messages/DistanceMarker.swift \
    "$root"/Sources/AudioPipeline/Playback/*.swift \
    "$root"/scripts/bench-playback/main.swift
"$out"
