#!/usr/bin/env bash
# Prints the integrated loudness (LUFS) and true peak (dBTP) of audio files, as ffmpeg's
# ebur128 filter measures them: the independent judge the tests and the benchmark agree on.
# Usage: scripts/measure.sh [--raw] FILE...
#   default: "FILE: -16.0 LUFS, -1.2 dBTP"
#   --raw:   "-16.0 -1.2" (one line per file, for scripts)
set -euo pipefail

raw=0
if [ "${1:-}" = "--raw" ]; then raw=1; shift; fi
[ $# -ge 1 ] || { echo "usage: $0 [--raw] FILE..." >&2; exit 2; }

status=0
for file in "$@"; do
    # The summary comes last on stderr; its "I:" and "Peak:" lines are the whole-file figures.
    if ! summary=$(ffmpeg -hide_banner -nostats -nostdin -i "$file" -map 0:a:0 \
                       -af ebur128=peak=true -f null - 2>&1); then
        echo "$file: ffmpeg could not read it" >&2
        status=1
        continue
    fi
    loudness=$(printf '%s\n' "$summary" | awk '$1 == "I:" { v = $2 } END { print v }')
    peak=$(printf '%s\n' "$summary" | awk '$1 == "Peak:" { v = $2 } END { print v }')
    if [ -z "$loudness" ] || [ -z "$peak" ]; then
        echo "$file: ffmpeg printed no ebur128 summary" >&2
        status=1
        continue
    fi
    if [ "$raw" -eq 1 ]; then
        echo "$loudness $peak"
    else
        echo "$file: $loudness LUFS, $peak dBTP"
    fi
done
exit $status
