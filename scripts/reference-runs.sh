#!/usr/bin/env bash
# Every reference run (each profile, with and without the witness) and calibration, each
# run writing its JSON report, its hurl export and its terminal output into OUT: the
# outputs a change that must not alter behaviour is compared on (scripts/compare-runs.sh).
#   MMCONFORM=target/debug/mmconform OUT=target/runs/after scripts/reference-runs.sh
# The run nonce is fixed (MMCONFORM_RUN_NONCE) so that two builds send the same bytes
# (not for calibration, whose many runs share one witness and need their own nonces).
set -u
: "${MMCONFORM:?}" "${OUT:?}"
mkdir -p "$OUT"
export MMCONFORM_RUN_NONCE=${MMCONFORM_RUN_NONCE:-0123456789abcdef}
run() { # name, args...
  local name=$1; shift
  mkdir -p "$OUT/hurl-$name"
  "$MMCONFORM" run "$@" --quiet --color never --report "$OUT/report-$name.json" \
    --export-hurl "$OUT/hurl-$name/$name.hurl" > "$OUT/$name.out" 2>&1
  echo "$name exit $?" >> "$OUT/exits.txt"
}
rm -f "$OUT/exits.txt"
run openwop --target reference
run openwop-v1 --target reference --openwop-major 1 --strict
run openwop-v2 --target reference --openwop-major 2 --strict
OPENWOP_TEST_COMPAT_ENDPOINT=http://compat.ci.invalid:8089/v1 run openwop-v1-sh --target reference --openwop-major 1 --strict
OPENWOP_TEST_COMPAT_ENDPOINT=http://compat.ci.invalid:8089/v1 run openwop-v2-sh --target reference --openwop-major 2 --strict --self-hosted-provider compat
run openwop-witness --target reference --witness 127.0.0.1:0
run agui --profile agui --target reference
run agui-witness --profile agui --target reference --witness 127.0.0.1:0
run openai --profile openai --target reference
run openai-witness --profile openai --target reference --witness 127.0.0.1:0
run responses --profile openai-responses --target reference
run responses-witness --profile openai-responses --target reference --witness 127.0.0.1:0
run anthropic --profile anthropic --target reference
run anthropic-witness --profile anthropic --target reference --witness 127.0.0.1:0
run agentruntime-witness --profile agentruntime --target reference --witness 127.0.0.1:0
run agentruntime --profile agentruntime --target reference
run acp-witness --profile acp --target reference --witness 127.0.0.1:0
run acp --profile acp --target reference
env -u MMCONFORM_RUN_NONCE "$MMCONFORM" calibrate --format json > "$OUT/calibration.json" 2> "$OUT/calibration.err"
echo "calibrate exit $?" >> "$OUT/exits.txt"
