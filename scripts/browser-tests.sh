#!/usr/bin/env bash
# Runs the browser tests of the web pages (Tests/Browser/test_pages.py, and test_run.py for the
# run itself) in headless Chromium against a real voicemsg-server. Installs what is missing
# first: Debian's chromium and chromium-driver, espeak-ng and ffmpeg (apt), and Selenium from
# PyPI into .build-venv.
#
#   scripts/browser-tests.sh [path/to/voicemsg-server] [test_pages.py options, e.g. --only record]
set -euo pipefail
cd "$(dirname "$0")/.."

server=.build/debug/voicemsg-server
if [[ $# -gt 0 && $1 != -* ]]; then server=$1; shift; fi

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
command -v espeak-ng >/dev/null || missing+=(espeak-ng)
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
if ((${#missing[@]})); then
  if [[ $(uname -s) != Linux ]] || ! command -v apt-get >/dev/null; then
    # As the PostgreSQL tests do without PostgreSQL: say so, and let the rest of `make test` pass.
    echo "browser-tests: SKIPPED: missing ${missing[*]}; they need Debian's chromium and chromium-driver (apt)" >&2
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
# route); both run, and either failing fails the whole.
status=0
"$venv/bin/python" Tests/Browser/test_pages.py --server "$server" "$@" || status=1
"$venv/bin/python" Tests/Browser/test_run.py --server "$server" || status=1
exit $status
