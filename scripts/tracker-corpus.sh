#!/bin/sh
# The tracker corpus, built with -O from the test sources: each run's distance error against
# its truth (the clean path's length) and the message start farthest from its marker along the
# true path, for the tuning set and the held-out set (see TrackerCorpus.Split), then both
# sets' figures side by side. Settings are chosen on the tuning set; a change is kept only if
# the held-out figures do not get worse.
# Usage: scripts/tracker-corpus.sh [text a run's description must contain]
#        scripts/tracker-corpus.sh --check   only whether it compiles (make test runs it)
# BEFORE=<git revision> also builds the tracker and the replay (Sources/RunTracking,
# Sources/GPXReplay) of that revision, replays the same runs through them, and prints its
# figures beside this tree's. The revision must be fecb0c6 or later: the corpus replays its
# course runs through that revision's tracker too.
# The other switches (VERBOSE, TRACKER, SET, WIDER, ...) are listed at the top of
# scripts/tracker-corpus/main.swift.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
swiftc=$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)
out=${TMPDIR:-/tmp}/voicemsg-tracker-corpus
work=$(mktemp -d "${TMPDIR:-/tmp}/voicemsg-tracker-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
cflags=""
if [ -d "$root/Sources/CExpat" ]; then cflags="-I $root/Sources/CExpat -lexpat"; fi

# build DIRECTORY BINARY [MODE] [REPLAY]: the corpus with the tracker sources in DIRECTORY and
# the replay's in REPLAY (this tree's by default), as one module, so the `import` lines between
# the package's modules are dropped from a copy. MODE -typecheck only checks that it compiles.
build() {
    mkdir -p "$work/build"
    rm -f "$work/build"/*.swift
    for file in "$1"/*.swift "${4:-$root/Sources/GPXReplay}"/*.swift \
        "$root"/Tests/TestSupport/SeededGenerator.swift "$root"/Tests/TestSupport/LocalMeters.swift \
        "$root"/Tests/TestSupport/Stretch.swift \
        "$root"/Tests/GPXReplayTests/CleanPath.swift \
        "$root"/Tests/GPXReplayTests/Corpus/*.swift "$root"/scripts/tracker-corpus/*.swift; do
        sed -e '/^import RunTracking$/d' -e '/^import GPXReplay$/d' -e '/^import TestSupport$/d' "$file" > "$work/build/$(basename "$file")"
    done
    if [ "${3:-}" = -typecheck ]; then
        "$swiftc" -typecheck -enable-experimental-feature Extern -module-name TrackerCorpus -I "$root/Sources/CExpat" "$work/build"/*.swift
        return
    fi
    # shellcheck disable=SC2086
    "$swiftc" -O -wmo -enable-experimental-feature Extern -module-name TrackerCorpus $cflags -o "$2" "$work/build"/*.swift
}

# --check: whether the corpus still compiles with the test sources it shares, as `make test`
# asks; it is not otherwise built there, and a file those sources came to need went unseen.
if [ "${1:-}" = --check ]; then
    build "$root/Sources/RunTracking" "$out" -typecheck
    echo "tracker-corpus: compiles"
    exit 0
fi

build "$root/Sources/RunTracking" "$out"
if [ -z "${BEFORE:-}" ]; then
    "$out" "$root/samples/gpx" "${1:-}"
    exit 0
fi

git -C "$root" rev-parse --verify --quiet "$BEFORE^{commit}" > /dev/null || { echo "BEFORE=$BEFORE: no such revision" >&2; exit 1; }
# at_before FOLDER DESTINATION: the Swift files of FOLDER at that revision, into DESTINATION.
at_before() {
    mkdir -p "$2"
    for file in $(git -C "$root" ls-tree --name-only "$BEFORE" "$1/"); do
        case "$file" in *.swift) git -C "$root" show "$BEFORE:$file" > "$2/$(basename "$file")" ;; esac
    done
}
at_before Sources/RunTracking "$work/before"
# What this tree adds beside the tracker is taken as it is now where that revision has no file
# of the name.
for file in "$root"/Sources/RunTracking/*.swift; do
    [ -e "$work/before/$(basename "$file")" ] || cp "$file" "$work/before/"
done
# The replay of that revision, which sets the scheduler up as that revision's tracker expects.
at_before Sources/GPXReplay "$work/before-replay"
if ! build "$work/before" "$out-before" "" "$work/before-replay" 2> "$work/before.log"; then
    head -5 "$work/before.log" >&2
    echo "BEFORE=$BEFORE: its tracker and replay do not build with this corpus, which replays the course runs" >&2
    echo "through both; fecb0c6 is the oldest revision that does (docs/tracker.md: its own corpus gives an older one's figures)." >&2
    exit 1
fi
SUMMARY="$work/before.tsv" "$out-before" "$root/samples/gpx" "${1:-}" > "$work/before.txt"
SUMMARY="$work/now.tsv" "$out" "$root/samples/gpx" "${1:-}"
echo
echo "== Figures by set: the tracker at $BEFORE, and now (the same runs, in this one run of the script)"
awk -F '\t' -v before="$BEFORE" '
    FNR == NR { old[$1 "\t" $2] = $3; next }
    !($1 in seen) { seen[$1] = 1; sets[++count] = $1 }
    !($2 in named) { named[$2] = 1; figures[++rows] = $2 }
    { now[$1 "\t" $2] = $3 }
    END {
        line = sprintf("%-44s", "figure")
        for (s = 1; s <= count; s++) line = line sprintf(" | %-16s %-16s", sets[s] " " before, sets[s] " now")
        print line
        for (r = 1; r <= rows; r++) {
            line = sprintf("%-44s", figures[r])
            for (s = 1; s <= count; s++) line = line sprintf(" | %-16s %-16s", old[sets[s] "\t" figures[r]], now[sets[s] "\t" figures[r]])
            print line
        }
    }' "$work/before.tsv" "$work/now.tsv"
