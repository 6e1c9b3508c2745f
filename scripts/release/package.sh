#!/bin/sh
# Packs a built binary as its release asset: package.sh BINARY TARGET TAG OUTDIR writes
# OUTDIR/mmconform-TAG-TARGET.tar.gz (.zip on Windows) holding the binary, the licence
# and the README in a directory of the same name, and prints the asset's path.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"
binary=$1
target=$2
tag=$3
out=$4
root=$(cd "$here/../.." && pwd)
dir=$(mmconform_asset_dir "$tag" "$target")
asset=$(mmconform_asset "$tag" "$target")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$dir" "$out"
cp "$binary" "$stage/$dir/$(mmconform_binary_name "$target")"
cp "$root/LICENSE" "$root/README.md" "$stage/$dir/"
out=$(cd "$out" && pwd)
case "$asset" in
    *.zip) (cd "$stage" && 7z a -tzip "$out/$asset" "$dir" >/dev/null 2>&1 || zip -qr "$out/$asset" "$dir") ;;
    *) tar -C "$stage" -czf "$out/$asset" "$dir" ;;
esac
echo "$out/$asset"
