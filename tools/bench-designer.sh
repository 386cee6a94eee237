#!/usr/bin/env bash
# The designer's tool against independent references (issue 73): the
# processor time of `paytable check` for blackjack, 9/6 Jacks or Better and
# the cascade game, each the least of RUNS runs, and the cascade game's
# against an independent C walk of the same cycle (tools/reference/
# cascade_walk.c, written from the paytable alone), run in turn on the same
# machine so that both see the same load. Prints the machine's load first;
# docs/designer-speed.md keeps the figures.
#
#   tools/bench-designer.sh [RUNS]      (default 5; the lab build's paytable)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
target="${CARGO_TARGET_DIR:-target}"
cargo build --locked -q -p egm-tools --bin paytable --features lab
paytable="$target/debug/paytable"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cc -O2 -o "$dir/cascade_walk" tools/reference/cascade_walk.c
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
# The least processor (user + system) and wall seconds of RUNS runs of a command.
least() {
    local best_cpu="" best_wall=""
    for _ in $(seq "$runs"); do
        read -r cpu wall < <( { /usr/bin/time -f "%U %S %e" "$@" > /dev/null; } 2>&1 | awk '{ printf "%.2f %.2f\n", $1 + $2, $3 }')
        if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then best_cpu="$cpu"; fi
        if [ -z "$best_wall" ] || awk -v a="$wall" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then best_wall="$wall"; fi
    done
    echo "$best_cpu $best_wall"
}
for game in blackjack-classico jacks-or-better-9-6 minas-cascata; do
    read -r cpu wall < <(least "$paytable" check "assets/paytables/$game.ron")
    echo "$game: ${cpu} s of processor, ${wall} s on the clock"
done
read -r c_cpu _ < <(least "$dir/cascade_walk")
read -r r_cpu _ < <(least "$paytable" check assets/paytables/minas-cascata.ron)
"$dir/cascade_walk"
awk -v r="$r_cpu" -v c="$c_cpu" 'BEGIN { printf "cascade walk: paytable %.2f s, independent C %.2f s of processor: %.2fx (goal: within 1.5x)\n", r, c, r / c }'
