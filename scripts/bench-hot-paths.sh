#!/usr/bin/env bash
# The hot paths, measured by the Benchmarks/ package (ordo-one/benchmark, built in release in
# Benchmarks/.build): fixes per second through the tracker and the scheduler, GPX parsing and a
# marathon replay, K-weighting and the loudness meter, and the limiter. Prints every figure,
# then checks the allocation counts against Benchmarks/Thresholds/<toolchain>, where
# <toolchain> is the Swift compiler's major.minor version (as swift-nio keys its thresholds):
# the counts are the same on every run with one compiler, and move with the compiler and its
# runtime, so a change within one folder is a change in the code. After a change that is
# meant, or on a new compiler, record them:
#     make bench-thresholds
# Time is printed, not checked: on a shared machine it moves by more than any tolerance.
# Usage: scripts/bench-hot-paths.sh [--update-thresholds]
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}

# "Swift version 6.3.1 (swift-6.3.1-RELEASE)" or "Apple Swift version 6.2 (…)": 6.3, 6.2.
toolchain=$("$swift" --version 2>/dev/null | sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -n 1)
if [ -z "$toolchain" ]; then
    echo "bench: cannot tell the Swift version from \`$swift --version\`" >&2
    exit 1
fi
thresholds="Thresholds/$toolchain"

if [ "${1:-}" = --update-thresholds ]; then
    mkdir -p "$thresholds"
    exec "$swift" package --allow-writing-to-package-directory benchmark thresholds update \
        --metric mallocCountTotal --path "$thresholds" --no-progress
fi

"$swift" package --allow-writing-to-package-directory benchmark baseline update make-bench --no-progress
"$swift" package benchmark baseline read make-bench --no-progress
if [ ! -d "$thresholds" ]; then
    echo "bench: no allocation counts recorded for Swift $toolchain in Benchmarks/$thresholds;" \
        "record them with make bench-thresholds" >&2
    exit 1
fi
# The plugin fails the same way for better and for worse; only its message tells them apart.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if "$swift" package benchmark thresholds check make-bench --path "$thresholds" --no-progress 2>&1 | tee "$log"; then
    echo "bench: allocations as in Benchmarks/$thresholds"
elif grep -q benchmarkThresholdImprovement "$log" && ! grep -q benchmarkThresholdRegression "$log"; then
    echo "bench: fewer allocations than Benchmarks/$thresholds; record them with make bench-thresholds"
else
    echo "bench: allocations differ from Benchmarks/$thresholds (see above)" >&2
    exit 1
fi
