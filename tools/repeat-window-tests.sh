#!/usr/bin/env bash
# Issue 52: the whole window-test suite (cabinet/tests/{screens,window,floor}.rs)
# run N times in a row, to count flakes. Builds the lab test binaries once,
# then runs them as `cargo test` would (from cabinet/), one run after another.
#
#   tools/repeat-window-tests.sh [N]      (default 10)
#
# Run it with nothing else on the machine: the cabinets render in software.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-10}"
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
bins=()
for t in screens window floor; do
    bins+=("$(cargo test --locked -p cabinet --features lab --test "$t" --no-run --message-format=json 2>/dev/null |
        sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)")
done
cd cabinet
pass=0
for i in $(seq 1 "$n"); do
    start=$(date +%s)
    : >"$target/window-run-$i.log"
    ok=1
    for b in "${bins[@]}"; do
        "$b" >>"$target/window-run-$i.log" 2>&1 || ok=0
    done
    [ "$ok" = 1 ] && pass=$((pass + 1))
    echo "run $i: $([ "$ok" = 1 ] && echo passed || echo "FAILED (see $target/window-run-$i.log)") in $(($(date +%s) - start)) s"
done
echo "$pass of $n runs passed"
[ "$pass" = "$n" ]
