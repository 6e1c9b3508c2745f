#!/bin/sh
# The action's cache key for a build from source: sources-key.sh DIR prints 16 hex
# digits, the SHA-256 over every file a build reads (sorted paths and each file's
# SHA-256), so a cached binary is reused exactly while those are unchanged. Portable
# (mmconform_sha256: sha256sum, shasum or openssl), as macOS and Windows runners need.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cd "$1"
list=$(mktemp)
trap 'rm -f "$list"' EXIT
find Cargo.toml Cargo.lock build.rs src crates scenarios schemas criteria fixtures -type f \
    | LC_ALL=C sort \
    | while IFS= read -r file; do
        printf '%s  %s\n' "$(mmconform_sha256 "$file")" "$file"
    done > "$list"
mmconform_sha256 "$list" | cut -c1-16
