#!/usr/bin/env bash
# Run the full dieharder battery (`dieharder -a`) on the raw output of the
# core's generator (certification.md A-9). Installs Debian's dieharder when
# it is missing. Usage: tools/dieharder.sh [REPORT_FILE]
# The summary of the last run is kept in docs/rng-dieharder.md.
set -euo pipefail
cd "$(dirname "$0")/.."
report="${1:-target/dieharder-report.txt}"
if ! command -v dieharder >/dev/null; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq dieharder
fi
cargo build --release -q -p egm-tools --bin egm-lab
mkdir -p "$(dirname "$report")"
# -g 200: raw binary input on stdin; the stream is endless fresh-entropy output.
target/release/egm-lab rng-dump | dieharder -a -g 200 | tee "$report"
echo
echo "PASSED: $(grep -c PASSED "$report")  WEAK: $(grep -c WEAK "$report")  FAILED: $(grep -c FAILED "$report")"
! grep -q FAILED "$report"
