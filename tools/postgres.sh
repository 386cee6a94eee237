#!/usr/bin/env bash
# The progressive controller's PostgreSQL server (issue 6, M-19), for tests,
# CI and users alike: installs PostgreSQL if missing, keeps a private
# cluster in target/postgres, listening on loopback only.
#
#   tools/postgres.sh start     start (or reuse) it; prints the database URL
#   tools/postgres.sh stop      stop it
#   tools/postgres.sh kill      stop it at once, as a crash would (-m immediate)
#   tools/postgres.sh url       print the URL
#
# EGM_PG_PORT (default 55432) and EGM_PG_DATA (default target/postgres, or,
# when the postgres account cannot reach the checkout, as in a 0700 temporary
# directory, a folder of this checkout's own under /var/lib/postgresql) move it.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib/deps.sh

PORT=${EGM_PG_PORT:-55432}
URL="postgres://egm@127.0.0.1:$PORT/egm_progressive"

pg_bin() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [ -z "$d" ]; then
        egm_ensure_packages postgresql
        d=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    fi
    echo "$d"
}

# PostgreSQL refuses to run as root: run it as the postgres account (from
# a directory it may enter).
as_pg() {
    if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

data_dir() {
    if [ -n "${EGM_PG_DATA:-}" ]; then
        echo "$EGM_PG_DATA"
    elif [ "$(id -u)" != 0 ] || runuser -u postgres -- test -x "$PWD" 2>/dev/null; then
        echo "$PWD/target/postgres"
    else
        echo "/var/lib/postgresql/egm-$(printf '%s' "$PWD" | sha256sum | cut -c1-12)"
    fi
}

case "${1:-start}" in
start)
    BIN=$(pg_bin)
    DATA=$(data_dir)
    mkdir -p "$DATA"
    if [ "$(id -u)" = 0 ]; then chown postgres "$DATA"; chmod 700 "$DATA"; fi
    if [ ! -f "$DATA/PG_VERSION" ]; then
        as_pg "$BIN/initdb" -D "$DATA" -U egm --auth=trust -E UTF8 >/dev/null
    fi
    if ! as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
        if ! as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 30 \
            -o "-c listen_addresses=127.0.0.1 -p $PORT -c unix_socket_directories=$DATA -c max_connections=200 -c fsync=on" start >/dev/null; then
            if tail -20 "$DATA/server.log" 2>/dev/null | grep -q "could not create any TCP/IP sockets"; then
                echo "tools/postgres.sh: port $PORT on 127.0.0.1 is taken (another cluster, perhaps another checkout's): stop it, or set EGM_PG_PORT" >&2
            fi
            tail -5 "$DATA/server.log" >&2 || true
            exit 1
        fi
    fi
    if ! as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U egm -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'egm_progressive'" | grep -q 1; then
        as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U egm egm_progressive
    fi
    echo "$URL"
    ;;
stop) as_pg "$(pg_bin)/pg_ctl" -D "$(data_dir)" -m fast -w stop >/dev/null ;;
kill) as_pg "$(pg_bin)/pg_ctl" -D "$(data_dir)" -m immediate -w stop >/dev/null ;;
url) echo "$URL" ;;
*) echo "usage: $0 start|stop|kill|url" >&2; exit 2 ;;
esac
