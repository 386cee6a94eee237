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
# Clippy, every warning an error, runs as the compiler of the workspace's
# own crates in the very builds the tests use: cargo clippy's own mechanism
# (RUSTC_WORKSPACE_WRAPPER=clippy-driver, its arguments in CLIPPY_ARGS),
# with `build` and `test` in place of `check`. The dependencies are then
# compiled once, not checked first and built again (Bevy's check alone took
# six minutes of a cold run).
RUSTC_WORKSPACE_WRAPPER="$(command -v clippy-driver || echo "$(rustc --print sysroot)/bin/clippy-driver")"
export RUSTC_WORKSPACE_WRAPPER
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
# Two builds (issue 21): the retail build (the default: no lab mode, no lab
# seed), which is what a floor runs, and the lab build (`--features lab`),
# which the tests and the certification lab run. Clippy checks both.
#
# Every cargo command here selects the whole workspace, so that cargo
# resolves the dependencies' features once and compiles each dependency
# once: a command that selected one package (`-p cabinet`, `-p meters`)
# resolved them anew and CI compiled Bevy, egui, Tokio, OpenSSL, SQLite
# and a hundred more two or three times (issue 45: the cold run).
#
# The retail build of every library and program, its cabinet kept aside
# for the build-artifact check (cabinet/tests/retail_build.rs); then the
# core's attack tests on the production path (issue 34).
# EGM_CARGO_TIMINGS=1 keeps cargo's timing report of each build
# (target/cargo-timings/): where a cold run's minutes go (issue 76).
timings=()
[ -n "${EGM_CARGO_TIMINGS:-}" ] && timings=(--timings)
cargo build --locked --workspace --lib --bins "${timings[@]}"
target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target_dir/retail"
cp "$target_dir/debug/cabinet" "$target_dir/retail/cabinet"
export EGM_RETAIL_CABINET="$PWD/$target_dir/retail/cabinet"
case "$target_dir" in /*) EGM_RETAIL_CABINET="$target_dir/retail/cabinet" ;; esac
cargo test --locked --workspace --test attacks --test attacks_on_the_tpm --test attacks_round_two --test attacks_round_three --test attacks_round_four
# Every target of the lab build (libraries, binaries, tests, examples, and
# the benchmarks, each run once as a test). Exact-math and statistical
# tests run optimised ([profile.test] opt-level 3).
cargo test --workspace --all-targets --locked --features lab "${timings[@]}" "$@"
