#!/usr/bin/env bash
# Runs the Swift tests (built already: swift build --build-tests) in two processes, one after the
# other: the server's tests, then all the others. For some of them, `swift test --filter` instead.
#
# Why two: Swift concurrency runs every test of a process, and the servers those tests start in
# it, on one cooperative pool with a thread a core, two here. The audio, tracker and command line
# tests are synchronous and long (seconds of arithmetic, or waiting on ffmpeg), each holding a
# pool thread while it runs; with hundreds of them queued, a server's next step waits minutes
# behind them, and its header timeouts, rate limits and request deadlines fail tests that have
# nothing wrong. Apart, the server's tests wait for no one's queue. One after the other takes
# about the time of one process for both (the machine is busy either way); side by side, the
# server's tests that process uploads slowed to the point of missing their own deadlines.
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}

bundle="$("$swift" build --show-bin-path)/voicemsgPackageTests.xctest"
if [[ ! -f $bundle || ! -x $bundle ]]; then
  # Elsewhere (macOS) the tests are a bundle that only `swift test` runs: one process.
  exec "$swift" test --skip-build
fi

servers='^VoicemsgServerTests\.'
status=0
lane() {
  echo "swift-tests: the tests with $*"
  NO_COLOR=1 "$bundle" --testing-library swift-testing "$@" || status=1
}
lane --filter "$servers"
lane --skip "$servers"
exit $status
