#!/usr/bin/env bash
# The linked progressive controller's throughput (issues 13 and 46):
# contributions per second from N concurrent cabinets over TLS to the
# controller's service (the only client of PostgreSQL), one contribution
# per request and batched; a verified award's latency (commit and nonce,
# then the claim that reveals the key and is drawn again); an honest
# cabinet's rate alone and while another certificate floods the service.
# The throughput and award benches run on a service with its pacing of
# committed rounds and of contribution rows lifted (they measure the
# controller's rate and a commit's latency, not the pacing: 4 rounds and
# 100 rows a second a cabinet); the flood bench on a second instance with
# the limits a site runs (issue 69: what a certificate can do within them).
#
#   tools/bench-controller.sh [CABINETS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cabinets=${1:-8}
seconds=${2:-5}
cargo build --release --locked -p egm-tools --bin egm-progressive
bin="${CARGO_TARGET_DIR:-target}/release/egm-progressive"
admin=$(tools/postgres.sh start)
"$bin" install "$admin" >/dev/null
"$bin" register "$admin" egm-operator --role operator >/dev/null
"$bin" register "$admin" egm-service --role service >/dev/null
pki=$(tools/postgres.sh pki)
port=$((27000 + RANDOM % 1000))
"$bin" serve "$(tools/postgres.sh url egm-service)" --listen "127.0.0.1:$port" \
    --ca "$pki/ca.crt" --cert "$pki/server.crt" --key "$pki/server.key" \
    --rounds-per-second 100000 --rows-per-second 10000000 >/dev/null 2>&1 &
service=$!
limited=$((port + 1))
"$bin" serve "$(tools/postgres.sh url egm-service)" --listen "127.0.0.1:$limited" \
    --ca "$pki/ca.crt" --cert "$pki/server.crt" --key "$pki/server.key" 2>/dev/null &
defaults=$!
trap 'kill $service $defaults 2>/dev/null || true' EXIT
urls=()
for i in $(seq 0 $((cabinets - 1))); do
    "$bin" register "$admin" "BENCH-$i" --role cabinet >/dev/null
    urls+=("$(tools/postgres.sh service-url "BENCH-$i" "$port")")
done
sleep 1
operator=$(tools/postgres.sh url egm-operator)
for batch in 1 10; do
    "$bin" bench "$operator" "${urls[@]}" --seconds "$seconds" --batch "$batch"
done
"$bin" bench-award "$operator" "${urls[0]}" --rounds 200
"$bin" bench-flood "$operator" "$(tools/postgres.sh service-url BENCH-0 "$limited")" \
    "$(tools/postgres.sh service-url BENCH-1 "$limited")" --seconds "$seconds"
