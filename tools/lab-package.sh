#!/usr/bin/env bash
# The certification lab's submission package (issue 51, certification.md
# I-57): one folder a lab opens.
#
#   tools/lab-package.sh [OUT_DIR] [--battery DIR] [--debug] [--twice]
#
# A submission is made of the release programs (the default), built as a
# lab rebuilds them (tools/lib/release.sh: the pinned toolchain, no path
# of this machine in them); --twice builds them a second time from the
# commit exported to another folder and refuses the package unless both
# builds' digests are equal (issue 77, defect 7). --debug packages the
# debug builds instead, for a quick look at the package.
#
#   digests/        SHA-256 of the release programs, of every approved
#                   paytable artifact (against the approved manifest), of
#                   the configuration; the manifest itself; the toolchain
#                   (rustc -vV, cargo -V) and, with --twice, the second
#                   build's digests
#   par/ID/         each enabled game's PAR sheet (paytable par)
#   rules/          each enabled game's rules page, PT and EN (paytable rules, M-40)
#   battery/        the RNG battery's report with verdicts (egm-lab battery
#                   --quick; or a report already run, copied from --battery DIR)
#   rng.md          the RNG description and its call graph (docs/rng.md)
#   threat-model.md critical memory's threat model (ARCHITECTURE.md) and
#                   the attack tests that run it
#   checklist.md    every item of the certification checklist with its
#                   evidence: the tests and documents that cite it
#   README.md       what is where, and how it was made
#
# Needs the Debian packages the tests need (tools/lib/deps.sh), and
# dieharder for the battery (installed by tools/battery.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
out="target/lab-package"
battery_from=""
profile=release
twice=""
while [ $# -gt 0 ]; do
    case "$1" in
        --battery) battery_from="$2"; shift 2 ;;
        --debug) profile=debug; shift ;;
        --twice) twice=1; shift ;;
        -*) echo "usage: tools/lab-package.sh [OUT_DIR] [--battery DIR] [--debug] [--twice]" >&2; exit 2 ;;
        *) out="$1"; shift ;;
    esac
done
source tools/lib/deps.sh
egm_need_cargo
egm_ensure_packages "${EGM_DEBIAN_PACKAGES[@]}"
target_dir="${CARGO_TARGET_DIR:-target}"
config=assets/config/cabinet.ron
spec="${EGM_SPEC:-../shared/spec/certification.md}"

if [ -n "$twice" ] && [ "$profile" != release ]; then
    echo "error: --twice checks the release build (it is what a lab rebuilds)" >&2
    exit 2
fi
if [ -n "$twice" ] && [ -n "$(git status --porcelain)" ]; then
    echo "error: --twice rebuilds the commit: commit or stash the changes first (git status)" >&2
    exit 2
fi
rm -rf "$out"
mkdir -p "$out"/{digests,par,rules}
echo "building the $profile programs"
if [ "$profile" = release ]; then
    source tools/lib/release.sh
    egm_check_toolchain
    # A build folder of its own: the remapped paths are compiler flags.
    built="$target_dir/reproducible"
    build() { egm_release_build "$1" "$2" -q --workspace --bins "${@:3}"; }
else
    built="$target_dir"
    build() { (cd "$1" && CARGO_TARGET_DIR="$2" cargo build --locked -q --workspace --bins "${@:3}"); }
fi
# programs SRC TARGET DIGESTS: the retail cabinet and the lab's tools
# (lab builds: one workspace build each) from SRC, built into TARGET,
# their SHA-256 written to DIGESTS.
programs() {
    local src="$1" target="$2" digests="$3"
    build "$src" "$target"
    cp "$target/$profile/cabinet" "$target/cabinet-retail"
    build "$src" "$target" --features lab
    {
        (cd "$target" && sha256sum cabinet-retail | sed 's/cabinet-retail$/cabinet (retail)/')
        (cd "$target/$profile" && sha256sum paytable egm-progressive egm-sas-host)
        (cd "$target/$profile" && sha256sum egm-lab | sed 's/egm-lab$/egm-lab (lab build)/')
    } > "$digests"
}
programs "$PWD" "$built" "$out/digests/programs.sha256"
release="$built/$profile"
{ rustc -vV; cargo -V; } > "$out/digests/toolchain.txt"
if [ "$profile" = release ]; then
    for p in "$built/cabinet-retail" "$release"/{paytable,egm-progressive,egm-sas-host,egm-lab}; do
        n="$(egm_machine_paths "$p" "$PWD" "$built")"
        [ "$n" = 0 ] || { echo "error: $p names a folder of this machine $n times (the source, the build or cargo's home)" >&2; exit 1; }
    done
fi
if [ -n "$twice" ]; then
    second="$(mktemp -d)"
    mkdir -p "$second/src"
    git archive HEAD | tar -x -C "$second/src"
    echo "building the release programs again in $second/src"
    programs "$second/src" "$second/target" "$out/digests/programs-second-build.sha256"
    if ! cmp -s "$out/digests/programs.sha256" "$out/digests/programs-second-build.sha256"; then
        echo "error: two builds of $(git rev-parse HEAD) in two folders differ:" >&2
        diff "$out/digests/programs.sha256" "$out/digests/programs-second-build.sha256" >&2 || true
        exit 1
    fi
    rm -rf "$second"
    echo "reproducible: two builds in two folders, equal digests"
fi

# The enabled games, in menu order, from the configuration.
mapfile -t games < <(sed -n 's/^[[:space:]]*games: \[\(.*\)\],.*$/\1/p' "$config" | head -1 | tr ',' '\n' | tr -d ' "' | sed '/^$/d')
[ ${#games[@]} -gt 0 ] || { echo "error: no games found in $config" >&2; exit 1; }

echo "digests"
# The programs' digests are programs.sha256, written as they were built.
(cd assets/paytables/compiled && sha256sum ./*.json) > "$out/digests/paytables.sha256"
sha256sum "$config" > "$out/digests/configuration.sha256"
cp assets/paytables/approved.ron "$out/digests/approved.ron"
# Every enabled game's artifact is the manifest's: checked here, named if not.
for g in "${games[@]}"; do
    digest=$(sha256sum "assets/paytables/compiled/$g.json" | cut -d' ' -f1)
    grep -q "$digest" assets/paytables/approved.ron || { echo "error: $g.json ($digest) is not in the approved manifest" >&2; exit 1; }
done

echo "PAR sheets and rules pages of ${#games[@]} games"
for g in "${games[@]}"; do
    # Every kind writes a PAR sheet (poker's since issue 77); an enabled
    # game the compiler refuses is no package.
    if ! "$release/paytable" par "assets/paytables/$g.ron" -o "$out/par/$g" > /dev/null 2> "$out/par/.why"; then
        echo "the PAR sheet of $g was refused:" >&2
        cat "$out/par/.why" >&2
        exit 1
    fi
    rm -f "$out/par/.why"
    "$release/paytable" rules "assets/paytables/$g.ron" --config "$config" -o "$out/rules" > /dev/null
done

echo "the RNG battery"
if [ -n "$battery_from" ]; then
    mkdir -p "$out/battery"
    cp "$battery_from/battery.txt" "$battery_from/battery.json" "$out/battery/"
else
    egm_ensure_packages dieharder
    "$release/egm-lab" battery --quick --config "$config" --out "$out/battery" > /dev/null || true
fi
verdict=$(tail -1 "$out/battery/battery.txt")

cp docs/rng.md "$out/rng.md"

echo "threat model"
{
    echo "# Critical memory: the threat model and its attack tests"
    echo
    awk '/^### The threat model/{on=1} on&&/^## /&&!/threat model/{exit} on' ARCHITECTURE.md
    echo
    echo "## The attack tests (each runs in CI: tools/test.sh)"
    echo
    for f in meters/tests/attacks*.rs; do
        echo "### $f"
        # The tests alone (issue 77: the helpers they share are no attack).
        grep -A1 -h '^#\[test\]' "$f" | sed -n 's/^fn \([a-z0-9_]*\).*/- `\1`/p'
        echo
    done
} > "$out/threat-model.md"

# The citations of each checklist item: `cites` and `tests_citing`.
# shellcheck source=tools/lib/checklist.sh
source tools/lib/checklist.sh

echo "checklist"
{
    echo "# Certification checklist and its evidence"
    echo
    echo "Each item of \`certification.md\`, and the tests and documents of this"
    echo "release that cite it (by its rule number, e.g. A-10). An item no test"
    echo "or document cites is listed as such: the lab sees what has no evidence."
    echo
    section=""
    while IFS= read -r line; do
        if [[ "$line" =~ ^###\ ([A-I])\.\ (.*)$ ]]; then
            section="${BASH_REMATCH[1]}"
            echo "## ${BASH_REMATCH[1]}. ${BASH_REMATCH[2]}"
            echo
        elif [[ "$line" =~ ^([0-9]+)\.\ \*\*([^*]+)\*\* ]] && [ -n "$section" ]; then
            n="${BASH_REMATCH[1]}"; title="${BASH_REMATCH[2]}"; id="$section-$n"
            # The tests by name: each #[test] function whose body or doc
            # comment cites the item, in the test suites and in the unit
            # tests beside the code.
            cited=$(grep -rlE "$(cites "$id")" --include='*.rs' meters host game-core paytables cabinet tools tests sas linked-controller 2>/dev/null | sort -u || true)
            # shellcheck disable=SC2086
            tests=$( [ -n "$cited" ] && tests_citing "$id" $cited | sed 's/^/`/; s/$/`/' | paste -sd ' ' - || true)
            docs=$(grep -lE "$(cites "$id")" ARCHITECTURE.md README.md docs/*.md 2>/dev/null | sort -u | tr '\n' ' ' || true)
            code=$(grep -rlE "$(cites "$id")" --include='*.rs' meters/src host/src game-core/src paytables/src cabinet/src tools/src sas/src linked-controller/src 2>/dev/null | wc -l || true)
            echo "- **$id $title**"
            if [ -n "$tests$docs" ]; then
                [ -n "$tests" ] && echo "  - tests: $tests"
                [ -n "$docs" ] && echo "  - documents: $docs"
            else
                echo "  - no test or document cites it"
            fi
            echo "  - other source files that cite it: $code"
        fi
    done < "$spec"
} > "$out/checklist.md"

cat > "$out/README.md" <<README
# Submission package

Made by \`tools/lab-package.sh\` from $(git rev-parse HEAD) on $(date -u +%Y-%m-%dT%H:%MZ).

- \`digests/\`: SHA-256 of the ${profile} programs, the approved paytable artifacts, the configuration; the approved manifest; the toolchain they were built with (\`toolchain.txt\`, pinned by \`rust-toolchain.toml\`)$( [ -n "$twice" ] && echo "; the digests of a second build of the same commit in another folder, equal (\`programs-second-build.sha256\`)"). A release build names no folder of the machine it was built on: rebuilt from this commit with \`tools/lab-package.sh --twice\`, in any folder, the programs' digests are these.
- \`par/\`: the PAR sheet of each of the ${#games[@]} enabled games (exact RTP per wager category, hit frequency, volatility, top-award odds).
- \`rules/\`: each game's rules page in Portuguese and English, the help screen's own text (M-40).
- \`battery/\`: the RNG battery with verdicts. Its last line: ${verdict}
- \`rng.md\`: the generator (algorithm, seeding, reseeding, state size), the scaling, the call graph of every draw, the collection tools.
- \`threat-model.md\`: critical memory's threat model and the attack tests that run it.
- \`checklist.md\`: every checklist item, the tests that cite it by name (\`FILE::TEST\`) and the documents citing it.

The collection tools: \`egm-lab rng-dump\` (raw words, or scaled outcomes), \`egm-lab outcomes\` (the games' own draws), \`egm-lab battery\`, \`egm-lab verify-program\` (H-52).
README
echo "$out: $(find "$out" -type f | wc -l) files; battery: $verdict"
