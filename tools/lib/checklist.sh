#!/usr/bin/env bash
# The lab package's checklist (tools/lab-package.sh): which tests and
# documents cite a certification checklist item by its number.

# A pattern for a citation of rule ID: the number alone, not a card
# range written like one ("A-2-3-4-5", a quoted "A-8"), issue 77.
cites() {
    printf '(^|[^-"A-Za-z0-9])%s([^-"0-9A-Za-z]|$)' "$1"
}

# The test functions of FILES that cite rule ID: a test whose body cites
# it, or whose doc comment above it does, or every test of a file whose
# module doc (//!) does (issue 77: the checklist names tests, not only
# their files). Prints FILE::TEST, one a line.
tests_citing() {
    local id="$1"; shift
    local f
    for f in "$@"; do
        awk -v id="$id" -v file="$f" '
            BEGIN { re = "(^|[^-\"A-Za-z0-9])" id "([^-\"0-9A-Za-z]|$)"; depth = 0; cur = ""; attest = 0; pending = 0; whole = 0 }
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
