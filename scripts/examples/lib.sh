# shellcheck shell=bash
# What the worked examples share: where things are, a venv per example installed from a
# frozen requirements file, free loopback ports, background servers stopped on exit, and
# mmconform runs whose exit code tells a finding (0, 1) from a broken setup (anything else).
#
# Sourced, never run. Every server listens on 127.0.0.1; nothing leaves the machine.

set -euo pipefail

EXAMPLES_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$EXAMPLES_DIR/../.." && pwd)
MMCONFORM=${MMCONFORM:-$REPO/target/release/mmconform}
PYTHON=${PYTHON:-python3}
# Venvs, logs and reports; under target/ so `git status` stays clean.
WORK=${WORK:-$REPO/target/examples}

SERVER_PIDS=()

die() {
    echo "error: $*" >&2
    exit 2
}

step() {
    printf '\n== %s\n' "$*"
}

require_mmconform() {
    [ -x "$MMCONFORM" ] || die "no mmconform at $MMCONFORM: run \`cargo build --release\` first, or set MMCONFORM"
    command -v curl >/dev/null || die "curl is needed to wait for the servers"
}

# venv NAME: a venv at $WORK/venv-NAME with requirements/NAME.txt installed (again only
# when that file changed). Prints the venv's directory.
venv() {
    local name=$1 dir="$WORK/venv-$1" requirements="$EXAMPLES_DIR/requirements/$1.txt"
    mkdir -p "$WORK"
    if ! cmp -s "$requirements" "$dir/installed.txt" 2>/dev/null; then
        echo "installing $name into $dir (pinned: requirements/$name.txt)" >&2
        rm -rf "$dir"
        "$PYTHON" -m venv "$dir" || die "python3 -m venv failed"
        "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2 ||
            die "pip install -r $requirements failed"
        cp "$requirements" "$dir/installed.txt"
    fi
    echo "$dir"
}

# npm_pinned DIR SPEC...: the npm packages SPEC (name@version) installed exactly into
# DIR/node_modules (again only when the list changed); DIR's name names its package.json.
npm_pinned() {
    local dir=$1
    shift
    local wanted="$*"
    mkdir -p "$dir"
    if [ "$(cat "$dir/installed.txt" 2>/dev/null)" != "$wanted" ]; then
        step "installing $wanted into $dir"
        printf '{"name": "%s", "private": true}\n' "$(basename "$dir")" >"$dir/package.json"
        (cd "$dir" && npm install --no-audit --no-fund --save-exact "$@" >npm.log 2>&1) ||
            die "npm install failed (log: $dir/npm.log)"
        echo "$wanted" >"$dir/installed.txt"
    fi
}

free_port() {
    "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start LOG COMMAND...: run COMMAND in the background, output to LOG; stopped on exit.
start() {
    local log=$1
    shift
    "$@" >"$log" 2>&1 &
    SERVER_PIDS+=("$!")
}

stop_servers() {
    local pid
    for pid in "${SERVER_PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${SERVER_PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    SERVER_PIDS=()
}
trap stop_servers EXIT

# wait_http URL SECONDS LOG: until URL answers anything at all; on timeout show LOG's end.
wait_http() {
    local url=$1 seconds=$2 log=$3 i
    for ((i = 0; i < seconds; i++)); do
        if [ "$(curl -s -o /dev/null -w '%{http_code}' "$url")" != 000 ]; then
            return 0
        fi
        sleep 1
    done
    tail -n 30 "$log" >&2
    die "$url did not answer within ${seconds}s (log: $log)"
}

# mm ARGS...: run mmconform; exit 0 or 1 is a verdict on the software under test and the
# example goes on; any other code (usage, unreachable, too little evidence, internal
# error) means the setup is broken, and the example stops with it.
mm() {
    local rc=0
    "$MMCONFORM" "$@" || rc=$?
    case $rc in
    0 | 1) echo "(mmconform exited $rc)" ;;
    *) die "mmconform $1 exited $rc: the setup is broken, not the software under test" ;;
    esac
}

# media_dir DIR NONCE: mmconform's stamped files, twice: as exported (p0-image.png, ...)
# and under the names a --media-base-url serves (image.png, audio.wav, document.pdf, ...).
media_dir() {
    local dir=$1 nonce=$2 file
    rm -rf "$dir"
    "$MMCONFORM" media export "$dir/exported" --nonce "$nonce" >/dev/null
    mkdir -p "$dir/served"
    for file in "$dir"/exported/p*-*; do
        cp "$file" "$dir/served/$(basename "$file" | cut -d- -f2-)"
    done
}

# agui_run OUT TARGET WITNESS_PORT MEDIA_URL: mmconform's AG-UI pack against an agent
# whose model is the witness on WITNESS_PORT. The declaration claims image, wav, mp3 and
# PDF in all three source kinds, so every positive case runs: data parts, url parts
# (media served at MEDIA_URL), file parts (ids the agent cannot resolve: what it does
# with them is the finding), plus this folder's scenarios.
agui_run() {
    local out=$1 target=$2 witness_port=$3 media_url=$4
    cat >"$out/claims.yaml" <<CLAIMS
accepts: [image/, audio/wav, audio/mpeg, application/pdf]
sources: [data, url, file]
CLAIMS
    mm run --profile agui --target "$target" --claims "$out/claims.yaml" \
        --media-base-url "$media_url" \
        --media-ref image=file-image-1 --media-ref audio=file-audio-1 --media-ref document=file-document-1 \
        --scenarios "$EXAMPLES_DIR/scenarios" \
        --witness "127.0.0.1:$witness_port" \
        --report "$out/agui.json" --junit "$out/agui.xml" --color never
    "$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$out/agui.json"
}
