#!/usr/bin/env bash
# Run every test of the workspace. Installs what the machine lacks first.
# This is the README's test command, and exactly what CI runs (.ci/run):
# the format check, clippy with every warning an error, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib/deps.sh
egm_need_cargo
egm_ensure_packages "${EGM_DEBIAN_PACKAGES[@]}"
# The tests start a PostgreSQL cluster of this checkout (tools/postgres.sh);
# stop it when the run ends, pass or fail, so that it never holds the port
# against the next run or another checkout.
trap 'tools/postgres.sh stop >/dev/null 2>&1 || true' EXIT
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
# Exact-math and statistical tests run optimised ([profile.test] opt-level 3).
cargo test --workspace --locked "$@"
