#!/usr/bin/env bash
# Soak scenarios of issue 13 (load, stalled uploads, the 413 read by urllib), printing figures.
# Needs a debug build (swift build) and python3; SOAK_CLIENTS sets the load's clients (100).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/soak.py "$@"
