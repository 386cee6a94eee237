#!/usr/bin/env bash
# Build and run the cabinet, windowed, on the embedded defaults: critical
# memory in var/egm.sqlite, assets/config/cabinet.ron, the approved paytables.
# Installs what the machine lacks first. Extra arguments go to the cabinet
# (e.g. --size 1920x1080, --config FILE, --fullscreen).
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib/deps.sh
egm_need_cargo
egm_ensure_packages "${EGM_DEBIAN_PACKAGES[@]}"
cargo build --release --locked -p cabinet
mkdir -p var
# No display (a headless server): run under a virtual one.
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "no display found: starting Xvfb :99 (screenshots via the audit menu or F12)"
    Xvfb :99 -screen 0 1920x1080x24 >/dev/null 2>&1 &
    export DISPLAY=:99
    sleep 1
fi
exec target/release/cabinet --windowed --db var/egm.sqlite "$@"
