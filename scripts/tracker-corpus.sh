#!/bin/sh
# The tracker corpus of issue 12, built with -O from the test sources: prints each variant's
# distance error against its truth (the clean path's length), the message start farthest from
# its marker along the true path, and the corpus's median and worst error.
# Usage: scripts/tracker-corpus.sh [text a variant's description must contain]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
swiftc=$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)
out=${TMPDIR:-/tmp}/voicemsg-tracker-corpus
work=$(mktemp -d "${TMPDIR:-/tmp}/voicemsg-tracker-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
# One module, so the `import` lines between the package's modules are dropped from a copy.
for file in "$root"/Sources/RunTracking/*.swift "$root"/Sources/GPXReplay/*.swift \
    "$root"/Tests/TestSupport/SeededGenerator.swift "$root"/Tests/GPXReplayTests/CleanPath.swift \
    "$root"/Tests/GPXReplayTests/Corpus/*.swift "$root"/scripts/tracker-corpus/main.swift; do
    sed -e '/^import RunTracking$/d' -e '/^import GPXReplay$/d' -e '/^import TestSupport$/d' "$file" > "$work/$(basename "$file")"
done
cflags=""
if [ -d "$root/Sources/CExpat" ]; then cflags="-I $root/Sources/CExpat -lexpat"; fi
# shellcheck disable=SC2086
"$swiftc" -O -wmo -enable-experimental-feature Extern -module-name TrackerCorpus $cflags -o "$out" "$work"/*.swift
"$out" "$root/samples/gpx" "${1:-}"
