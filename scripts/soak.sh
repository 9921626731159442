#!/usr/bin/env bash
# The load and fault scenarios (scripts/soak.py lists them; name some to run only those), printing
# figures; docs/operations.md keeps a run's figures.
# Needs a build and python3; VOICEMSG_BIN names the voicemsg to run (default .build/debug/voicemsg;
# `make soak-release` runs the release build, as a deployment would). SOAK_CLIENTS sets the load's clients (100).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/soak.py "$@"
