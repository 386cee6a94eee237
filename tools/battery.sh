#!/usr/bin/env bash
# The RNG battery with verdicts (issue 51): `egm-lab battery` on the
# shipped cabinet's games, after installing what it runs.
#
#   tools/battery.sh --quick [OUT_DIR]    under 30 minutes on two cores
#   tools/battery.sh --full  [OUT_DIR]    overnight
#
# - dieharder: Debian's package, installed when missing.
# - PractRand: not a Debian package, and this machine reaches only the
#   package registries. Its public-domain source (PractRand 0.95, unpacked)
#   is built here when PRACTRAND_SRC names its folder; without it the
#   battery runs without PractRand and its report says SKIPPED.
# The verdicts are in OUT_DIR/battery.txt and battery.json; the exit code
# is the verdict (0 pass, 3 a failure, 4 INCOMPLETE: a battery not run, 1 an error).
set -euo pipefail
cd "$(dirname "$0")/.."
level="${1:---quick}"
case "$level" in --quick|--full) ;; *) echo "usage: tools/battery.sh --quick|--full [OUT_DIR]" >&2; exit 2 ;; esac
out="${2:-target/battery${level#-}}"
source tools/lib/deps.sh
egm_need_cargo
egm_ensure_packages dieharder
target_dir="${CARGO_TARGET_DIR:-target}"
practrand=()
if [ -n "${PRACTRAND_SRC:-}" ]; then
    bin="$target_dir/practrand/RNG_test"
    if [ ! -x "$bin" ]; then
        egm_ensure_packages g++
        mkdir -p "$(dirname "$bin")"
        echo "building PractRand from $PRACTRAND_SRC"
        g++ -std=c++14 -O3 -pthread -I"$PRACTRAND_SRC/include" \
            "$PRACTRAND_SRC"/src/*.cpp "$PRACTRAND_SRC"/src/RNGs/*.cpp "$PRACTRAND_SRC"/src/RNGs/other/*.cpp \
            "$PRACTRAND_SRC/tools/RNG_test.cpp" -o "$bin"
    fi
    practrand=(--practrand "$bin")
else
    echo "PractRand: PRACTRAND_SRC is not set; the battery runs without it (its report says SKIPPED)" >&2
fi
cargo build --release --locked -q -p egm-tools --features lab --bin egm-lab
exec "$target_dir/release/egm-lab" battery "$level" --config assets/config/cabinet.ron --out "$out" "${practrand[@]}"
