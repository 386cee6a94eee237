#!/usr/bin/env bash
# Build and run the retail cabinet, windowed, on the shipped configuration
# (assets/config/cabinet.ron: production mode on a TPM, issue 21), installed
# once on this machine as a site installs a cabinet:
#
#   * a software TPM 2.0 (Debian's swtpm) stands in for the cabinet's chip,
#     its state in var/tpm, on loopback ports 2321-2322 (EGM_TPM_PORT);
#   * var/cabinet.ron is the shipped configuration with this TPM; the
#     operator's PIN comes from EGM_OPERATOR_PIN, or a random one is made
#     and printed once, and provisioning sets it in the TPM, which alone
#     holds it (issue 47, hole 7);
#   * var/approved.ron is the approved manifest with this build of the
#     cabinet approved in it (egm-lab approve-program): on a floor the
#     certification lab's manifest lists the certified build instead;
#   * the cabinet is provisioned once (egm-lab provision); critical memory
#     is var/egm.sqlite (its second copy beside it);
#   * every certified program starts through the launcher (egm-lab launch,
#     issue 47): it measures the approved release (this build's cabinet and
#     egm-lab) into the TPM's PCR 15 once per boot, and the key answers only
#     to that measurement on the measured platform. Each run is a power-up
#     of the cabinet: the TPM is power-cycled first.
#
# A software TPM has no firmware: this script measures an evaluation
# platform's boot into its PCRs 0, 2, 4 and 7 in the firmware's place. Such
# an installation protects nothing against whoever can run this script or
# copy var/tpm (docs/install.md, "Platform"); a floor's cabinet has a TPM 2.0
# chip and a measured boot. A new build is a new release: its key is not
# the old one's, and the installation is made again (the old one is kept).
#
# This machine has no note acceptor, ticket printer, door switches or
# attendant key (issue 70): a new installation's configuration names the
# emulated acceptor and printer (egm-acceptor, egm-printer on ptys under
# var/, started here before the cabinet, stopped with it), so every note
# and ticket goes the real drivers' path; the on-screen operator panel
# (--operator-panel, issue 45) feeds its notes and tickets to the emulated
# acceptor (`egm-acceptor send var/acceptor.sock note 0x63` does too), and
# keeps the doors and the attendant key. A configuration that names
# hardware ports starts no emulator.
#
# Installs what the machine lacks first. Extra arguments go to the cabinet
# (e.g. --size 1920x1080). EGM_VAR names another folder for all of the
# installation's state than var/ (a second cabinet on the same machine,
# tools/readme-screenshots.sh). EGM_PROFILE=dev: the retail cabinet of the
# test command's build instead of the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib/deps.sh
egm_need_cargo
egm_ensure_packages "${EGM_DEBIAN_PACKAGES[@]}"
# EGM_PROFILE=dev runs the same retail cabinet from the test command's own
# build (unoptimised, no release build's twenty minutes on two cores).
case "${EGM_PROFILE:-release}" in
    release)
        cargo build --release --locked -p cabinet -p egm-tools --bin cabinet --bin egm-lab --bin egm-acceptor --bin egm-printer
        bin="${CARGO_TARGET_DIR:-target}/release" ;;
    dev)
        cargo build --locked --workspace --lib --bins
        bin="${CARGO_TARGET_DIR:-target}/debug" ;;
    *)
        echo "error: EGM_PROFILE must be release or dev, not ${EGM_PROFILE}" >&2
        exit 2 ;;
esac
var="${EGM_VAR:-var}"
mkdir -p "$var"

# A new build, or a new approved manifest, is a new release (issue 47,
# hole 1; issue 68: the release is the programs and every approved
# paytable). The installation's key answers to every release its own
# release-signing key (var/release-key.pk8) signed, but a cabinet moves to
# another release only with its logic door open, recorded under the one
# before (as a floor does: `egm-lab sign-release`, docs/install.md). An evaluation
# build changes often: the installation is made again instead; the old one
# is kept aside. (One provisioned before releases were signed is made
# again too: its key answers one release only.)
release=$(sha256sum "$bin/cabinet" "$bin/egm-lab" assets/paytables/approved.ron | awk '{print $1}' | tr -d '\n')
release="$release signed"
if [ -f "$var/egm.sqlite" ] && [ "$(cat "$var/release" 2>/dev/null)" != "$release" ]; then
    old="$var/before-release-$(date -u +%Y%m%dT%H%M%SZ)"
    mkdir -p "$old"
    mv "$var"/egm.sqlite* "$var/tpm" "$var/cabinet.ron" "$var/nvram.bin" "$var/release" "$var/release-key.pk8" "$old"/ 2>/dev/null || true
    echo "a new release: the installation is made again (the earlier one is in $old)"
fi

# The software TPM: started unless it already answers.
port="${EGM_TPM_PORT:-2321}"
tcti="swtpm:host=127.0.0.1,port=$port"
export TPM2TOOLS_TCTI="$tcti"
tpm_pid=""
start_tpm() {
    mkdir -p "$var/tpm"
    # Manufactured once, as a chip leaves its factory (issue 68, attack 3):
    # its endorsement keys made and certified by a CA of its own
    # (var/tpm-ca; swtpm_localca). An evaluation cabinet's sessions are
    # salted to that key; a floor cabinet would refuse it, its certificate
    # chaining to no manufacturer's root the program carries
    # (`egm-lab endorsement --tpm ...` says so).
    if [ ! -f "$var/tpm/tpm2-00.permall" ]; then
        local ca
        ca=$(realpath -m "$var/tpm-ca")
        mkdir -p "$ca"
        printf 'statedir = %s\nsigningkey = %s/signkey.pem\nissuercert = %s/issuercert.pem\ncertserial = %s/certserial\n' \
            "$ca" "$ca" "$ca" "$ca" >"$ca/localca.conf"
        printf 'create_certs_tool = /usr/bin/swtpm_localca\ncreate_certs_tool_config = %s/localca.conf\ncreate_certs_tool_options = /etc/swtpm-localca.options\nactive_pcr_banks = sha256\n' \
            "$ca" >"$ca/swtpm_setup.conf"
        swtpm_setup --tpm2 --create-ek-cert --config "$ca/swtpm_setup.conf" --tpmstate "$(realpath -m "$var/tpm")" >/dev/null
    fi
    swtpm socket --tpm2 --flags not-need-init,startup-clear \
        --server "type=tcp,bindaddr=127.0.0.1,port=$port" \
        --ctrl "type=tcp,bindaddr=127.0.0.1,port=$((port + 1))" \
        --tpmstate dir="$var/tpm" &
    tpm_pid=$!
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.1
    done
}
# A power-up of the cabinet: the TPM reset (its PCRs at zero), then the
# evaluation platform's measured boot in the firmware's place.
power_up() {
    tpm2_shutdown -c >/dev/null 2>&1 || true
    swtpm_ioctl --tcp "127.0.0.1:$((port + 1))" -i
    tpm2_startup -c
    tpm2_pcrextend \
        "0:sha256=$(printf 'evaluation platform: firmware (swtpm has none)' | sha256sum | cut -c1-64)" \
        "2:sha256=$(printf 'evaluation platform: option ROMs' | sha256sum | cut -c1-64)" \
        "4:sha256=$(printf 'evaluation platform: boot loader' | sha256sum | cut -c1-64)" \
        "7:sha256=$(printf 'evaluation platform: secure boot state' | sha256sum | cut -c1-64)"
}
if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    start_tpm
fi
power_up
cleanup() {
    [ -n "$tpm_pid" ] && kill "$tpm_pid" 2>/dev/null || true
    [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null || true
    for pid in "${emulator_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
emulator_pids=()
trap cleanup EXIT

# The site's configuration, made once from the shipped one.
if [ ! -f "$var/cabinet.ron" ]; then
    # Critical memory of an earlier, uninstalled run (lab mode, the file
    # stand-in) is kept aside, never opened with this TPM.
    if compgen -G "$var/egm.sqlite*" >/dev/null; then
        old="$var/before-install-$(date -u +%Y%m%dT%H%M%SZ)"
        mkdir -p "$old"
        mv "$var"/egm.sqlite* "$old"/
        echo "earlier critical memory moved to $old"
    fi
    pin="${EGM_OPERATOR_PIN:-}"
    if [ -z "$pin" ]; then
        pin=$(printf '%05d%05d' "$(($(od -An -N4 -tu4 /dev/urandom) % 100000))" "$(($(od -An -N4 -tu4 /dev/urandom) % 100000))")
        echo "operator PIN for RAM clears: $pin (shown once; set EGM_OPERATOR_PIN to choose it)"
        echo "  keep it: every RAM clear of this cabinet needs it, and nothing recovers it (the TPM"
        echo "  alone holds it, no file a hash of it); lost, the cabinet is installed again from an empty var/"
    fi
    text=$(<assets/config/cabinet.ron)
    text=${text//'tcti: "device:/dev/tpmrm0"'/"tcti: \"$tcti\""}
    # A software TPM: an evaluation cabinet (issue 47), which every screen
    # says; production refuses a software TPM otherwise.
    text=${text//'mode: Production,'/'mode: Production,
        evaluation: true,'}
    text=${text//'"assets/paytables/approved.ron"'/'"var/approved.ron"'}
    # Every file of the installation in its own folder.
    text=${text//'"var/'/"\"$var/"}
    # No hardware here: the emulated acceptor (its notes the machine's
    # accepted notes) and printer (issue 70).
    if [[ "$text" != *"acceptor:"* ]]; then
        text="${text%)*}    acceptor: Some((port: \"$var/acceptor\", notes: [(code: 0x62, cents: 500), (code: 0x63, cents: 1000), (code: 0x64, cents: 2000), (code: 0x65, cents: 5000)], emulator: Some(\"$var/acceptor.sock\"))),
    printer: Some((port: \"$var/printer\")),
)"
    fi
    printf '%s\n' "$text" >"$var/cabinet.ron.new"
    mv "$var/cabinet.ron.new" "$var/cabinet.ron"
fi

# This build approved (every run: the build may have changed): the release
# the launcher measures.
cp assets/paytables/approved.ron "$var/approved.ron"
"$bin/egm-lab" approve-program "$bin/cabinet" --manifest "$var/approved.ron" >/dev/null
"$bin/egm-lab" approve-program "$bin/egm-lab" --manifest "$var/approved.ron" >/dev/null
# Signed by the installation's own release-signing key (issue 68), made
# once; a floor's is the lab's, kept off the cabinet.
if [ ! -f "$var/release-key.pk8" ]; then
    "$bin/egm-lab" release-key --out "$var/release-key.pk8" >/dev/null
fi
"$bin/egm-lab" sign-release --key "$var/release-key.pk8" --manifest "$var/approved.ron" >/dev/null
launch=("$bin/egm-lab" launch --config "$var/cabinet.ron" --manifest "$var/approved.ron" --)

if [ ! -f "$var/egm.sqlite" ]; then
    # Provisioning takes ownership of the TPM with secrets derived from
    # the operator's PIN: the operator is present.
    pin="${pin:-${EGM_OPERATOR_PIN:-}}"
    if [ -z "$pin" ]; then
        read -rsp "operator PIN (provisions this cabinet's TPM): " pin
        echo
    fi
    printf '%s\n' "$pin" | "${launch[@]}" "$bin/egm-lab" provision "$var/egm.sqlite" --config "$var/cabinet.ron"
    printf '%s' "$release" >"$var/release"
    # Provisioning took the key in this boot: the cabinet has a power-up
    # of its own.
    power_up
fi

# The emulated devices the configuration names, on their ptys before the
# cabinet opens them (issue 70): what each takes in, prints or gives back
# is appended to var/acceptor.log and var/printer.log; the acceptor keeps a
# note in its path through its own restart (var/acceptor.state).
start_emulator() {
    local name=$1
    shift
    "$bin/egm-$name" --link "$var/$name" --control "$var/$name.sock" --record "$var/$name.log" "$@" </dev/null >"$var/$name.out" 2>&1 &
    emulator_pids+=($!)
    for _ in $(seq 100); do
        [ -e "$var/$name" ] && return 0
        sleep 0.1
    done
    echo "error: egm-$name did not start (see $var/$name.out)" >&2
    exit 1
}
if grep -q "port: \"$var/acceptor\"" "$var/cabinet.ron"; then
    rm -f "$var/acceptor"
    start_emulator acceptor --state "$var/acceptor.state"
    echo "note acceptor: emulated (egm-acceptor send $var/acceptor.sock note 0x63 | ticket DIGITS | jam | ...)"
fi
if grep -q "port: \"$var/printer\"" "$var/cabinet.ron"; then
    rm -f "$var/printer"
    start_emulator printer
    echo "ticket printer: emulated (tickets in $var/printer.log; egm-printer send $var/printer.sock paper 0 | open | ...)"
fi

# No display (a headless server): run under a virtual one.
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "no display found: starting Xvfb :99 (screenshots via the audit menu or F12)"
    Xvfb :99 -screen 0 1920x1080x24 >/dev/null 2>&1 &
    xvfb_pid=$!
    export DISPLAY=:99
    sleep 1
fi
"${launch[@]}" "$bin/cabinet" --windowed --operator-panel --config "$var/cabinet.ron" --db "$var/egm.sqlite" "$@"
