#!/usr/bin/env bash
# Peak memory of mmconform against hostile stdio targets (not part of CI): a bridge
# whose execute prints one ~4 MB line of two million numbers (at -j 2 and -j 8), one
# that floods lines of 800 numbers after its `done` (at the default -j 8), and an ACP
# agent whose `initialize` answer holds two million numbers. Every run uses the
# witness, so each case starts a bridge. Prints one row per run: the peak resident set
# (`/usr/bin/time`), the wall time and the exit code.
#
#   scripts/stdio-memory.sh [MMCONFORM]     # default: target/debug/mmconform
set -euo pipefail

MMCONFORM=${1:-target/debug/mmconform}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

describe='read line
case "$line" in
*describe*) echo '"'"'{"mediaCapabilities":{"acceptsInbound":["image/","audio/","application/pdf"],"emitsOutbound":false}}'"'"'; exit 0;;
esac'
cat >"$WORK/numbers.sh" <<EOF
$describe
printf '['; yes '0,' | head -n 1999999 | tr -d '\n'; echo '0]'
EOF
cat >"$WORK/flood.sh" <<EOF
$describe
echo '{"type":"done","result":{"text":"","sessionId":"s","durationMs":1,"aborted":false}}'
yes "[\$(yes '0,' | head -n 799 | tr -d '\n')0]"
EOF
cat >"$WORK/wide-initialize.sh" <<'EOF'
read -r line
printf '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{},"wide":['
yes '0,' | head -n 1999999 | tr -d '\n'; echo '0]}}'
cat >/dev/null
EOF

measure() {
    local name=$1
    shift
    /usr/bin/time -f "%M %e %x" -o "$WORK/time" "$MMCONFORM" run "$@" --color never \
        --report "$WORK/report.json" --junit "$WORK/junit.xml" >/dev/null 2>&1 || true
    # GNU time says "Command exited with non-zero status N" first when it did.
    read -r kib secs code < <(tail -n 1 "$WORK/time") || true
    printf '%-28s %8s MiB %8s s  exit %s\n' "$name" "$((kib / 1024))" "$secs" "$code"
}

bridge() {
    local name=$1 script=$2 jobs=$3
    measure "$name" --profile agentruntime --target-cmd "sh $WORK/$script.sh" \
        --witness 127.0.0.1:0 --witness-wait 0 --timeout 20 -j "$jobs"
}

bridge "two-million-numbers -j 2" numbers 2
bridge "two-million-numbers -j 8" numbers 8
bridge "flood-after-done -j 8" flood 8
measure "acp wide initialize" --profile acp --target-cmd "sh $WORK/wide-initialize.sh" --timeout 10
