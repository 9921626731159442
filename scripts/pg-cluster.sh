#!/usr/bin/env bash
# A throwaway PostgreSQL cluster that a test or soak scenario stops and starts itself (the
# PostgreSQL-down and restart scenarios), apart from the one with-postgres.sh shares:
#   scripts/pg-cluster.sh init DIR        creates DIR/data (trust auth, user voicemsg)
#   scripts/pg-cluster.sh start DIR PORT  listens on 127.0.0.1:PORT (PG_LISTEN_ADDRESSES adds others); the URL is
#                                         postgres://voicemsg@127.0.0.1:PORT/postgres
#   scripts/pg-cluster.sh stop DIR [fast|immediate]
#   scripts/pg-cluster.sh remove DIR      stops it if running and deletes DIR
# As root the cluster runs as `postgres` (or `nobody`), since initdb refuses to run as root.
set -euo pipefail

command="${1:?usage: pg-cluster.sh init|start|stop|remove DIR [PORT|MODE]}"
dir="${2:?usage: pg-cluster.sh init|start|stop|remove DIR [PORT|MODE]}"

# shellcheck source=postgres-env.sh
source "$(dirname "$0")/postgres-env.sh"
if [[ -z "$bindir" ]]; then
    echo "pg-cluster.sh: PostgreSQL's initdb not found (install the postgresql package)" >&2
    exit 2
fi

case "$command" in
init)
    mkdir -p "$dir"
    chmod 755 "$dir"
    # A private temporary folder (mode 700) would keep the cluster's user out of it.
    [[ ${#as_user[@]} -gt 0 ]] && chmod o+x "$(dirname "$dir")"
    [[ ${#as_user[@]} -gt 0 ]] && chown "$user" "$dir"
    "${as_user[@]}" "$bindir/initdb" -D "$dir/data" -U voicemsg --auth=trust -E UTF8 --no-sync \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; echo "pg-cluster.sh: initdb failed in $dir" >&2; exit 1; }
    ;;
start)
    port="${3:?pg-cluster.sh start DIR PORT}"
    # The server outlives this script: it must not inherit the caller's descriptors beyond
    # stdio (Foundation's Process sees its child end only when every copy of one is closed).
    for fd in /proc/$$/fd/*; do
        fd="${fd##*/}"
        [[ "$fd" =~ ^[0-9]+$ && "$fd" -gt 2 ]] && eval "exec $fd>&-" 2>/dev/null || true
    done
    "${as_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-c listen_addresses=${PG_LISTEN_ADDRESSES:-127.0.0.1} -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null || { tail -5 "$dir/server.log" >&2; echo "pg-cluster.sh: PostgreSQL in $dir did not start on port $port" >&2; exit 1; }
    ;;
stop)
    "${as_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -m "${3:-fast}" -w -t 30 stop >/dev/null
    ;;
remove)
    "${as_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*)
    echo "pg-cluster.sh: unknown command $command (init, start, stop, remove)" >&2
    exit 2
    ;;
esac
