#!/usr/bin/env bash
# Real client libraries on the witness's Responses and Gemini wires: the openai Python
# SDK's `responses.create` (and `.stream`) with input_image and input_file, and
# google-genai's `generate_content` (plain, streamed, and `count_tokens`) with an inline
# PNG, WAV and PDF, all pointed at `mmconform witness`, which judges every call; then
# model-calls.py compares each part that arrived with the file it came from.
#
#   cargo build --release && scripts/examples/sdk-clients.sh
#
# Installs openai and google-genai, pinned in requirements/sdk-clients.txt, into
# target/examples/venv-sdk-clients (about 1.5 minutes the first time, on a busy 2-core
# machine). Everything listens on 127.0.0.1 and is stopped on exit. Exit 0 when every call
# was answered and judged, 2 when the setup failed (what the witness found is printed);
# with STRICT=1 (for CI) the witness's own exit code: 1 when a call broke a wire rule.
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_mmconform
VENV=$(venv sdk-clients)
OUT=$WORK/sdk-clients
rm -rf "$OUT" && mkdir -p "$OUT"
media_dir "$OUT/media" sdk
WITNESS_PORT=$(free_port)
CALLS=5 # responses.create, responses.stream, generate_content, its stream, count_tokens

step "the witness on 127.0.0.1:$WITNESS_PORT judges $CALLS calls"
rc=0
"$MMCONFORM" witness --listen "127.0.0.1:$WITNESS_PORT" --count "$CALLS" --duration 120 \
    --junit "$OUT/witness.xml" --report "$OUT/witness.json" --color never >"$OUT/witness.log" 2>&1 &
pid=$!
wait_http "http://127.0.0.1:$WITNESS_PORT/v1/models" 30 "$OUT/witness.log"
"$VENV/bin/python" "$EXAMPLES_DIR/apps/sdk_clients.py" "http://127.0.0.1:$WITNESS_PORT" \
    "$OUT/media/exported" || die "a client could not complete its calls (see above)"
wait "$pid" || rc=$?
grep -E '^(PASS|FAIL|summary|verdict)|^        [a-z-]+: expected' "$OUT/witness.log" || true
case $rc in 0 | 1) ;; *) die "mmconform witness exited $rc (log: $OUT/witness.log)" ;; esac

step "what reached the model, part by part, against the exported files"
"$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$OUT/witness.json" --media "$OUT/media/exported"
step "reports in $OUT: witness.json, witness.xml, witness.log"
[ "${STRICT:-0}" = 1 ] && exit "$rc"
exit 0
