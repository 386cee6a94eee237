#!/usr/bin/env bash
# The TPM manufacturers' root certificates the certified core trusts for a
# floor cabinet's endorsement key (issue 68, attack 3): taken from Debian's
# tpm2-tss (libtss2-fapi1, which compiles in the roots the TSS project
# collected from Infineon, Intel, GlobalSign, STMicroelectronics and
# Nuvoton), written as DER into meters/manufacturers/ with the Rust list
# meters/src/keystore/tpm/manufacturers.rs includes.
#
# Run again when a release takes a newer tpm2-tss (or the lab adds a
# manufacturer's root by hand, as DER, beside them): the files are part of
# the program, so a new list is a new release.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/lib/deps.sh
egm_ensure_packages libtss2-fapi1 openssl python3
lib=$(ls /usr/lib/*/libtss2-fapi.so.1 | head -1)
out=meters/manufacturers
rm -f "$out"/*.der
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$lib" "$tmp" <<'PY'
import re, sys
data = open(sys.argv[1], 'rb').read()
pems = re.findall(rb'-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----', data, re.S)
for i, p in enumerate(pems):
    open('%s/%02d.pem' % (sys.argv[2], i), 'wb').write(p.replace(b'\\n', b'\n') + b'\n')
PY
for pem in "$tmp"/*.pem; do
    cn=$(openssl x509 -in "$pem" -noout -subject -nameopt multiline | sed -n 's/^ *commonName *= *//p' | head -1)
    name=$(printf '%s' "$cn" | tr 'A-Z' 'a-z' | sed 's/(tm)//g; s/[^a-z0-9]\+/-/g; s/^-//; s/-$//; s/-organizationname.*//')
    openssl x509 -in "$pem" -outform der -out "$out/$name.der"
done
{
    echo "// Written by tools/tpm-manufacturers.sh from $(dpkg-query -W -f='${Package} ${Version}' libtss2-fapi1): do not edit."
    echo "pub(super) const MANUFACTURER_ROOTS: [(&str, &[u8]); $(ls "$out"/*.der | wc -l)] = ["
    for f in "$out"/*.der; do
        b=$(basename "$f" .der)
        echo "    (\"$b\", include_bytes!(\"../../../manufacturers/$b.der\")),"
    done
    echo "];"
} > meters/src/keystore/tpm/manufacturers.rs
ls "$out" | wc -l
