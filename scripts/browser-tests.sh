#!/usr/bin/env bash
# Runs the browser tests of the web pages (Tests/Browser/test_pages.py, and test_run.py for the
# run itself) against a real voicemsg-server, in both engines a phone's browser can be: headless
# Chromium, and WebKitGTK (Safari's engine) under Xvfb. Installs what is missing first:
# Debian's chromium and chromium-driver; webkit2gtk-driver (WebKitWebDriver and the MiniBrowser),
# xvfb and matchbox-window-manager (a 375x667 phone's screen the browser fills), and the
# GStreamer plugins WebKitGTK plays and records with (Ogg and Opus in -base, WebM and MP4 in
# -good, the AAC encoder in -bad, FFmpeg's decoders in gstreamer1.0-libav); espeak-ng and ffmpeg;
# and Selenium from PyPI into .build-venv.
#
#   scripts/browser-tests.sh [path/to/voicemsg-server] [options, e.g. --engine webkit --only record]
set -euo pipefail
cd "$(dirname "$0")/.."

server=.build/debug/voicemsg-server
if [[ $# -gt 0 && $1 != -* ]]; then server=$1; shift; fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for package in chromium chromium-driver webkit2gtk-driver xvfb matchbox-window-manager espeak-ng ffmpeg \
    gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav; do
  if command -v dpkg-query >/dev/null; then
    installed "$package" || missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  if [[ $(uname -s) != Linux ]] || ! command -v apt-get >/dev/null; then
    # As the PostgreSQL tests do without PostgreSQL: say so, and let the rest of `make test` pass.
    echo "browser-tests: SKIPPED: missing ${missing[*]}; they need Debian's packages (apt)" >&2
    exit 0
  fi
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  echo "browser-tests: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

venv=.build-venv
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  echo "browser-tests: installing Selenium into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q selenium
fi

if [[ ! -x $server ]]; then
  echo "browser-tests: no server at $server; build it first: swift build --product voicemsg-server" >&2
  exit 1
fi
# The recording and runner's pages, then the run itself (planned, got ready, run along a real
# route); all run, and any failing fails the whole.
export PYTHONUNBUFFERED=1
pages() { "$venv/bin/python" Tests/Browser/test_pages.py --server "$server" "$@"; }
runs() { "$venv/bin/python" Tests/Browser/test_run.py --server "$server" "$@"; }
suites() {
  local status=0
  pages "$@" || status=1
  runs "$@" || status=1
  return $status
}
# Each file passes over the other's scenario names, so a name neither knows would run nothing
# and pass: it is refused here, where both are known.
known=()
for name in $(pages --list) $(runs --list); do known+=("$name"); done
unknown() {
  [[ " ${known[*]} " == *" $1 "* ]] && return 1
  echo "browser-tests: no scenario is named '$1'; they are: ${known[*]}" >&2
}
# One pass over the options: the names checked, and whether an engine or scenarios were chosen.
chosen=false
engine=false
previous=""
for arg in "$@"; do
  if [[ $previous == --only || $previous == --skip ]]; then unknown "$arg" && exit 2; fi
  if [[ $arg == --only=* || $arg == --skip=* ]]; then unknown "${arg#*=}" && exit 2; fi
  [[ $arg == --engine || $arg == --engine=* ]] && engine=true
  [[ $arg == --only || $arg == --only=* ]] && chosen=true
  previous=$arg
done
if $engine; then
  suites "$@"
  exit
fi

# Side by side, each line marked with its lane. A run scenario spends most of its time waiting
# the second between two fixes (the 2-core machine is more than 80% idle then), so the suites
# take about the time of the longest lane, not the sum. Each process has its own server,
# display, temporary folder and screenshots' names. The whole of `make test` runs each engine in
# two lanes: three run scenarios whose replays take about as long as the pages and the rest of
# the run scenarios together, and those (a scenario added later runs there). Scenarios chosen
# with --only run in one lane an engine.
SECOND_LANE=(reload course refusals)
# Every lane's lines are kept as well, so that its failures can be repeated last: a lane that
# fails early has its summary far above the end, where a CI log is cut.
lines=$(mktemp -d)
trap 'rm -rf "$lines"' EXIT
pids=()
names=()
lane() {
  local name=$1
  shift
  (
    "$@" 2>&1 | sed -u "s#^#$name | #" | tee "$lines/$name"
  ) &
  pids+=($!)
  names+=("$name")
}
for engine in chromium webkit; do
  if $chosen; then
    lane "$engine" suites --engine "$engine" "$@"
  else
    lane "$engine" suites --engine "$engine" "${SECOND_LANE[@]/#/--skip=}" "$@"
    lane "$engine-2" runs --engine "$engine" "${SECOND_LANE[@]/#/--only=}" "$@"
  fi
done
failed=()
for index in "${!pids[@]}"; do wait "${pids[$index]}" || failed+=("${names[$index]}"); done
if ((${#failed[@]} == 0)); then
  echo "browser-tests: both engines passed"
  exit 0
fi
echo "browser-tests: FAILED in ${failed[*]}:"
for name in "${failed[@]}"; do
  # A summary's failures name their scenario (engine/scenario: check: detail). A lane whose
  # harness stopped before its summary has none: its last line says why.
  grep -E "^$name \|   FAIL  [a-z]+/[a-z-]+: " "$lines/$name" ||
    echo "$name | no failed check reported; its last line: $(tail -n 1 "$lines/$name" | sed "s#^$name | ##")"
done
exit 1
