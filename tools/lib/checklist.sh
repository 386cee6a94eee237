#!/usr/bin/env bash
# The lab package's checklist (tools/lab-package.sh): which tests and
# documents cite a certification checklist item by its number.

# A pattern for a citation of rule ID: the number alone, never a longer
# one (A-10 is not A-1). An item of section A is also written like a card
# range — the wheel straight "A-2-3-4-5", a quoted rank range "A-8" — so
# for those a hyphen beside it or a quote around it is no citation
# (issue 77); "G-46" in an assertion's message is one.
cites() {
    case "$1" in
        A-*) printf '(^|[^-"A-Za-z0-9])%s([^-"0-9A-Za-z]|$)' "$1" ;;
        *) printf '(^|[^A-Za-z0-9])%s([^0-9]|$)' "$1" ;;
    esac
}

# The test functions of FILES that cite rule ID: a test whose body cites
# it, or whose doc comment above it does, or every test of a file whose
# module doc (//!) does (issue 77: the checklist names tests, not only
# their files). Prints FILE::TEST, one a line.
tests_citing() {
    local id="$1"; shift
    local f
    for f in "$@"; do
        awk -v re="$(cites "$id")" -v file="$f" '
            BEGIN { depth = 0; cur = ""; attest = 0; pending = 0; whole = 0 }
            {
                line = $0
                # A module doc (//!) that cites the item says what every
                # test of the file proves.
                if (line ~ /^[[:space:]]*\/\/!/ && line ~ re) whole = 1
                if (line ~ /^[[:space:]]*#\[(tokio::)?test/) attest = 1
                if (line ~ /^[[:space:]]*(pub(\([a-z]+\))? )?(async )?fn [A-Za-z0-9_]+/ && cur == "") {
                    match(line, /fn [A-Za-z0-9_]+/)
                    name = substr(line, RSTART + 3, RLENGTH - 3)
                    if (attest) {
                        cur = name; start = depth
                        if (pending || whole) print file "::" name
                    }
                    pending = 0; attest = 0
                }
                if (line ~ re) {
                    if (cur != "") print file "::" cur
                    else if (line ~ /^[[:space:]]*\/\//) pending = 1
                }
                o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line)
                depth += o - c
                if (cur != "" && depth <= start && (o + c) > 0) cur = ""
            }' "$f"
    done | sort -u
}
