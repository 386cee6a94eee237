#!/usr/bin/env bash
# The linked progressive controller's throughput (issue 13): contributions
# per second over TLS, through the cabinets' own SECURITY DEFINER call, from
# N concurrent cabinets, one contribution per transaction and batched.
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
urls=()
for i in $(seq 0 $((cabinets - 1))); do
    "$bin" register "$admin" "BENCH-$i" --role cabinet >/dev/null
    urls+=("$(tools/postgres.sh url "BENCH-$i")")
done
operator=$(tools/postgres.sh url egm-operator)
for batch in 1 10; do
    "$bin" bench "$operator" "${urls[@]}" --seconds "$seconds" --batch "$batch"
done
