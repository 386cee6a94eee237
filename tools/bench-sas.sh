#!/usr/bin/env bash
# The SAS link's timing while the cabinet plays (issue 48): the reference
# host (egm-sas-host bench) holds 25 polls a second, each fifth a long
# poll (current credits, the meter group, selected meters), on a pty to a
# real cabinet in a real window under Xvfb that plays rounds of
# Ocean Treasure the whole time. Prints reply start p50/p99/max and the
# largest gap inside a reply as the host read them, missed replies and bad
# frames, and how many games the cabinet played meanwhile. A benchmark,
# not a test: the figures go in the notes.
#
# --load (issue 71): the budget must hold on a loaded machine, not only a
# quiet one: one busy process per CPU at ordinary priority beside the
# cabinet for the whole run, as `stress --cpu N` loads them. The cabinet's
# own view of its replies (the port's reply start, logged every minute)
# is printed beside the host's, and each of the host's five slowest replies
# is split where its time went: the poll on its way in (the host's write
# to the port's read), in the port (read to reply written), the reply on
# its way out (written to the host's read), all on the machine's monotonic
# clock (the lab cabinet's EGM_SAS_TIMES file).
#
#   tools/bench-sas.sh [SECONDS] [--release] [--load]   (default 600 s, debug build)
#   EGM_CABINET=path EGM_SAS_HOST=path tools/bench-sas.sh …   (binaries built elsewhere)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=600
target="${CARGO_TARGET_DIR:-target}"
profile=debug
flag=()
load=0
for arg in "$@"; do
    case "$arg" in
        --release) profile=release; flag=(--release) ;;
        --load) load=1 ;;
        [0-9]*) seconds="$arg" ;;
        *) echo "bench-sas: unknown argument $arg (SECONDS, --release, --load)" >&2; exit 2 ;;
    esac
done
if [ -n "${EGM_CABINET:-}" ] && [ -n "${EGM_SAS_HOST:-}" ]; then
    cabinet="$EGM_CABINET"
    host="$EGM_SAS_HOST"
else
    cargo build --locked -q "${flag[@]}" -p cabinet --features lab
    cargo build --locked -q "${flag[@]}" -p egm-tools --bin egm-sas-host
    cabinet="$target/$profile/cabinet"
    host="$target/$profile/egm-sas-host"
fi
dir="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT
"$host" --pty --path-file "$dir/pty" --wait 120 bench --seconds "$seconds" > "$dir/host.log" 2>&1 &
hostpid=$!
for _ in $(seq 1 100); do [ -s "$dir/pty" ] && break; sleep 0.1; done
pty="$(cat "$dir/pty")"
sed -e 's/mode: Production,/mode: Lab,/' -e '/key_store: Tpm/d' \
    -e "s#\"var/tickets\"#\"$dir/tickets\"#" -e "s#\"var/egm-nvram\"#\"$dir/nvram\"#" \
    -e "s#^    autoplay_max:#    sas: Some((port: \"$pty\", address: 1, line: Pty)),\n    autoplay_max:#" \
    assets/config/cabinet.ron > "$dir/cabinet.ron"
grep -q 'sas: Some' "$dir/cabinet.ron"
display=":$((250 + RANDOM % 50))"
Xvfb "$display" -screen 0 1920x1200x24 -nolisten tcp -noreset >/dev/null 2>&1 &
sleep 1
EGM_SAS_TIMES="$dir/port-times" DISPLAY="$display" XDG_RUNTIME_DIR="$dir" "$cabinet" --windowed --size 1280x720 --lab-seed 7 \
    --config "$dir/cabinet.ron" --db "$dir/egm.sqlite" --screenshot-dir "$dir/shots" > "$dir/cabinet.log" 2>&1 &
for _ in $(seq 1 120); do
    id="$(DISPLAY="$display" xdotool search --name "EGM cabinet" 2>/dev/null | head -1 || true)"
    [ -n "$id" ] && break
    sleep 0.5
done
DISPLAY="$display" xdotool windowfocus "$id"
sleep 3
key() { DISPLAY="$display" xdotool key --delay 80 "$@"; }
# Notes, Ocean Treasure, then play as a player would for the whole run:
# the play button (which also starts the next round) and collect.
key 4 4 4 Right
if [ "$load" = 1 ]; then
    for _ in $(seq 1 "$(nproc)"); do
        timeout "$((seconds + 5))" sh -c 'while :; do :; done' &
    done
    echo "load: $(nproc) busy processes at ordinary priority beside the cabinet"
fi
while kill -0 "$hostpid" 2>/dev/null; do
    key space
    sleep 1
    key Return
    sleep 1
done
wait "$hostpid" || true
sleep 6 # the cabinet writes its replies' times every 5 s
cat "$dir/host.log"
echo "cabinet log: $(grep -o 'SAS link [a-z]*' "$dir/cabinet.log" | sort | uniq -c | tr '\n' ' ')"
echo "cabinet's $(grep -o 'port thread: [^)]*)[^)]*' "$dir/cabinet.log" | sort -u | tr '\n' ' ')"
echo "cabinet's own view: $(grep -o 'SAS port: .*' "$dir/cabinet.log" | tail -1)"
# Where each slow reply's time went: the port's read and write of the
# same poll (the one read between the host's write and its read).
grep '^slow reply' "$dir/host.log" | while read -r _ _ _ start _ _ _ _ sent _ _ _ first _; do
    sent="${sent%,}"
    awk -v s="$sent" -v f="$first" -v us="$start" '
        $1 >= s && $1 <= f { printf "  reply of %s us: in %d us (host write -> port read), port %d us, out %d us (port write -> host read)\n", us, $1 - s, $2 - $1, f - $2; found = 1; exit }
        END { if (!found) printf "  reply of %s us: no port read between the host'"'"'s write and read\n", us }' "$dir/port-times" 2>/dev/null || echo "  (no port times: a retail cabinet, or EGM_SAS_TIMES unset)"
done
