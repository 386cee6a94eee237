#!/usr/bin/env bash
# What the game host costs a cabinet's frame while its linked controller is
# up, slow (its level rows held by another transaction) and down (killed),
# then back up (issue 35, attack 4: the session never waits on the network).
# Starts the project's PostgreSQL (tools/postgres.sh) and prints, for each
# phase, the host's time per frame: mean, p95, worst.
#
#   tools/bench-link-frames.sh [SECONDS_PER_PHASE]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --locked -q -p egm-integration --features lab --bin egm-link-frames -- "${1:-10}"
