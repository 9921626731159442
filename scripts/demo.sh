#!/usr/bin/env bash
# The `make demo` job: encodes every bundled sample message with its own marker and sender (the
# M4A and the WebM through the isolated FFmpeg decoder, voicemsg-decode, built beside voicemsg),
# inspects two of the results, has ffmpeg measure them all as an independent judge, and replays a
# real 12.6 km run to show when each message would play.
# Usage: scripts/demo.sh path/to/voicemsg
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:?usage: $0 path/to/voicemsg}"
[ -x "$bin" ] || { echo "demo: $bin is not an executable (run make build)" >&2; exit 1; }
track=samples/gpx/strava-run-with-pauses.gpx
out=out/demo

# sample | marker | sender, in the order the runner would hear them.
messages=(
    "01-first-km-dead-air.wav|1km|Mum"
    "08-five-km-chrome.webm|3km|Coach Dee (web)"
    "03-five-km.mp3|5km|Coach Dee"
    "02-halfway-stereo-44k.flac|halfway|Sam and Alex"
    "07-halfway-iphone.m4a|7km|Sam (iPhone)"
    "04-quiet-eight-km.wav|8km|Grandpa"
    "05-hot-finish-1km.wav|finish-1km|Jo"
    "06-finish-outdoors.ogg|finish|The running club"
)

section() { printf '\n== %s\n' "$*"; }

# encoded SAMPLE: the .opus that encode wrote for SAMPLE (named after its input).
encoded() {
    local candidates=("$out/${1%.*}"*.opus)
    [ -n "${candidates[0]:-}" ] && echo "${candidates[0]}"
}

shopt -s nullglob
rm -rf "$out"
mkdir -p "$out"

section "Encoding ${#messages[@]} sample messages into $out/"
for entry in "${messages[@]}"; do
    IFS='|' read -r sample marker sender <<<"$entry"
    echo "\$ voicemsg encode samples/$sample --output-dir $out --marker $marker --sender \"$sender\""
    "$bin" encode "samples/$sample" --output-dir "$out" --marker "$marker" --sender "$sender"
done

outputs=("$out"/*.opus)
[ ${#outputs[@]} -eq ${#messages[@]} ] || {
    echo "demo: expected ${#messages[@]} .opus files in $out, found ${#outputs[@]}" >&2
    exit 1
}

section "What went in and what came out (ffmpeg ebur128 as the judge; target -16 LUFS, ceiling -1 dBTP)"
# A browser's WebM states no duration: ffprobe says N/A, and so does the table.
seconds() { ffprobe -v error -show_entries format=duration -of csv=p=0 "$1" | awk '{ if ($1 == "N/A") print "n/a"; else printf "%.2f", $1 }'; }
printf '%-28s %7s %8s %6s %6s   %-27s %7s %6s %6s %6s\n' \
    input bytes seconds LUFS dBTP output bytes seconds LUFS dBTP
for entry in "${messages[@]}"; do
    IFS='|' read -r sample _ _ <<<"$entry"
    read -r in_lufs in_peak < <(scripts/measure.sh --raw "samples/$sample")
    printf '%-28s %7d %8s %6s %6s   ' "$sample" "$(wc -c <"samples/$sample")" \
        "$(seconds "samples/$sample")" "$in_lufs" "$in_peak"
    if encoded=$(encoded "$sample"); then
        read -r out_lufs out_peak < <(scripts/measure.sh --raw "$encoded")
        printf '%-27s %7d %6s %6s %6s\n' "$(basename "$encoded")" "$(wc -c <"$encoded")" \
            "$(seconds "$encoded")" "$out_lufs" "$out_peak"
    else
        echo "(no output)"
    fi
done

first=$(encoded 01-first-km-dead-air.wav) || { echo "demo: encode wrote nothing for 01-first-km-dead-air.wav" >&2; exit 1; }
hot=$(encoded 05-hot-finish-1km.wav) || { echo "demo: encode wrote nothing for 05-hot-finish-1km.wav" >&2; exit 1; }
section "\$ voicemsg inspect --json $first"
"$bin" inspect --json "$first"

section "\$ voicemsg inspect $hot"
"$bin" inspect "$hot"

section "\$ voicemsg inspect samples/08-five-km-chrome.webm   (a browser's recording: no duration in its header)"
"$bin" inspect samples/08-five-km-chrome.webm

if [ ! -f "$track" ]; then
    echo "demo: $track is missing, so the run cannot be simulated" >&2
    exit 1
fi
section "\$ voicemsg simulate --gpx $track $out/*.opus --planned-distance 12.6km"
"$bin" simulate --gpx "$track" "${outputs[@]}" --planned-distance 12.6km
