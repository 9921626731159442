#!/usr/bin/env bash
# `make bench`: voicemsg's encode against (a) bare opusenc and (b) the ffmpeg pipeline people use
# today, on a 10 s and a 60 s speech message (48 kHz mono 16-bit WAV, about 1 s of room noise
# before the speech and 2 s after), and on the 60 s message as an M4A and a browser's WebM. Prints
# median wall time, CPU time (user + sys, all threads) and peak memory of each, the ratios, then
# clarity: PESQ-WB of the decoded outputs of voicemsg and opusenc against the time-aligned
# source, on a clean and a noisy message, bytes per second, and the loudness of every output.
# Then real recorded speech (Debian's asterisk-core-sounds prompts, installed when missing): an
# 80 s message in a quiet room and a 60 s one in pink noise at 5 dB SNR, timed like the others,
# and the noise grid of scripts/denoise_bench.py: PESQ-WB, STOI and SI-SDR with and without the
# Denoiser and for bare opusenc, per noise and SNR (a few minutes on all cores).
# Then what the AAC version (AAC-LC in MP4, for browsers that play no Opus) adds to a message:
# `encode -o x.m4a` (the Opus made and checked, then the AAC) against `encode -o x.opus`, beside
# ffmpeg's own `-c:a aac -b:a 32k` on the same input.
# Usage: scripts/bench.sh path/to/voicemsg      (BENCH_RUNS=5 by default; at least 5 counts)
# BENCH_BASELINE=path/to/an/older/voicemsg also runs that binary's encode, interleaved with the
# others in the same runs, and prints its rows and ratios beside the current one's: the two
# builds from the same run of the machine.
# BENCH_CALLGRIND=1 also counts the instructions of voicemsg and opusenc on the 60 s message with
# valgrind: a figure that, unlike CPU seconds, does not move with the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:?usage: $0 path/to/voicemsg}"
baseline="${BENCH_BASELINE:-}"
if [ -n "$baseline" ] && [ ! -x "$baseline" ]; then
    echo "bench: BENCH_BASELINE=$baseline is not an executable file" >&2
    exit 1
fi
runs="${BENCH_RUNS:-5}"
out=out/bench
mkdir -p "$out"
# The inputs are kept between runs; the outputs never are, so no figure comes from an old build.
rm -f "$out"/*.opus "$out"/*.[pab].wav "$out"/*.pesq.json
SOX=(sox -R -V1)

section() { printf '\n== %s\n' "$*"; }

# --- Tools ------------------------------------------------------------------------------------
# apt_install PACKAGE...: for what only the bench needs, so `make setup` stays lean.
apt_install() {
    command -v apt-get >/dev/null || { echo "bench: please install $* (no apt-get here)" >&2; return 1; }
    echo "bench: installing $*" >&2
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

for tool in espeak-ng sox ffmpeg opusenc opusdec; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (run make setup)" >&2; exit 1; }
done
if ! /usr/bin/time -f "%M" true >/dev/null 2>&1; then
    # GNU time reports the peak resident memory; bash's builtin does not.
    apt_install time || exit 1
fi

# --- Inputs, made once ------------------------------------------------------------------------
sentences=(
    "Hi love, it's Mum. We are all watching the tracker and cheering every time your dot moves."
    "Remember what the coach said: start slow, and the last few kilometres will thank you."
    "Your sister made a sign with your name on it in huge letters, so look out for it near the bridge."
    "Keep your shoulders loose, breathe steadily, and take a sip of water at every station."
    "You trained through the whole winter, in the rain and in the dark, and it is paying off today."
    "Dad says your pace looks perfect and that you should not chase anyone just yet."
    "When it starts to hurt, think about the pancakes we are having afterwards."
    "Grandma is listening to this too and she says she has never been prouder."
    "There's a long hill coming up after the park, so shorten your stride and keep the rhythm."
    "We will be at the finish with the blue umbrella. Run towards the blue umbrella."
    "Whatever the clock says, you have already done something amazing by being out there."
    "Right, enough from me. Go on, enjoy every step, and we will see you soon!"
)

# speech SECONDS FILE: one person talking for SECONDS, whole sentences with the natural pauses
# between them, at espeak-ng's 22.05 kHz: enough sentences are spoken at 160 words a minute, then
# spoken again at the rate that makes them last SECONDS.
speech() {
    local target=$1 file=$2 text="" seconds=0 i=0 rate
    while awk -v d="$seconds" -v t="$target" 'BEGIN { exit !(d < t) }'; do
        text+="${sentences[$((i % ${#sentences[@]}))]} "
        i=$((i + 1))
        espeak-ng -v en-us+f3 -s 160 -w "$file" "$text"
        seconds=$(soxi -D "$file")
    done
    rate=$(awk -v d="$seconds" -v t="$target" 'BEGIN { printf "%d", 160 * d / t + 0.5 }')
    espeak-ng -v en-us+f3 -s "$rate" -w "$file" "$text"
}

# message SECONDS PINK_DB BROWN_DB FILE: a 48 kHz mono 16-bit message of SECONDS: 1 s of room
# noise, SECONDS - 3 of speech, 2 s of room noise, at -23 LUFS. Beside it, FILE's .voice.wav is
# the same speech without the noise, at the same gain: what a denoised output is judged against.
message() {
    local seconds=$1 pink=$2 brown=$3 file=$4
    [ -f "$file" ] && [ -f "${file%.wav}.voice.wav" ] && return 0
    local talk="$out/.talk.wav" voice="$out/.voice.wav" room="$out/.room.wav"
    speech "$(awk -v s="$seconds" 'BEGIN { print s - 3 }')" "$talk"
    "${SOX[@]}" "$talk" -r 48000 -c 1 -b 16 "$voice" rate -v norm -3 pad 1 3 trim 0 "$seconds"
    "${SOX[@]}" -n -r 48000 -c 1 -b 16 "$out/.pink.wav" synth "$seconds" pinknoise gain "$pink"
    "${SOX[@]}" -n -r 48000 -c 1 -b 16 "$out/.brown.wav" synth "$seconds" brownnoise gain "$brown"
    "${SOX[@]}" -m -v 1 "$voice" -v 1 "$out/.pink.wav" -v 1 "$out/.brown.wav" "$room"
    local loudness
    loudness=$(scripts/measure.sh --raw "$room" | awk '{ print $1 }')
    local gain
    gain=$(awk -v m="$loudness" 'BEGIN { printf "%.2f", -23 - m }')
    "${SOX[@]}" "$room" "$file" gain "$gain"
    "${SOX[@]}" "$voice" "${file%.wav}.voice.wav" gain "$gain"
    rm -f "$talk" "$voice" "$room" "$out/.pink.wav" "$out/.brown.wav"
}

section "Inputs (in $out/, made once)"
message 10 -50 -63 "$out/speech-10s.wav"       # quiet room: noise about 45 dB below the speech
message 60 -50 -63 "$out/speech-60s.wav"
message 10 -22 -40 "$out/noisy-10s.wav"        # street: pink noise about 12 dB below the speech
for f in "$out"/speech-10s.wav "$out"/speech-60s.wav "$out"/noisy-10s.wav; do
    printf '%-24s %6.2f s, %s Hz, %s\n' "$(basename "$f")" "$(soxi -D "$f")" "$(soxi -r "$f")" \
        "$(scripts/measure.sh --raw "$f" | awk '{ printf "%s LUFS, %s dBTP", $1, $2 }')"
done

# --- The three encoders -----------------------------------------------------------------------
# command TOOL IN OUT: sets cmd to the command line; p = voicemsg, o = the baseline voicemsg
# (BENCH_BASELINE), a = bare opusenc, b = ffmpeg; for the AAC version, m = voicemsg writing the
# M4A, c = ffmpeg's AAC encoder alone.
command_for() {
    case $1 in
        p) cmd=("$bin" encode "$2" -o "$3" --marker 1km) ;;
        o) cmd=("$baseline" encode "$2" -o "$3" --marker 1km) ;;
        a) cmd=(opusenc --quiet --bitrate 24 --comp 10 --speech "$2" "$3") ;;
        b) cmd=(ffmpeg -hide_banner -loglevel error -nostdin -y -i "$2"
                -af "silenceremove=start_periods=1:start_threshold=-50dB:stop_periods=-1:stop_threshold=-50dB:stop_duration=1,loudnorm=I=-16:TP=-1"
                -c:a libopus -b:a 24k -application voip "$3") ;;
        m) cmd=("$bin" encode "$2" -o "$3" --marker 1km) ;;
        c) cmd=(ffmpeg -hide_banner -loglevel error -nostdin -y -i "$2" -c:a aac -b:a 32k "$3") ;;
    esac
}
# The output's extension: the M4A for the AAC tools, Opus for the others.
extension() { case $1 in m|c) echo m4a;; *) echo opus;; esac; }
encode() { command_for "$@"; "${cmd[@]}"; }
name() { case $1 in p) echo "voicemsg encode";; o) echo "baseline encode";; a) echo "(a) opusenc";; b) echo "(b) ffmpeg";;
    m) echo "voicemsg -o .m4a";; c) echo "(c) ffmpeg aac";; esac; }

tools=(a b)
probe="$out/.probe.opus"
if encode p "$out/speech-10s.wav" "$probe" >/dev/null 2>"$out/.probe.err" && [ -s "$probe" ]; then
    tools=(p a b)
else
    echo "bench: $bin encode does not work yet, so voicemsg is left out:" >&2
    sed 's/^/  /' "$out/.probe.err" >&2
fi
if [ -n "$baseline" ] && [ "${tools[0]}" = p ]; then
    if encode o "$out/speech-10s.wav" "$probe" >/dev/null 2>"$out/.probe.err" && [ -s "$probe" ]; then
        tools=(p o a b)
        echo "baseline: $baseline"
    else
        echo "bench: the baseline $baseline cannot encode, so it is left out:" >&2
        sed 's/^/  /' "$out/.probe.err" >&2
    fi
fi
rm -f "$probe" "$out/.probe.err"

# --- Speed and memory -------------------------------------------------------------------------
# One run: wall seconds (from the nanosecond clock), peak RSS in KiB, summed over the command and
# the processes it starts (scripts/tree-peak.py: GNU time's %M is only the largest one's), and CPU
# seconds, user + sys of all threads and children.
run_once() {
    local start end status=0
    command_for "$@"
    rm -f "$3"
    start=$(date +%s%N)
    python3 scripts/tree-peak.py "$out/.rss" "${cmd[@]}" >/dev/null 2>"$out/.stderr" || status=$?
    end=$(date +%s%N)
    if [ "$status" -ne 0 ] || [ ! -s "$3" ]; then
        echo "bench: $(name "$1") failed on $(basename "$2") (exit $status): $(grep -v '^Command exited' "$out/.stderr" | head -1)" >&2
    fi
    read -r kib user sys < <(tail -1 "$out/.rss")
    echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", (e - s) / 1e9 }') $kib $status $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

section "Speed: median of $runs runs, wall time, CPU time (user + sys, all threads) and peak resident memory (runs interleaved)"
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) before the runs"
printf '%-16s %-18s %12s %10s %14s\n' input encoder "wall s" "CPU s" "peak RSS MiB"
declare -A wall rss cpu
failures=0
# time_input FILE TOOL...: the tools on $out/FILE, runs interleaved; each tool's median wall, CPU
# and peak memory go into wall, cpu and rss under INPUT.TOOL (INPUT: FILE without a .wav ending),
# and are printed as a row, its first column label_width wide (16 unless set).
time_input() {
    local file=$1 input=${1%.wav} tool r w m status c
    shift
    local -A walls=() rsss=() cpus=()
    for ((r = 0; r < runs; r++)); do
        for tool in "$@"; do
            read -r w m status c < <(run_once "$tool" "$out/$file" "$out/$input.$tool.$(extension "$tool")")
            [ "$status" -eq 0 ] || failures=$((failures + 1))
            walls[$tool]+="$w"$'\n'
            rsss[$tool]+="$m"$'\n'
            cpus[$tool]+="$c"$'\n'
        done
    done
    for tool in "$@"; do
        wall[$input.$tool]=$(printf '%s' "${walls[$tool]}" | median)
        rss[$input.$tool]=$(printf '%s' "${rsss[$tool]}" | median)
        cpu[$input.$tool]=$(printf '%s' "${cpus[$tool]}" | median)
        printf '%-*s %-18s %12.3f %10.2f %14.1f\n' "${label_width:-16}" "$input" "$(name "$tool")" "${wall[$input.$tool]}" \
            "${cpu[$input.$tool]}" "$(awk -v k="${rss[$input.$tool]}" 'BEGIN { print k / 1024 }')"
    done
}

for input in speech-10s speech-60s; do
    time_input "$input.wav" "${tools[@]}"
done
rm -f "$out/.rss" "$out/.stderr"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v limit="$2" 'BEGIN { print (v <= limit) ? "ok" : "OVER" }'; }
if [ "$failures" -gt 0 ]; then
    section "Ratios: none, $failures runs failed (see above)"
elif [ "${tools[0]}" = p ]; then
    section "Ratios (acceptance on the 60 s message: wall p/a <= 1.0, wall p/b <= 0.5, CPU p/a <= 1.0, memory p/b <= 0.25)"
    printf '%-12s %-16s %10s %10s %10s %10s %12s\n' input encoder "wall x/a" "wall x/b" "CPU x/a" "CPU x/b" "memory x/b"
    for input in speech-10s speech-60s; do
        for x in "${tools[@]}"; do
            [ "$x" = p ] || [ "$x" = o ] || continue
            printf '%-12s %-16s %10s %10s %10s %10s %12s\n' "$input" "$(name "$x")" \
                "$(ratio "${wall[$input.$x]}" "${wall[$input.a]}")" \
                "$(ratio "${wall[$input.$x]}" "${wall[$input.b]}")" \
                "$(ratio "${cpu[$input.$x]}" "${cpu[$input.a]}")" \
                "$(ratio "${cpu[$input.$x]}" "${cpu[$input.b]}")" \
                "$(ratio "${rss[$input.$x]}" "${rss[$input.b]}")"
        done
        if [ "${tools[1]}" = o ]; then
            echo "$input: voicemsg / baseline: wall $(ratio "${wall[$input.p]}" "${wall[$input.o]}"), CPU $(ratio "${cpu[$input.p]}" "${cpu[$input.o]}"), peak RSS $(ratio "${rss[$input.p]}" "${rss[$input.o]}")"
        fi
    done
    pa=$(ratio "${wall[speech-60s.p]}" "${wall[speech-60s.a]}")
    pb=$(ratio "${wall[speech-60s.p]}" "${wall[speech-60s.b]}")
    ca=$(ratio "${cpu[speech-60s.p]}" "${cpu[speech-60s.a]}")
    cb=$(ratio "${cpu[speech-60s.p]}" "${cpu[speech-60s.b]}")
    mb=$(ratio "${rss[speech-60s.p]}" "${rss[speech-60s.b]}")
    echo "60 s: wall p/a $pa ($(verdict "$pa" 1.0)), wall p/b $pb ($(verdict "$pb" 0.5)), CPU p/a $ca ($(verdict "$ca" 1.0)), CPU p/b $cb, memory p/b $mb ($(verdict "$mb" 0.25))"
else
    section "Ratios: none, voicemsg was left out"
fi

# --- Recordings that voicemsg decodes with FFmpeg in its child process ----------------------
# A 60 s M4A (AAC-LC, as an iPhone records) and a 60 s WebM written to a pipe (Opus, unknown-size
# clusters and no duration, as Chrome records), both made from speech-60s.wav. voicemsg decodes
# them in voicemsg-decode, which runs beside voicemsg: its peak counts, added to voicemsg's own
# (GNU time's %M reports only the larger of the two, so scripts/tree-peak.py sums the tree).
if [ "${tools[0]}" = p ]; then
    [ -f "$out/speech-60s.m4a" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -i "$out/speech-60s.wav" \
        -c:a aac -b:a 64k "$out/speech-60s.m4a"
    [ -f "$out/speech-60s.webm" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -i "$out/speech-60s.wav" \
        -c:a libopus -b:a 32k -frame_duration 60 -f webm -live 1 - >"$out/speech-60s.webm"
    section "Recorded formats, decoded in the child: median of $runs runs (acceptance: wall p/b <= 0.5, memory p/b <= 0.25)"
    # The baseline, when given, runs here too, interleaved: the decoder child's own cost (its
    # sandbox included) shows as voicemsg / baseline on these two rows.
    recorded_tools=(p b)
    [ "${tools[1]}" = o ] && recorded_tools=(p o b)
    printf '%-18s %-18s %12s %10s %14s\n' input encoder "wall s" "CPU s" "peak RSS MiB"
    for input in speech-60s.m4a speech-60s.webm; do
        failed_before=$failures
        label_width=18 time_input "$input" "${recorded_tools[@]}"
        if [ "$failures" -gt "$failed_before" ]; then
            echo "$input: no ratios, $((failures - failed_before)) runs failed (see above)"
            continue
        fi
        pb=$(ratio "${wall[$input.p]}" "${wall[$input.b]}")
        mb=$(ratio "${rss[$input.p]}" "${rss[$input.b]}")
        echo "$input: wall p/b $pb ($(verdict "$pb" 0.5)), memory p/b $mb ($(verdict "$mb" 0.25))"
        if [ "${recorded_tools[1]}" = o ]; then
            echo "$input: voicemsg / baseline: wall $(ratio "${wall[$input.p]}" "${wall[$input.o]}"), CPU $(ratio "${cpu[$input.p]}" "${cpu[$input.o]}"), peak RSS $(ratio "${rss[$input.p]}" "${rss[$input.o]}")"
        fi
    done
    # What the shared libraries cost before a byte is decoded: the child given an empty input
    # loads Debian's libavformat and libavcodec (and their ~140 dependencies), then refuses it.
    decoder="$(dirname "$bin")/voicemsg-decode"
    if [ -x "$decoder" ]; then
        floors=""
        for ((r = 0; r < runs; r++)); do
            # The child must name its parent (tree-peak.py): sh's parent, which exec keeps.
            python3 scripts/tree-peak.py "$out/.rss" sh -c 'exec "$@" --parent "$PPID"' sh "$decoder" --cpu-seconds 30 \
                --address-space 536870912 --maximum-seconds 600 </dev/null >/dev/null 2>&1 || true
            floors+="$(cut -d' ' -f1 "$out/.rss")"$'\n'
        done
        floor=$(printf '%s' "$floors" | median)
        echo "floor: the decoder child alone, libraries loaded, nothing decoded: $(awk -v k="$floor" 'BEGIN { printf "%.1f", k / 1024 }') MiB," \
            "$(ratio "$floor" "${rss[speech-60s.m4a.b]}")x ffmpeg's peak on the M4A"
    fi
    rm -f "$out/.rss" "$out/.stderr" "$out"/speech-60s.*.[pb].opus
fi

# --- The AAC version --------------------------------------------------------------------------
# What `encode -o x.m4a` costs beyond `-o x.opus` is what the AAC adds to a message the server
# processes (its workers make both), against ffmpeg's AAC encoder alone on the same input.
if [ "${tools[0]}" = p ]; then
    section "The AAC version: median of $runs runs, voicemsg's Opus, the same with the AAC, and ffmpeg's aac at 32 kb/s"
    printf '%-16s %-18s %12s %10s %14s\n' input encoder "wall s" "CPU s" "peak RSS MiB"
    failed_before=$failures
    for input in speech-10s speech-60s; do
        time_input "$input.wav" p m c
    done
    if [ "$failures" -gt "$failed_before" ]; then
        echo "no ratios: $((failures - failed_before)) runs failed (see above)"
    else
        for input in speech-10s speech-60s; do
            added_wall=$(awk -v a="${wall[$input.m]}" -v b="${wall[$input.p]}" 'BEGIN { printf "%.3f", a - b }')
            added_cpu=$(awk -v a="${cpu[$input.m]}" -v b="${cpu[$input.p]}" 'BEGIN { printf "%.2f", a - b }')
            echo "$input: the AAC adds wall ${added_wall} s ($(ratio "$added_wall" "${wall[$input.p]}")x the Opus encode)," \
                "CPU ${added_cpu} s; against ffmpeg's aac: wall $(ratio "$added_wall" "${wall[$input.c]}"), CPU $(ratio "$added_cpu" "${cpu[$input.c]}")"
        done
        if "$bin" encode "$out/speech-60s.wav" -o "$out/.report.m4a" --marker 1km --json >"$out/.report.json" 2>/dev/null; then
            python3 - "$out/.report.json" <<'PY' || echo "bench: could not read the report"
import json, sys
report = json.load(open(sys.argv[1]))["report"]
aac = report["aac"]
stages = {k: v for k, v in report["stageSeconds"].items() if k.startswith("aac")}
print("speech-60s.m4a: %d encodes, %.2f LUFS, %.2f dBTP, %.0f b/s; " % (
    aac["normalization"]["encodePasses"], aac["loudness"]["integratedLoudness"], aac["loudness"]["truePeak"], aac["bitrate"])
    + ", ".join(f"{name} {seconds:.3f} s" for name, seconds in sorted(stages.items())))
PY
        fi
        rm -f "$out/.report.m4a" "$out/.report.json"
    fi
    rm -f "$out"/speech-*.[mc].m4a
fi

# --- Instructions, independent of the machine's load ------------------------------------------
if [ "${BENCH_CALLGRIND:-0}" = 1 ] && [ "${tools[0]}" = p ]; then
    section "Instructions on the 60 s message (valgrind --tool=callgrind, all threads)"
    if command -v valgrind >/dev/null || apt_install valgrind; then
        declare -A instructions
        for tool in p a; do
            command_for "$tool" "$out/speech-60s.wav" "$out/.callgrind.opus"
            instructions[$tool]=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "${cmd[@]}" 2>&1 >/dev/null |
                awk '/Collected :/ { print $NF }')
            printf '%-18s %16s instructions\n' "$(name "$tool")" "${instructions[$tool]}"
        done
        echo "instructions p/a $(ratio "${instructions[p]}" "${instructions[a]}")"
        rm -f "$out/.callgrind.opus"
    fi
fi

# --- Where voicemsg spends its time ---------------------------------------------------------
if [ "${tools[0]}" = p ]; then
    section "voicemsg's own report on the 60 s message (encode --json, one run)"
    if "$bin" encode "$out/speech-60s.wav" -o "$out/.report.opus" --marker 1km --json >"$out/.report.json" 2>/dev/null; then
        python3 - "$out/.report.json" <<'PY' || echo "bench: could not read the report"
import json, sys
data = json.load(open(sys.argv[1]))
report = data.get("report", data)  # the report, wrapped with the file names or not
stages = report.get("stageSeconds", {})
print("stages: " + ", ".join(f"{name} {seconds:.3f} s" for name, seconds in stages.items()))
for key in ("normalization", "speech"):
    if key in report:
        print(f"{key}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                      for k, v in report[key].items()))
PY
    else
        echo "bench: encode --json failed"
    fi
    rm -f "$out/.report.opus" "$out/.report.json"
fi

# --- Loudness of every output -----------------------------------------------------------------
section "Loudness of the outputs (ffmpeg ebur128; voicemsg and ffmpeg aim at -16 LUFS, -1 dBTP)"
printf '%-30s %8s %10s %8s\n' output seconds LUFS dBTP
for input in speech-10s speech-60s; do
    for tool in "${tools[@]}"; do
        f="$out/$input.$tool.opus"
        [ -s "$f" ] || { printf '%-30s (missing)\n' "$(basename "$f")"; continue; }
        read -r lufs peak < <(scripts/measure.sh --raw "$f")
        printf '%-30s %8.2f %10s %8s\n' "$(basename "$f")" \
            "$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$f")" "$lufs" "$peak"
    done
done

# --- Clarity ----------------------------------------------------------------------------------
section "Clarity: PESQ-WB against the time-aligned speech without its noise (acceptance: p >= a - 0.1 with a at equal bytes/s on the same speech)"
# Python packages for the bench only: installed when missing, into a private virtual environment
# when the system's Python refuses pip installs (PEP 668).
command -v python3 >/dev/null || apt_install python3 python3-pip python3-venv || true
python=python3
if ! "$python" -c "import numpy, scipy, pesq, pystoi" 2>/dev/null; then
    echo "bench: installing the Python packages for PESQ and STOI (numpy, scipy, pesq, pystoi)" >&2
    if ! python3 -m pip install --quiet numpy scipy pesq pystoi >&2; then
        # pesq builds from source: it needs Python's headers and a C compiler.
        apt_install python3-venv python3-dev gcc || true
        python3 -m venv "$out/.venv" >&2 && "$out/.venv/bin/pip" install --quiet numpy scipy pesq pystoi >&2 || true
        python="$out/.venv/bin/python"
    fi
fi
if ! "$python" -c "import numpy, scipy, pesq, pystoi" 2>/dev/null; then
    echo "bench: numpy, scipy, pesq or pystoi is missing and could not be installed; no clarity figures" >&2
    exit 0
fi
clarity_tools=(a)
[ "${tools[0]}" = p ] && [ "$failures" -eq 0 ] && clarity_tools=(p a)

# bytes_per_second FILE.opus DECODED.wav: the file's size over the audio it holds.
bytes_per_second() {
    awk -v b="$(wc -c <"$1")" -v s="$(soxi -D "$2" 2>/dev/null)" 'BEGIN { printf "%.0f", b / s }'
}

printf '%-12s %-18s %8s %9s %8s %10s   %s\n' input encoder PESQ-WB "own span" bytes/s LUFS "common span"
for input in speech-10s noisy-10s; do
    decoded=()
    for tool in "${clarity_tools[@]}"; do
        f="$out/$input.$tool.opus"
        if [ ! -s "$f" ] && ! encode "$tool" "$out/$input.wav" "$f" >/dev/null; then
            echo "bench: $(name "$tool") failed on $input.wav; no clarity figures for it" >&2
            failures=$((failures + 1))
            continue 2
        fi
        # --float: no dither noise added by the decoder; 48 kHz, as the source.
        opusdec --quiet --float --rate 48000 "$f" "$out/$input.$tool.wav" 2>/dev/null
        decoded+=("$out/$input.$tool.wav")
    done
    # Judged against the speech without its noise: against the noisy source, an output that
    # took the noise out would score as if it had lost what it removed.
    "$python" scripts/pesq_score.py --json "$out/$input.voice.wav" "${decoded[@]}" >"$out/$input.pesq.json"
    i=0
    for tool in "${clarity_tools[@]}"; do
        f="$out/$input.$tool.opus"
        read -r score own span < <(python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))
r = report["results"][int(sys.argv[2])]
s = report["commonSpanSeconds"]
print("%.3f %.3f %.2f-%.2fs" % (r["pesqWB"], r["pesqWBOwnSpan"], s[0], s[1]))' "$out/$input.pesq.json" "$i")
        printf '%-12s %-18s %8s %9s %8s %10s   %s\n' "$input" "$(name "$tool")" "$score" "$own" \
            "$(bytes_per_second "$f" "$out/$input.$tool.wav")" \
            "$(scripts/measure.sh --raw "$f" | awk '{ print $1 }')" "$span"
        eval "score_$tool=$score"
        eval "bps_$tool=$(bytes_per_second "$f" "$out/$input.$tool.wav")"
        i=$((i + 1))
    done
    if [ "${clarity_tools[0]}" = p ]; then
        # At equal bytes on the same speech: opusenc on just the span voicemsg kept (the span
        # PESQ scores both on), its bitrate raised or lowered until it spends what voicemsg spent
        # there; then the whole file at that bitrate is scored beside the others. At a fixed
        # --bitrate the two do not spend alike: Opus's VBR gives speech cleared of its noise more
        # bits than the same speech under noise, so at 24 kb/s voicemsg's denoised message takes
        # a few per cent more than opusenc's noisy one. On the whole file opusenc's average also
        # counts the 3 s of room noise voicemsg cuts, which cost it less than speech, so that
        # figure is printed too but is not like for like.
        read -r from to < <(python3 -c '
import json, sys
print(*json.load(open(sys.argv[1]))["results"][0]["spanSeconds"])' "$out/$input.pesq.json")
        "${SOX[@]}" "$out/$input.wav" "$out/$input.span.wav" trim "$from" "=$to"
        # span_rate KBPS: opusenc's bytes per second on the span at KBPS.
        span_rate() {
            opusenc --quiet --bitrate "$1" --comp 10 --speech "$out/$input.span.wav" "$out/$input.span.opus"
            opusdec --quiet --float --rate 48000 "$out/$input.span.opus" "$out/$input.span.dec.wav" 2>/dev/null
            bytes_per_second "$out/$input.span.opus" "$out/$input.span.dec.wav"
        }
        bps_span=$(span_rate 24)
        # VBR spends roughly in proportion to the target: a few secant steps find the match.
        kbps=24 bps_eq=$bps_span
        for _ in 1 2 3 4; do
            awk -v p="$bps_p" -v a="$bps_eq" 'BEGIN { exit !(a < p || a > p * 1.005) }' || break
            kbps=$(awk -v k="$kbps" -v p="$bps_p" -v a="$bps_eq" 'BEGIN { printf "%.3f", k * (p + 0.002 * p) / a }')
            bps_eq=$(span_rate "$kbps")
        done
        opusenc --quiet --bitrate "$kbps" --comp 10 --speech "$out/$input.wav" "$out/$input.e.opus"
        opusdec --quiet --float --rate 48000 "$out/$input.e.opus" "$out/$input.e.wav" 2>/dev/null
        "$python" scripts/pesq_score.py --json "$out/$input.voice.wav" "${decoded[@]}" "$out/$input.e.wav" >"$out/$input.pesq.json"
        read -r score_p score_e < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print("%.3f %.3f" % (r[0]["pesqWB"], r[-1]["pesqWB"]))' "$out/$input.pesq.json")
        printf '%-12s %-18s %8s %9s %8s %10s   %s\n' "$input" "(a) at equal bytes" "$score_e" "" \
            "$(bytes_per_second "$out/$input.e.opus" "$out/$input.e.wav")" \
            "$(scripts/measure.sh --raw "$out/$input.e.opus" | awk '{ print $1 }')" "--bitrate $kbps"
        # shellcheck disable=SC2154  # set by the eval above
        diff=$(awk -v p="$score_p" -v a="$score_a" 'BEGIN { printf "%+.3f", p - a }')
        diff_e=$(awk -v p="$score_p" -v e="$score_e" 'BEGIN { printf "%+.3f", p - e }')
        ok=$(awk -v d="$diff_e" -v bp="$bps_p" -v be="$bps_eq" 'BEGIN { print (d >= -0.1 && bp <= be) ? "ok" : "FAILS" }')
        echo "$input: at equal bytes on the same span (p $bps_p bytes/s, a $bps_eq at --bitrate $kbps): PESQ-WB p - a = $diff_e ($ok)"
        echo "$input: at --bitrate 24 for both: PESQ-WB p - a = $diff; bytes/s p $bps_p vs a $bps_span on the same span ($(awk -v p="$bps_p" -v a="$bps_span" 'BEGIN { printf "%+.1f%%", 100 * (p / a - 1) }'))"
        echo "$input: (a on the whole file, room noise included: $bps_a bytes/s; whole files: p $(wc -c <"$out/$input.p.opus") bytes, a $(wc -c <"$out/$input.a.opus") bytes)"
        rm -f "$out/$input.span.wav" "$out/$input.span.opus" "$out/$input.span.dec.wav" "$out/$input.e.opus" "$out/$input.e.wav"
    fi
done

# --- Real speech: a quiet room, a noisy street, and the noise grid ---------------------------
# Recorded prompts from Debian's asterisk-core-sounds packages (scripts/denoise_bench.py says
# which and under what licence), installed here when missing; read in place, never committed.
if [ "${tools[0]}" = p ]; then
    sounds=()
    for lang in en es fr it ru; do
        dpkg-query -W -f='${Status}' "asterisk-core-sounds-$lang-g722" 2>/dev/null | grep -q "install ok installed" ||
            sounds+=("asterisk-core-sounds-$lang-g722")
    done
    [ ${#sounds[@]} -eq 0 ] || apt_install "${sounds[@]}" || true
fi
if [ "${tools[0]}" = p ] && [ -d /usr/share/asterisk/sounds/ru_RU_f_IvrvoiceRU ]; then
    "$python" scripts/denoise_bench.py inputs "$out"
    section "Real speech: median of $runs runs (acceptance: real-80s CPU p/a <= 1.0 and memory p/b <= 0.25; noisy-60s CPU of p <= 0.35 s per audio second)"
    printf '%-16s %-18s %12s %10s %14s\n' input encoder "wall s" "CPU s" "peak RSS MiB"
    real_tools=(p a b)
    [ "${tools[1]}" = o ] && real_tools=(p o a b)
    for input in real-80s noisy-60s; do
        time_input "$input.wav" "${real_tools[@]}"
    done
    ca=$(ratio "${cpu[real-80s.p]}" "${cpu[real-80s.a]}")
    mb=$(awk -v p="${rss[real-80s.p]}" -v b="${rss[real-80s.b]}" 'BEGIN { printf "%.3f", p / b }')
    seconds=$(soxi -D "$out/noisy-60s.wav")
    per=$(awk -v c="${cpu[noisy-60s.p]}" -v s="$seconds" 'BEGIN { printf "%.3f", c / s }')
    echo "real-80s (quiet room, not denoised): CPU p/a $ca ($(verdict "$ca" 1.0)), memory p/b $mb ($(verdict "$mb" 0.25))"
    if [ "${real_tools[1]}" = o ]; then
        echo "real-80s: baseline CPU o/a $(ratio "${cpu[real-80s.o]}" "${cpu[real-80s.a]}"), memory o/b $(ratio "${rss[real-80s.o]}" "${rss[real-80s.b]}");" \
            "voicemsg / baseline: CPU $(ratio "${cpu[real-80s.p]}" "${cpu[real-80s.o]}"), peak RSS $(ratio "${rss[real-80s.p]}" "${rss[real-80s.o]}")"
    fi
    # Where real-80s's cost goes: the check that decodes the whole output (one thread, so its
    # wall time is its CPU time), and what the peak memory is made of.
    verify=$("$bin" encode "$out/real-80s.wav" -o "$out/.report.opus" --marker 1km --json 2>/dev/null |
        python3 -c 'import json, sys; print("%.3f" % json.load(sys.stdin)["report"]["stageSeconds"]["verify"])') || verify=""
    if [ -n "$verify" ]; then
        echo "real-80s: the verifying decode takes $verify s; CPU p/a without it would be" \
            "$(awk -v p="${cpu[real-80s.p]}" -v v="$verify" -v a="${cpu[real-80s.a]}" 'BEGIN { printf "%.2f", (p - v) / a }')"
    fi
    echo "real-80s voicemsg: $(python3 scripts/memory-anatomy.py "$bin" encode "$out/real-80s.wav" -o "$out/.report.opus" --marker 1km)"
    echo "real-80s opusenc: $(python3 scripts/memory-anatomy.py opusenc --quiet --bitrate 24 --comp 10 --speech "$out/real-80s.wav" "$out/.report.opus")"
    echo "noisy-60s (pink noise at 5 dB, denoised): CPU $per s per audio second ($(verdict "$per" 0.35)); opusenc" \
        "$(awk -v c="${cpu[noisy-60s.a]}" -v s="$seconds" 'BEGIN { printf "%.3f", c / s }'), CPU p/a $(ratio "${cpu[noisy-60s.p]}" "${cpu[noisy-60s.a]}")"
    "$bin" encode "$out/noisy-60s.wav" -o "$out/.report.opus" --marker 1km --json 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)["report"]
print("noisy-60s: denoise " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in r["denoise"].items()))
print("noisy-60s: stages " + ", ".join(f"{k} {v:.3f} s" for k, v in r["stageSeconds"].items()))' || true
    rm -f "$out/.report.opus" "$out"/real-80s.*.opus "$out"/noisy-60s.*.opus

    section "Clarity in noise: PESQ-WB, STOI and SI-SDR against the clean speech, means per condition (scripts/denoise_bench.py)"
    "$python" scripts/denoise_bench.py grid "$bin" "$out/denoise" || failures=$((failures + 1))
else
    echo "bench: the asterisk-core-sounds packages are missing; no real-speech rows" >&2
fi

# Failed runs make the figures above incomplete: say so in the exit status too.
[ "$failures" -eq 0 ]
