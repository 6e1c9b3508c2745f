# Shared by the release workflow (.github/workflows/release.yml), the Dockerfile's
# build stage and the composite action (action.yml): which Rust target a platform
# gets, what its release asset is called, and how a download is checked against the
# release's SHA256SUMS. Sourced, never run; POSIX sh (the Dockerfile's Alpine stage
# has no bash).

# The Rust target of a platform, from GitHub's RUNNER_OS/RUNNER_ARCH (Linux, macOS,
# Windows / X64, ARM64) or uname's -s/-m (Linux, Darwin / x86_64, aarch64, arm64).
# Linux builds are static (musl), so one binary runs on every distribution.
mmconform_target_for() {
    os=$1
    arch=$2
    case "$arch" in
        X64 | x86_64 | amd64) arch=x86_64 ;;
        ARM64 | aarch64 | arm64) arch=aarch64 ;;
        *) echo "mmconform: no release build for the architecture $arch" >&2; return 1 ;;
    esac
    case "$os" in
        Linux) echo "$arch-unknown-linux-musl" ;;
        macOS | Darwin) echo "$arch-apple-darwin" ;;
        Windows | MINGW* | MSYS* | CYGWIN*)
            if [ "$arch" != x86_64 ]; then
                echo "mmconform: no Windows release build for $arch" >&2
                return 1
            fi
            echo "x86_64-pc-windows-msvc"
            ;;
        *) echo "mmconform: no release build for the system $os" >&2; return 1 ;;
    esac
}

# The archive format of a target's asset: zip on Windows, tar.gz elsewhere.
mmconform_archive_suffix() {
    case "$1" in
        *-windows-*) echo ".zip" ;;
        *) echo ".tar.gz" ;;
    esac
}

# The binary's file name on a target.
mmconform_binary_name() {
    case "$1" in
        *-windows-*) echo "mmconform.exe" ;;
        *) echo "mmconform" ;;
    esac
}

# The release asset of a tag (v1.2.3) for a target, and the directory inside it:
# mmconform-v1.2.3-x86_64-unknown-linux-musl(.tar.gz). Cargo.toml's
# [package.metadata.binstall] spells the same names for `cargo binstall`.
mmconform_asset_dir() {
    echo "mmconform-$1-$2"
}

mmconform_asset() {
    echo "$(mmconform_asset_dir "$1" "$2")$(mmconform_archive_suffix "$2")"
}

# Whether a ref names a release: a version tag such as v1.2.3 (a branch or a commit
# SHA never has one, and is built from source).
mmconform_is_release_ref() {
    case "$1" in
        v[0-9]*.[0-9]*.[0-9]*) return 0 ;;
        *) return 1 ;;
    esac
}

# The SHA-256 of a file, in hex, with whichever tool the system has.
mmconform_sha256() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d' ' -f1
    else
        openssl dgst -sha256 -r "$1" | cut -d' ' -f1
    fi
}

# Checks FILE (named NAME in the release) against SUMS, a SHA256SUMS file
# ("<hex>  <name>" lines). Fails closed: no line for NAME is a failure too.
mmconform_verify() {
    file=$1
    name=$2
    sums=$3
    expected=$(awk -v name="$name" '$2 == name || $2 == "*" name { print $1; exit }' "$sums")
    if [ -z "$expected" ]; then
        echo "mmconform: $name is not listed in the release's SHA256SUMS: not installed" >&2
        return 1
    fi
    actual=$(mmconform_sha256 "$file")
    if [ "$actual" != "$expected" ]; then
        echo "mmconform: checksum mismatch for $name (expected $expected, got $actual): not installed" >&2
        return 1
    fi
}

# The version in the [package] section of a Cargo.toml (the root one: the tool's).
mmconform_package_version() {
    awk '
        /^\[/ { in_package = ($0 == "[package]") }
        in_package && /^version[ \t]*=/ {
            sub(/^version[ \t]*=[ \t]*"/, ""); sub(/".*$/, ""); print; exit
        }
    ' "$1"
}

# Checks that a release tag names the version being released: TAG must be v<VERSION>
# for Cargo.toml's VERSION, and BINARY (when given) must say that version in
# `--version`, so a tag pushed before the version bump publishes nothing.
mmconform_check_version() {
    tag=$1
    manifest=$2
    binary=${3:-}
    version=$(mmconform_package_version "$manifest")
    if [ -z "$version" ]; then
        echo "mmconform: no [package] version in $manifest" >&2
        return 1
    fi
    if [ "$tag" != "v$version" ]; then
        echo "mmconform: the tag $tag is not v$version, the version in $manifest: bump the version or fix the tag" >&2
        return 1
    fi
    if [ -n "$binary" ]; then
        said=$("$binary" --version) || return 1
        if [ "$said" != "mmconform $version" ]; then
            echo "mmconform: $binary --version says \"$said\", not \"mmconform $version\"" >&2
            return 1
        fi
    fi
}
