#!/usr/bin/env bash
# `make bench` (not part of CI): wall time, per-request overhead and peak memory of
# mmconform against its own reference host, served with a configurable service time,
# and the same requests replayed with hurl when it is installed.
#
#   scripts/bench.sh [MMCONFORM_BINARY]      (default target/release/mmconform)
#
# Environment: DELAYS (host service times in ms, default "0 20 50"), RUNS (hyperfine
# runs per command, default 10), JOBS (-j, default 8), LARGE_MIB (the large inline part,
# default 64; 0 skips it), HURL (the hurl binary, default `hurl` on PATH).
# Needs hyperfine and GNU time (/usr/bin/time): `apt-get install hyperfine time`.
# hurl: `cargo install --locked hurl --version 8.0.1` (newer ones need a newer rustc).
set -euo pipefail

BIN=$(realpath "${1:-target/release/mmconform}")
DELAYS=${DELAYS:-"0 20 50"}
RUNS=${RUNS:-10}
JOBS=${JOBS:-8}
LARGE_MIB=${LARGE_MIB:-64}
HURL=${HURL:-hurl}

for tool in hyperfine /usr/bin/time python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is needed" >&2; exit 2; }
done
[ -x "$BIN" ] || { echo "bench: no binary at $BIN (make build)" >&2; exit 2; }
have_hurl=false
if command -v "$HURL" >/dev/null; then have_hurl=true; fi

work=$(mktemp -d)
hosts=()
cleanup() {
    for pid in "${hosts[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# start_host NAME ARGS...: serves the reference host on a free port; sets $url.
start_host() {
    local name=$1
    shift
    "$BIN" serve-reference --port 0 "$@" >"$work/$name.log" 2>&1 &
    hosts+=("$!")
    for _ in $(seq 100); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/$name.log" | head -1 || true)
        [ -n "$url" ] && return 0
        sleep 0.05
    done
    echo "bench: the reference host did not start: $(cat "$work/$name.log")" >&2
    exit 1
}

# median_ms JSON: the median of hyperfine's first result, in ms.
median_ms() {
    python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["results"][0]["median"]*1000, 1))' "$1"
}

# peak_kib COMMAND...: the command's peak resident memory in KiB (GNU time).
peak_kib() {
    /usr/bin/time -f '%M' -o "$work/peak" "$@" >/dev/null 2>&1 || true
    tail -1 "$work/peak"
}

# Splits a hurl file into one file per request (hurl runs files, not entries, in parallel).
split_hurl() {
    python3 - "$1" "$2" <<'EOF'
import pathlib, sys
source, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
entries = [e for e in source.read_text().split("\n\n") if e.strip()]
for i, entry in enumerate(entries):
    (out / f"request-{i:04}.hurl").write_text(entry + "\n")
EOF
}

printf '%-10s %9s %9s %10s %10s %9s %12s %12s\n' \
    "service" "requests" "wall ms" "ideal ms" "per req ms" "peak MiB" "hurl seq ms" "hurl -j ms"
for delay in $DELAYS; do
    start_host "host-$delay" --delay-ms "$delay"
    run=("$BIN" run --target "$url" -j "$JOBS" --junit "$work/junit.xml" --report "$work/report.json")
    "${run[@]}" --export-hurl "$work/run-$delay.hurl" >/dev/null || true
    requests=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["requests"]))' "$work/report.json")
    posts=$(grep -c '^POST ' "$work/run-$delay.hurl" || true)
    hyperfine -N -w 2 -r "$RUNS" --export-json "$work/mm.json" "${run[*]}" >/dev/null 2>&1
    wall=$(median_ms "$work/mm.json")
    # What the host itself takes at best: its calls, -j at a time, one service time each.
    ideal=$(python3 -c "import math; print(math.ceil($posts / $JOBS) * $delay)")
    per_request=$(python3 -c "print(round(($wall - $ideal) / $requests, 3))")
    peak=$(peak_kib "${run[@]}")
    hurl_seq=- hurl_par=-
    if $have_hurl; then
        hyperfine -N -w 1 -r "$RUNS" --export-json "$work/hurl.json" \
            "$HURL --test --jobs 1 $work/run-$delay.hurl" >/dev/null 2>&1 && hurl_seq=$(median_ms "$work/hurl.json")
        mkdir -p "$work/split-$delay"
        split_hurl "$work/run-$delay.hurl" "$work/split-$delay"
        hyperfine -N -w 1 -r "$RUNS" --export-json "$work/hurl-j.json" \
            "$HURL --test --jobs $JOBS $(echo "$work/split-$delay"/*.hurl)" >/dev/null 2>&1 && hurl_par=$(median_ms "$work/hurl-j.json")
    fi
    printf '%-10s %9s %9s %10s %10s %9s %12s %12s\n' "${delay} ms" "$requests" "$wall" "$ideal" \
        "$per_request" "$((peak / 1024))" "$hurl_seq" "$hurl_par"
    # The issue's ideal: the cases sent, -j at a time, plus one discovery round trip.
    cases=$(python3 -c 'import json,sys; print(sum(1 for r in json.load(open(sys.argv[1]))["requests"] if r["purpose"] != "discovery" and not r["purpose"].startswith("probe")))' "$work/report.json")
    if [ "$delay" -gt 0 ]; then
        python3 -c "i = $cases / $JOBS * $delay + $delay; print('           %d cases: ideal (cases / -j x service + discovery) %.1f ms, wall / ideal %.2f' % ($cases, i, $wall / i))"
    fi
    if [ "$hurl_seq" != - ]; then
        python3 -c "print('           mmconform / hurl: %.2f sequential, %.2f with --jobs $JOBS' % ($wall / $hurl_seq, $wall / $hurl_par))"
    fi
done

if [ "$LARGE_MIB" -gt 0 ]; then
    bytes=$((LARGE_MIB * 1024 * 1024))
    start_host large --max-bytes-per-part "$bytes" --max-request-body-bytes $((bytes * 2))
    large=("$BIN" run --target "$url" --filter openwop.rfc0091.limit.at-max-accepted
        --max-probe-bytes $((bytes + 1)) --report "$work/large.json")
    /usr/bin/time -f '%e %M' -o "$work/large.time" "${large[@]}" >/dev/null 2>&1 || true
    read -r seconds peak <"$work/large.time"
    outcome=$(python3 -c 'import json,sys; print(",".join(c["outcome"] for c in json.load(open(sys.argv[1]))["cases"] if c["outcome"] != "excluded"))' "$work/large.json")
    python3 -c "print('large part: %d MiB inline, wall %.2f s, peak %d MiB = %.2fx the part, outcome %s' % ($LARGE_MIB, $seconds, $peak / 1024, $peak / 1024 / $LARGE_MIB, '$outcome'))"
fi
$have_hurl || echo "(hurl not found: install it with cargo install --locked hurl --version 8.0.1 for the ratio)"
