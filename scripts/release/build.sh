#!/bin/sh
# Builds the release binary for a target and packs it: build.sh TARGET TAG OUTDIR, or
# build.sh native TAG OUTDIR for this machine's own target (the Dockerfile's build
# stage). Linux targets are musl, linked statically (Rust's default on musl). A
# release tag (vX.Y.Z) must be Cargo.toml's version, and a binary this machine can run
# must say it; any other tag (a test build, the image built from a checkout) is packed
# unchecked.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"
target=$1
tag=$2
out=$3
root=$(cd "$here/../.." && pwd)
native=$(mmconform_target_for "$(uname -s)" "$(uname -m)")
if [ "$target" = native ]; then
    target=$native
fi
if mmconform_is_release_ref "$tag"; then
    mmconform_check_version "$tag" "$root/Cargo.toml"
fi
cargo build --release --locked --target "$target"
binary="target/$target/release/$(mmconform_binary_name "$target")"
if mmconform_is_release_ref "$tag" && [ "$target" = "$native" ]; then
    mmconform_check_version "$tag" "$root/Cargo.toml" "$binary"
fi
"$here/package.sh" "$binary" "$target" "$tag" "$out"
