#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster and VOICEMSG_TEST_POSTGRES_URL pointing at it:
#   scripts/with-postgres.sh [--require] swift test --skip-build
# The cluster lives in a temporary folder, listens on 127.0.0.1 at a free port, trusts local
# connections, and is stopped and deleted when the command ends. initdb refuses to run as root,
# so as root (CI) the cluster runs as the `postgres` user the Debian package creates, or `nobody`.
# Without PostgreSQL installed, the command still runs and the PostgreSQL tests show as skipped;
# with --require (make test, and so CI) it fails instead, with a one-line reason.
set -euo pipefail

require=false
if [[ "${1:-}" == "--require" ]]; then
    require=true
    shift
fi

# shellcheck source=postgres-env.sh
source "$(dirname "$0")/postgres-env.sh"
if [[ -z "$bindir" ]]; then
    if $require; then
        echo "with-postgres.sh: PostgreSQL's initdb not found, and the PostgreSQL tests are required (install the postgresql package)" >&2
        exit 1
    fi
    echo "with-postgres.sh: PostgreSQL's initdb not found (install the postgresql package); running without it" >&2
    exec "$@"
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/voicemsg-pg.XXXXXX")"
chmod 755 "$dir"
[[ ${#as_user[@]} -gt 0 ]] && chown "$user" "$dir"

free_port() {
    local port
    for _ in $(seq 1 50); do
        port=$(( 20000 + RANDOM % 40000 ))
        # Nothing answers on a free port; the subshell fails to connect.
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    return 1
}
port="$(free_port)"

cleanup() {
    "${as_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT

"${as_user[@]}" "$bindir/initdb" -D "$dir/data" -U voicemsg --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; echo "with-postgres.sh: initdb failed; the PostgreSQL tests cannot run" >&2; exit 1; }
"${as_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null || { cat "$dir/server.log" >&2; echo "with-postgres.sh: the throwaway PostgreSQL did not start; the PostgreSQL tests cannot run" >&2; exit 1; }

export VOICEMSG_TEST_POSTGRES_URL="postgres://voicemsg@127.0.0.1:$port/postgres"
echo "with-postgres.sh: PostgreSQL at $VOICEMSG_TEST_POSTGRES_URL (data in $dir)" >&2
"$@"
