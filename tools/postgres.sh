#!/usr/bin/env bash
# The progressive controller's PostgreSQL server (issues 6 and 13, M-19), for
# tests, CI and users alike: installs PostgreSQL if missing, keeps a private
# cluster in target/postgres, listening on loopback only, and a test PKI.
#
# Nothing reaches it over the network without TLS and a client certificate
# (pg_hba: `hostssl all all 127.0.0.1/32 cert`, the certificate's CN is the
# login); the administrator (the superuser egm) connects only through the
# cluster's own socket, in its 0700 data folder.
#
#   tools/postgres.sh start          start (or reuse) it; prints the administrator's address
#   tools/postgres.sh stop           stop it
#   tools/postgres.sh kill           stop it at once, as a crash would (-m immediate)
#   tools/postgres.sh admin [DB]     the administrator's address (the local socket)
#   tools/postgres.sh url NAME [DB]  the TLS address of login NAME (a cabinet's
#                                    machine ID or an operator), making its
#                                    certificate with the test CA if missing
#   tools/postgres.sh replica        a synchronous streaming replica of the
#                                    cluster on the next port (its data beside
#                                    the primary's, "-replica"): every commit
#                                    waits for it; prints its administrator's address
#   tools/postgres.sh promote        make the replica the primary (failover)
#   tools/postgres.sh replica-stop   stop the replica at once
#   tools/postgres.sh failover-url NAME [DB]  login NAME's address naming both
#                                    servers, the writable one taken
#
# The cluster listens on EGM_PG_PORT where it is set; otherwise on the port
# it took at its first start, kept beside its folder (`<data>.port`): the
# first of 25432, 25434, … (below Linux's ephemeral ports, which a client
# socket in TIME_WAIT once held at 55432) that nothing listens on, with
# the next one free for a replica. Another checkout's cluster, or another
# run's, is never fought over a port (issue 76); one that took ours while
# this cluster was stopped moves it to a free one at its next start.
# EGM_PG_DATA (default target/postgres, or,
# when the postgres account cannot reach the checkout, as in a 0700 temporary
# directory, a folder of this checkout's own under /var/lib/postgresql) move
# it; the PKI (a test CA, the server's and each login's certificate) is in
# target/postgres-pki (EGM_PG_PKI).
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib/deps.sh

PKI=${EGM_PG_PKI:-$PWD/target/postgres-pki}
DB_DEFAULT=egm_progressive

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

# The file that keeps the port this cluster took.
port_file() {
    echo "$(data_dir).port"
}

# Whether anything listens on 127.0.0.1 port $1.
listening() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# The first port from 25432 on, two by two, where nothing listens on it
# or the next (a replica's).
free_ports() {
    local p
    for p in $(seq 25432 2 25830); do
        if ! listening "$p" && ! listening "$((p + 1))"; then
            echo "$p"
            return 0
        fi
    done
    echo "tools/postgres.sh: no two free ports between 25432 and 25831 on 127.0.0.1: set EGM_PG_PORT" >&2
    return 1
}

if [ -n "${EGM_PG_PORT:-}" ]; then
    PORT=$EGM_PG_PORT
elif [ -s "$(port_file)" ]; then
    PORT=$(cat "$(port_file)")
else
    PORT=25432
fi

serial() {
    echo "0x$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
}

# A key pair and a certificate for CN $1, signed by the test CA, with the
# extensions file $2 (by default a client's: an X.509 v3 certificate, as
# rustls requires at the controller's service).
issue() {
    local name=$1 ext=${2:-}
    local tmp="$PKI/.$name.$$"
    if [ -z "$ext" ]; then
        ext="$PKI/client.ext"
        printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n' >"$ext"
    fi
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$name" \
        -keyout "$tmp.key" -out "$tmp.csr" 2>/dev/null
    openssl x509 -req -in "$tmp.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -set_serial "$(serial)" -days 3650 \
        -extfile "$ext" -out "$tmp.crt" 2>/dev/null
    chmod 600 "$tmp.key"
    mv "$tmp.key" "$PKI/$name.key"
    mv "$tmp.crt" "$PKI/$name.crt"
    rm -f "$tmp.csr"
}

# Whether certificate $1 exists and is X.509 v3 (one issued before the
# service was is v1, and is issued again).
v3() {
    [ -f "$1" ] && openssl x509 -in "$1" -noout -text 2>/dev/null | grep -q 'Version: 3'
}

ensure_pki() {
    mkdir -p "$PKI"
    if [ ! -f "$PKI/ca.crt" ]; then
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
            -subj "/CN=EGM progressive controller test CA" -keyout "$PKI/ca.key" -out "$PKI/ca.crt.new" 2>/dev/null
        chmod 600 "$PKI/ca.key"
        mv "$PKI/ca.crt.new" "$PKI/ca.crt"
    fi
    if [ ! -f "$PKI/server.crt" ]; then
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$PKI/server.ext"
        issue server "$PKI/server.ext"
    fi
}

admin_address() {
    echo "host=$(data_dir) port=$PORT user=egm dbname=${1:-$DB_DEFAULT}"
}

case "${1:-start}" in
start)
    command -v openssl >/dev/null || egm_ensure_packages openssl
    BIN=$(pg_bin)
    DATA=$(data_dir)
    ensure_pki
    mkdir -p "$DATA"
    if [ "$(id -u)" = 0 ]; then chown postgres "$DATA"; chmod 700 "$DATA"; fi
    if [ ! -f "$DATA/PG_VERSION" ]; then
        as_pg "$BIN/initdb" -D "$DATA" -U egm --auth=trust -E UTF8 >/dev/null
    fi
    # A stopped cluster whose port another took (a cluster of another
    # checkout or run) moves to a free one; the port it listens on is kept.
    if [ -z "${EGM_PG_PORT:-}" ] && ! as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
        if [ ! -s "$(port_file)" ] || listening "$PORT" || listening "$((PORT + 1))"; then
            PORT=$(free_ports)
        fi
        echo "$PORT" >"$(port_file)"
    fi
    # The server's TLS files inside its own folder, its own.
    for f in ca.crt server.crt server.key; do
        cp "$PKI/$f" "$DATA/egm-$f"
        if [ "$(id -u)" = 0 ]; then chown postgres "$DATA/egm-$f"; fi
        chmod 600 "$DATA/egm-$f"
    done
    cat >"$DATA/pg_hba.conf" <<HBA
# Written by tools/postgres.sh (issue 13): the administrator through the
# local socket only; everyone else over TLS with a client certificate
# whose CN is the login.
local   all  egm                 trust
host    all  egm  127.0.0.1/32   reject
hostssl all  all  127.0.0.1/32   cert
HBA
    cat >"$DATA/egm.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$DATA'
max_connections = 200
fsync = on
ssl = on
ssl_cert_file = 'egm-server.crt'
ssl_key_file = 'egm-server.key'
ssl_ca_file = 'egm-ca.crt'
CONF
    if [ "$(id -u)" = 0 ]; then chown postgres "$DATA/pg_hba.conf" "$DATA/egm.conf"; fi
    grep -q "^include_if_exists = 'egm.conf'" "$DATA/postgresql.conf" || echo "include_if_exists = 'egm.conf'" >>"$DATA/postgresql.conf"
    if as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
        as_pg "$BIN/pg_ctl" -D "$DATA" reload >/dev/null
    elif ! as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 30 start >/dev/null; then
        if tail -20 "$DATA/server.log" 2>/dev/null | grep -q "could not create any TCP/IP sockets"; then
            echo "tools/postgres.sh: port $PORT on 127.0.0.1 is taken (EGM_PG_PORT names it, or another server took it as this one started): stop that server, or set another EGM_PG_PORT" >&2
        fi
        tail -5 "$DATA/server.log" >&2 || true
        exit 1
    fi
    if ! as_pg "$BIN/psql" -h "$DATA" -p "$PORT" -U egm -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$DB_DEFAULT'" | grep -q 1; then
        as_pg "$BIN/createdb" -h "$DATA" -p "$PORT" -U egm "$DB_DEFAULT"
    fi
    admin_address
    ;;
stop) as_pg "$(pg_bin)/pg_ctl" -D "$(data_dir)" -m fast -w stop >/dev/null ;;
kill) as_pg "$(pg_bin)/pg_ctl" -D "$(data_dir)" -m immediate -w stop >/dev/null ;;
admin) admin_address "${2:-}" ;;
url)
    name=${2:?usage: $0 url NAME [DB]}
    case "$name" in *[!A-Za-z0-9_-]*) echo "tools/postgres.sh: $name is not a login name" >&2; exit 2 ;; esac
    ensure_pki
    v3 "$PKI/$name.crt" || issue "$name"
    # Paths percent-encoded, as libpq reads a URL (a space, %, & or #).
    enc() { printf '%s' "$1" | sed -e 's/%/%25/g' -e 's/ /%20/g' -e 's/&/%26/g' -e 's/#/%23/g'; }
    echo "postgres://$name@127.0.0.1:$PORT/${3:-$DB_DEFAULT}?sslrootcert=$(enc "$PKI/ca.crt")&sslcert=$(enc "$PKI/$name.crt")&sslkey=$(enc "$PKI/$name.key")"
    ;;
service-url)
    # A cabinet's address at the controller's service on PORT (issue 46):
    # its certificate by the test CA; cabinets never log into PostgreSQL.
    name=${2:?usage: $0 service-url NAME PORT}
    port=${3:?usage: $0 service-url NAME PORT}
    case "$name" in *[!A-Za-z0-9_-]*) echo "tools/postgres.sh: $name is not a cabinet name" >&2; exit 2 ;; esac
    ensure_pki
    v3 "$PKI/$name.crt" || issue "$name"
    enc() { printf '%s' "$1" | sed -e 's/%/%25/g' -e 's/ /%20/g' -e 's/&/%26/g' -e 's/#/%23/g'; }
    echo "egm://$name@127.0.0.1:$port?sslrootcert=$(enc "$PKI/ca.crt")&sslcert=$(enc "$PKI/$name.crt")&sslkey=$(enc "$PKI/$name.key")"
    ;;
replica)
    # Issue 69, high availability proven: the primary commits only once the
    # replica has the commit (synchronous_standby_names), so what the
    # service acknowledged survives the primary.
    BIN=$(pg_bin)
    DATA=$(data_dir)
    REPLICA="$DATA-replica"
    RPORT=$((PORT + 1))
    as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1 || { echo "tools/postgres.sh: start the primary first" >&2; exit 1; }
    grep -q '^local   replication' "$DATA/pg_hba.conf" || echo "local   replication  egm  trust" >>"$DATA/pg_hba.conf"
    printf "synchronous_standby_names = 'egm_replica'\nsynchronous_commit = on\n" >"$DATA/egm-replication.conf"
    if [ "$(id -u)" = 0 ]; then chown postgres "$DATA/egm-replication.conf"; fi
    grep -q "^include_if_exists = 'egm-replication.conf'" "$DATA/postgresql.conf" || echo "include_if_exists = 'egm-replication.conf'" >>"$DATA/postgresql.conf"
    as_pg "$BIN/pg_ctl" -D "$DATA" reload >/dev/null
    if [ ! -f "$REPLICA/PG_VERSION" ]; then
        mkdir -p "$REPLICA"
        if [ "$(id -u)" = 0 ]; then chown postgres "$REPLICA"; chmod 700 "$REPLICA"; fi
        as_pg "$BIN/pg_basebackup" -h "$DATA" -p "$PORT" -U egm -D "$REPLICA" -X stream -R -c fast >/dev/null 2>&1
        # The replica's own address, and no replica of its own to wait for
        # once it is promoted.
        sed -i -e "s|^port = .*|port = $RPORT|" -e "s|^unix_socket_directories = .*|unix_socket_directories = '$REPLICA'|" "$REPLICA/egm.conf"
        : >"$REPLICA/egm-replication.conf"
        echo "primary_conninfo = 'host=$DATA port=$PORT user=egm application_name=egm_replica'" >>"$REPLICA/postgresql.auto.conf"
        if [ "$(id -u)" = 0 ]; then chown -R postgres "$REPLICA"; fi
    fi
    if ! as_pg "$BIN/pg_ctl" -D "$REPLICA" status >/dev/null 2>&1; then
        as_pg "$BIN/pg_ctl" -D "$REPLICA" -l "$REPLICA/server.log" -w -t 30 start >/dev/null
    fi
    for _ in $(seq 100); do
        state=$(as_pg "$BIN/psql" -h "$DATA" -p "$PORT" -U egm -d postgres -Atc "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'egm_replica'" || true)
        [ "$state" = sync ] && break
        sleep 0.1
    done
    [ "${state:-}" = sync ] || { echo "tools/postgres.sh: the replica is not synchronous (${state:-not connected})" >&2; tail -5 "$REPLICA/server.log" >&2; exit 1; }
    echo "host=$REPLICA port=$RPORT user=egm dbname=${2:-$DB_DEFAULT}"
    ;;
promote) as_pg "$(pg_bin)/pg_ctl" -D "$(data_dir)-replica" -w promote >/dev/null ;;
replica-stop) as_pg "$(pg_bin)/pg_ctl" -D "$(data_dir)-replica" -m immediate -w stop >/dev/null ;;
failover-url)
    name=${2:?usage: $0 failover-url NAME [DB]}
    case "$name" in *[!A-Za-z0-9_-]*) echo "tools/postgres.sh: $name is not a login name" >&2; exit 2 ;; esac
    ensure_pki
    v3 "$PKI/$name.crt" || issue "$name"
    enc() { printf '%s' "$1" | sed -e 's/%/%25/g' -e 's/ /%20/g' -e 's/&/%26/g' -e 's/#/%23/g'; }
    echo "postgres://$name@127.0.0.1:$PORT,127.0.0.1:$((PORT + 1))/${3:-$DB_DEFAULT}?sslrootcert=$(enc "$PKI/ca.crt")&sslcert=$(enc "$PKI/$name.crt")&sslkey=$(enc "$PKI/$name.key")&target_session_attrs=read-write&connect_timeout=2"
    ;;
pki)
    # The test CA's folder: ca.crt, and server.crt/server.key (the names
    # localhost and 127.0.0.1), which the service presents too.
    ensure_pki
    echo "$PKI"
    ;;
*) echo "usage: $0 start|stop|kill|admin [DB]|url NAME [DB]|service-url NAME PORT|pki|replica|promote|replica-stop|failover-url NAME [DB]" >&2; exit 2 ;;
esac
