#!/usr/bin/env bash
# Runs the command given (the Swift tests), keeps its whole output in .build/test.log, and if
# it fails, repeats the failures at the end: a CI log that keeps only its tail still names the
# test that failed and why. Known issues (withKnownIssue) are not failures and are left out.
set -uo pipefail
log="${TEST_LOG:-.build/test.log}"
mkdir -p "$(dirname "$log")"
"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "== the failures above, again (whole output in $log) =="
    grep -a '✘' "$log" | grep -av 'known issue' | grep -av '✘ Test run with' | head -40
    echo "== exit $status =="
fi
exit "$status"
