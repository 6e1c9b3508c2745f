#!/bin/sh
# The action's install step: install.sh REF BASE_URL DEST downloads the release asset
# of REF (a version tag) for this runner from BASE_URL/REF/, checks it against the
# release's SHA256SUMS, and unpacks the binary into DEST/bin.
#   exit 0   installed
#   exit 10  no release matches (REF is no version tag, or the release has no asset
#            for this platform): build from source instead
#   other    a download that does not match its checksum (or no checksum to check it
#            against): fail closed, never run an unverified binary
set -eu
here=$(dirname "$0")
. "$here/lib.sh"
ref=$1
base=$2
dest=$3
if ! mmconform_is_release_ref "$ref"; then
    echo "mmconform: $ref is not a release tag: building from source"
    exit 10
fi
target=$(mmconform_target_for "${RUNNER_OS:-$(uname -s)}" "${RUNNER_ARCH:-$(uname -m)}") || exit 10
asset=$(mmconform_asset "$ref" "$target")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fetch() {
    curl --fail --silent --show-error --location --retry 3 --proto '=https,http' -o "$2" "$1"
}
if ! fetch "$base/$ref/$asset" "$work/$asset"; then
    echo "mmconform: no release asset $asset at $base/$ref: building from source"
    exit 10
fi
if ! fetch "$base/$ref/SHA256SUMS" "$work/SHA256SUMS"; then
    echo "mmconform: the release $ref has $asset but no SHA256SUMS to check it: not installed" >&2
    exit 1
fi
mmconform_verify "$work/$asset" "$asset" "$work/SHA256SUMS"
mkdir -p "$work/unpacked" "$dest/bin"
case "$asset" in
    *.zip)
        if command -v unzip >/dev/null 2>&1; then
            unzip -q "$work/$asset" -d "$work/unpacked"
        else
            powershell -NoProfile -Command "Expand-Archive -Path '$work/$asset' -DestinationPath '$work/unpacked'"
        fi
        ;;
    *) tar -C "$work/unpacked" -xzf "$work/$asset" ;;
esac
binary=$(mmconform_binary_name "$target")
cp "$work/unpacked/$(mmconform_asset_dir "$ref" "$target")/$binary" "$dest/bin/$binary"
chmod +x "$dest/bin/$binary"
echo "mmconform: installed $asset (SHA-256 checked) into $dest/bin"
