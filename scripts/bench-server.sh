#!/usr/bin/env bash
# Server and queue bench: queue throughput with no-op jobs (SQLite and PostgreSQL, 1 and 4
# workers) and upload-to-ready latency of a 10 s message (burst of 200, and unsaturated).
# Usage: scripts/bench-server.sh path/to/voicemsg   (a release build: swift build -c release)
# The queue figures use FaultyWorker, the tests' worker built beside voicemsg.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(cd "$(dirname "${1:?usage: $0 path/to/voicemsg}")" && pwd)/$(basename "$1")"
exec scripts/with-postgres.sh python3 -u scripts/bench_server.py "$bin"
