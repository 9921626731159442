#!/usr/bin/env bash
# The hot paths, measured by the Benchmarks/ package (ordo-one/benchmark, built in release in
# Benchmarks/.build): fixes per second through the tracker and the scheduler, GPX parsing and a
# marathon replay, K-weighting and the loudness meter, and the limiter. Prints every figure,
# then checks the allocation counts against Benchmarks/Thresholds: they are the same on every
# run, so a change there is a change in the code. After a change that is meant, record them:
#     make bench-thresholds
# Time is printed, not checked: on a shared machine it moves by more than any tolerance.
# Usage: scripts/bench-hot-paths.sh [--update-thresholds]
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}

if [ "${1:-}" = --update-thresholds ]; then
    exec "$swift" package --allow-writing-to-package-directory benchmark thresholds update \
        --metric mallocCountTotal --no-progress
fi

"$swift" package --allow-writing-to-package-directory benchmark baseline update make-bench --no-progress
"$swift" package benchmark baseline read make-bench --no-progress
# The plugin fails the same way for better and for worse; only its message tells them apart.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if "$swift" package benchmark thresholds check make-bench --no-progress 2>&1 | tee "$log"; then
    echo "bench: allocations as in Benchmarks/Thresholds"
elif grep -q benchmarkThresholdImprovement "$log" && ! grep -q benchmarkThresholdRegression "$log"; then
    echo "bench: fewer allocations than Benchmarks/Thresholds; record them with make bench-thresholds"
else
    echo "bench: allocations differ from Benchmarks/Thresholds (see above)" >&2
    exit 1
fi
