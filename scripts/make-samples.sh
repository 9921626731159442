#!/usr/bin/env bash
# Makes the bundled sample messages in samples/: synthetic but realistic voice messages, the kind
# friends record on a phone: seconds of dead air and room noise at both ends, all sorts of
# formats, rates and levels. Speech comes from espeak-ng, everything else from sox (with -R, so
# its noise generators are seeded and a rerun gives the same audio); MP3 and Ogg Vorbis are
# encoded by ffmpeg with -fflags +bitexact so no random stream serial or version string differs.
# Usage: scripts/make-samples.sh [OUTPUT_DIR]   (default: samples)
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-samples}"
mkdir -p "$out"
tmp=$(mktemp -d)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT

for tool in espeak-ng sox ffmpeg; do
    command -v "$tool" >/dev/null || { echo "make-samples: $tool is missing (run make setup)" >&2; exit 1; }
done

SOX=(sox -R -V1)   # -R: repeatable (seeded noise and dither); -V1: errors only

# speak NAME VOICE SPEED TEXT: espeak-ng's speech, at its native 22.05 kHz mono.
speak() {
    espeak-ng -v "$2" -s "$3" -w "$tmp/$1.wav" "$4"
}

# pause NAME SECONDS: digital silence at 22.05 kHz, to join phrases with a pause inside a message.
pause() {
    "${SOX[@]}" -n -r 22050 -c 1 -b 16 "$tmp/$1.wav" trim 0 "$2"
}

# room NAME RATE CHANNELS SECONDS PINK_DB BROWN_DB: the room's noise bed. Pink noise is the hiss
# of air, traffic and electronics; a little brown noise below it is the low rumble of a room.
# With two channels, each gets its own noise, as two microphones would.
room() {
    local name=$1 rate=$2 channels=$3 seconds=$4 pink=$5 brown=$6
    local kinds_pink=(pinknoise) kinds_brown=(brownnoise)
    if [ "$channels" -eq 2 ]; then kinds_pink=(pinknoise pinknoise); kinds_brown=(brownnoise brownnoise); fi
    "${SOX[@]}" -n -r "$rate" -c "$channels" -b 16 "$tmp/$name-pink.wav" synth "$seconds" "${kinds_pink[@]}" gain "$pink"
    "${SOX[@]}" -n -r "$rate" -c "$channels" -b 16 "$tmp/$name-brown.wav" synth "$seconds" "${kinds_brown[@]}" gain "$brown"
    "${SOX[@]}" -m "$tmp/$name-pink.wav" "$tmp/$name-brown.wav" "$tmp/$name-room.wav"
}

# tap NAME RATE CHANNELS AT: a 30 ms knock (a finger on the phone) AT seconds into the recording.
tap() {
    "${SOX[@]}" -n -r "$2" -c "$3" -b 16 "$tmp/$1-tap.wav" synth 0.03 brownnoise \
        fade q 0.002 0.03 0.02 gain -10 pad "$4"
}

# loudness FILE: integrated loudness in LUFS, as ffmpeg's ebur128 measures it.
loudness() {
    scripts/measure.sh --raw "$1" | awk '{ print $1 }'
}

# record NAME SPEECH RATE CHANNELS LEAD TAIL PINK_DB BROWN_DB: speech placed LEAD seconds into a
# recording that runs TAIL seconds past it, over the room noise, at RATE and CHANNELS. A stereo
# recording has the speech reach the second microphone 0.4 ms later and 1 dB weaker.
record() {
    local name=$1 speech=$2 rate=$3 channels=$4 lead=$5 tail=$6 pink=$7 brown=$8
    local voice="$tmp/$name-voice.wav"
    if [ "$channels" -eq 2 ]; then
        "${SOX[@]}" "$tmp/$speech.wav" -r "$rate" -c 2 -b 16 "$voice" rate -v \
            remix 1 1v0.89 delay 0 0.0004 pad "$lead" "$tail"
    else
        "${SOX[@]}" "$tmp/$speech.wav" -r "$rate" -c 1 -b 16 "$voice" rate -v pad "$lead" "$tail"
    fi
    local seconds
    seconds=$(soxi -D "$voice")
    room "$name" "$rate" "$channels" "$seconds" "$pink" "$brown"
    "${SOX[@]}" -m "$voice" "$tmp/$name-room.wav" "$tmp/$name-mix.wav"
    if [ -f "$tmp/$name-tap.wav" ]; then
        "${SOX[@]}" -m "$tmp/$name-mix.wav" "$tmp/$name-tap.wav" "$tmp/$name-mixtap.wav"
        mv "$tmp/$name-mixtap.wav" "$tmp/$name-mix.wav"
    fi
}

# level NAME TARGET_LUFS: the whole recording, noise and all, brought to TARGET_LUFS, as a
# phone's input gain would put it. Writes $tmp/NAME.wav. BS.1770's absolute gate (-70 LUFS) lets
# more quiet blocks in as the level rises, so loudness is not linear in gain: a second pass
# corrects what the first one missed.
level() {
    local name=$1 target=$2 measured gain
    measured=$(loudness "$tmp/$name-mix.wav")
    gain=$(awk -v t="$target" -v m="$measured" 'BEGIN { printf "%.2f", t - m }')
    "${SOX[@]}" "$tmp/$name-mix.wav" "$tmp/$name.wav" gain "$gain"
    measured=$(loudness "$tmp/$name.wav")
    gain=$(awk -v g="$gain" -v t="$target" -v m="$measured" 'BEGIN { printf "%.2f", g + t - m }')
    "${SOX[@]}" "$tmp/$name-mix.wav" "$tmp/$name.wav" gain "$gain"
}

# 01: a voice memo at 16 kHz with long dead air at both ends, a tap on the phone before the
# speech and a pause of more than a second inside the message, which trimming must keep.
speak first-a en-us+f3 150 "First kilometre done!"
pause first-gap 1.2
speak first-b en-us+f3 150 "Nice and easy. Settle into your pace."
sox "$tmp/first-a.wav" "$tmp/first-gap.wav" "$tmp/first-b.wav" "$tmp/first.wav"
tap first 16000 1 1.4
record first first 16000 1 2.0 2.5 -42 -58
level first -23
"${SOX[@]}" "$tmp/first.wav" "$out/01-first-km-dead-air.wav"

# 02: a 44.1 kHz stereo recording (a phone's voice recorder app), kept losslessly as FLAC.
speak halfway en-gb+m3 160 "You're halfway there! We are so proud of you."
record halfway halfway 44100 2 1.0 1.5 -45 -60
level halfway -20
"${SOX[@]}" "$tmp/halfway.wav" "$out/02-halfway-stereo-44k.flac"

# 03: an MP3, as a messaging app or a web recorder exports it: 44.1 kHz mono at 64 kb/s.
speak five en-us+m1 165 "Five kilometres! Looking strong. Drink some water at the next station."
record five five 44100 1 0.8 1.2 -44 -58
level five -18
ffmpeg -hide_banner -loglevel error -nostdin -y -i "$tmp/five.wav" -map_metadata -1 \
    -c:a libmp3lame -b:a 64k -fflags +bitexact -flags:a +bitexact "$out/03-five-km.mp3"

# 04: a very quiet one: a phone held far away, recorded at 8 kHz like an old voicemail.
speak quiet en-us+f2 140 "Eight kilometres. You are doing brilliantly, just keep going."
record quiet quiet 8000 1 1.5 2.0 -40 -55
level quiet -45
"${SOX[@]}" "$tmp/quiet.wav" "$out/04-quiet-eight-km.wav"

# 05: a hot one: shouted straight into the microphone, squashed by the phone's automatic gain and
# limited just short of full scale (and, like the real thing, overshooting between samples).
speak hot-raw en-us+m3 175 "Last kilometre! Go, go, go! We are waiting at the finish!"
"${SOX[@]}" "$tmp/hot-raw.wav" "$tmp/hot.wav" \
    compand 0.002,0.05 -80,-80,-60,-30,-30,-8,0,-4 0 -90 0.005 gain -n -0.2 \
    gain 11 compand 0.0001,0.01 -12,-12,0,-1 0 0 0.001 gain -n -0.1
record hot hot 22050 1 0.8 1.2 -50 -62
"${SOX[@]}" "$tmp/hot-mix.wav" "$out/05-hot-finish-1km.wav" gain -n -0.1

# 06: outdoors at the finish line, with much more noise, as Ogg Vorbis at 48 kHz.
speak finish en-gb+f4 150 "You did it! Congratulations, marathon runner. Come and find us by the big tree."
record finish finish 48000 1 1.0 2.0 -36 -52
level finish -26
ffmpeg -hide_banner -loglevel error -nostdin -y -i "$tmp/finish.wav" -map_metadata -1 \
    -c:a libvorbis -q:a 3 -fflags +bitexact -flags:a +bitexact "$out/06-finish-outdoors.ogg"

# 07 and 08: what phones and browsers send, made from the samples above. An iPhone's Voice Memos
# writes AAC-LC in an M4A, 48 kHz mono; Chrome's MediaRecorder streams Opus in a WebM whose
# Segment and Clusters have unknown sizes and no Duration (a pipe stands in for the stream).
ffmpeg -hide_banner -loglevel error -nostdin -y -i "$out/02-halfway-stereo-44k.flac" -map_metadata -1 \
    -ac 1 -ar 48000 -c:a aac -b:a 64k -movflags +faststart -fflags +bitexact -flags:a +bitexact \
    "$out/07-halfway-iphone.m4a"
ffmpeg -hide_banner -loglevel error -nostdin -y -i "$out/03-five-km.mp3" -map_metadata -1 \
    -ar 48000 -c:a libopus -b:a 32k -frame_duration 60 -fflags +bitexact -flags:a +bitexact \
    -f webm -live 1 -cluster_time_limit 1000 - >"$out/08-five-km-chrome.webm"

echo "make-samples: wrote to $out/ with $(espeak-ng --version | awk '{ print $4 }' | head -1 | tr -d '\n') espeak-ng and $(sox --version | awk '{ print $3 }')"
for file in "$out"/0*; do
    printf '%-32s %8s bytes  %s\n' "$(basename "$file")" "$(wc -c <"$file")" "$(scripts/measure.sh --raw "$file" | awk '{ printf "%s LUFS, %s dBTP", $1, $2 }')"
done
