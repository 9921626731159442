# Sourced by with-postgres.sh and pg-cluster.sh: where PostgreSQL's server programs are, and
# whom to run them as.
#   bindir    the folder holding initdb and pg_ctl (PG_BINDIR, pg_config's, Debian's or
#             Homebrew's newest), or empty when none is installed
#   as_user   the command prefix that runs them: initdb refuses to run as root, so as root (CI)
#             the cluster runs as the `postgres` user the Debian package creates, or `nobody`
#   user      that user, when as_user is set
bindir="${PG_BINDIR:-}"
if [[ -z "$bindir" ]]; then
    if command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; then
        bindir="$(pg_config --bindir)"
    else
        # Debian keeps the server binaries off PATH; Homebrew's postgresql@N is keg-only.
        bindir="$(ls -d /usr/lib/postgresql/*/bin /opt/homebrew/opt/postgresql@*/bin \
            /usr/local/opt/postgresql@*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    fi
fi
[[ -n "$bindir" && -x "$bindir/initdb" ]] || bindir=""

as_user=()
user=""
if [[ "$(id -u)" == 0 ]]; then
    if id postgres >/dev/null 2>&1; then user=postgres; else user=nobody; fi
    as_user=(runuser -u "$user" --)
fi
