# Shared by the project's scripts: install what this machine lacks.
# Debian packages are installed with apt-get (as root, or through sudo).

# The Debian packages the workspace needs: Bevy's build and runtime
# libraries, Xvfb with software Vulkan for the cabinet's window tests, and
# PostgreSQL for the linked progressive controller (tools/postgres.sh) with
# OpenSSL for its TLS link and test CA, and
# a software TPM 2.0 with its TSS (swtpm, libtss2; tpm2-tools in tests) for
# the key store and rollback anchor of critical memory; mold, the linker
# (.cargo/config.toml).
EGM_DEBIAN_PACKAGES=(pkg-config libasound2-dev libudev-dev libwayland-dev libxkbcommon-dev mold
                     xvfb mesa-vulkan-drivers libvulkan1 xauth xdotool
                     postgresql openssl libssl-dev swtpm swtpm-tools libtss2-dev tpm2-tools)

egm_need_cargo() {
    if ! command -v cargo >/dev/null 2>&1; then
        echo "error: cargo (Rust 1.95 or newer) is required; install it with rustup" >&2
        exit 1
    fi
}

egm_ensure_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
