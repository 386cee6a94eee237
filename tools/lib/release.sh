# The release programs, built as a lab rebuilds them from source (issue 77,
# defect 7): the same source in any folder gives the same bytes.
#
# - The toolchain is pinned (rust-toolchain.toml) and checked against what
#   `rustc -vV` says; the package records both.
# - No path of the build machine reaches a program: the source folder,
#   cargo's home (the dependencies' sources) and the build folder are
#   remapped (rustc's --remap-path-prefix, which cargo leaves out of the
#   crates' metadata hashes; the C compiler's -ffile-prefix-map), and
#   [profile.release] writes no debug information.
# - Nothing else varies: no build script embeds a time or a commit, the
#   lock file is honoured (--locked), and the linker (mold) writes a build
#   ID computed from the output.
#
# Sourced by tools/lab-package.sh.

# The channel rust-toolchain.toml pins, and the compiler in use: refused
# unless they agree.
egm_check_toolchain() {
    local pinned have
    pinned="$(sed -n 's/^channel = "\(.*\)"$/\1/p' rust-toolchain.toml)"
    have="$(rustc -vV | sed -n 's/^release: //p')"
    if [ -z "$pinned" ] || [ "$pinned" != "$have" ]; then
        echo "error: the release is built with Rust ${pinned:-(no channel in rust-toolchain.toml)}, and rustc here is $have" >&2
        return 1
    fi
}

# egm_release_build SRC TARGET [CARGO ARGS…]: `cargo build --release
# --locked` of the workspace in SRC, into the build folder TARGET, with
# every machine path remapped to a fixed name.
egm_release_build() {
    local src target home
    src="$(cd "$1" && pwd -P)"
    mkdir -p "$2"
    target="$(cd "$2" && pwd -P)"
    shift 2
    home="$(cd "${CARGO_HOME:-$HOME/.cargo}" && pwd -P)"
    local remap="--remap-path-prefix=$src=/egm --remap-path-prefix=$home=/cargo --remap-path-prefix=$target=/egm-target"
    local map="-ffile-prefix-map=$src=/egm -ffile-prefix-map=$home=/cargo -ffile-prefix-map=$target=/egm-target"
    # The remapping joins the linker flag .cargo/config.toml sets for the
    # target (cargo joins a --config array to the file's).
    local flags=""
    local f
    for f in $remap; do flags+="\"$f\", "; done
    (
        cd "$src"
        CARGO_TARGET_DIR="$target" CFLAGS="${CFLAGS:+$CFLAGS }$map" CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }$map" \
            cargo build --release --locked --config "target.x86_64-unknown-linux-gnu.rustflags = [${flags%, }]" "$@"
    )
}

# egm_machine_paths FILE SRC TARGET: how many times FILE names the
# folders a reproducible program must not (the source, the build folder,
# cargo's home).
egm_machine_paths() {
    local file="$1" src target home n=0
    src="$(cd "$2" && pwd -P)"
    target="$(cd "$3" && pwd -P)"
    home="$(cd "${CARGO_HOME:-$HOME/.cargo}" && pwd -P)"
    for p in "$src" "$target" "$home"; do
        n=$((n + $(grep -c -a -F "$p" "$file" || true)))
    done
    echo "$n"
}
