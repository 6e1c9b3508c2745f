#!/bin/sh
# Writes DIR/SHA256SUMS for every release asset in DIR ("<hex>  <name>" lines, the
# format `sha256sum -c` reads), which install.sh and `cargo binstall` users check.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"
dir=$1
cd "$dir"
: > SHA256SUMS.tmp
for asset in mmconform-*; do
    [ -f "$asset" ] || continue
    printf '%s  %s\n' "$(mmconform_sha256 "$asset")" "$asset" >> SHA256SUMS.tmp
done
mv SHA256SUMS.tmp SHA256SUMS
cat SHA256SUMS
