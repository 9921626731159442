#!/usr/bin/env bash
# Soak scenarios of issue 13 (scripts/soak.py lists them; name some to run only those), printing figures.
# Needs a debug build (swift build) and python3; SOAK_CLIENTS sets the load's clients (100).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/soak.py "$@"
