#!/usr/bin/env bash
# Did the media reach the model? A pydantic-ai agent served over AG-UI, its model's
# base_url pointed at mmconform's witness, judged with the AG-UI pack; then pydantic-ai as
# a client library, its wire mapping judged by the standalone witness.
#
#   cargo build --release && scripts/examples/pydantic-ai-agui.sh
#
# Installs pydantic-ai-slim 2.68.0 (frozen in requirements/pydantic-ai.txt) into
# target/examples/venv-pydantic-ai; writes reports and logs to target/examples/pydantic-ai/.
# Everything listens on 127.0.0.1 and is stopped on exit. Exit 0 when every step ran (what
# the steps found is printed, not turned into the exit code), 2 when the setup failed.
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_mmconform
VENV=$(venv pydantic-ai)
OUT=$WORK/pydantic-ai
rm -rf "$OUT" && mkdir -p "$OUT"
media_dir "$OUT/media" example

WITNESS_PORT=$(free_port)
AGENT_PORT=$(free_port)
MEDIA_PORT=$(free_port)

step "serving the media on 127.0.0.1:$MEDIA_PORT and the pydantic-ai agent on 127.0.0.1:$AGENT_PORT"
start "$OUT/media-server.log" "$VENV/bin/python" -m http.server "$MEDIA_PORT" \
    --bind 127.0.0.1 --directory "$OUT/media/served"
export MODEL_BASE_URL=http://127.0.0.1:$WITNESS_PORT/v1
start "$OUT/agent.log" "$VENV/bin/uvicorn" --app-dir "$EXAMPLES_DIR/apps" pydantic_ai_agent:app \
    --host 127.0.0.1 --port "$AGENT_PORT"
wait_http "http://127.0.0.1:$MEDIA_PORT/" 30 "$OUT/media-server.log"
wait_http "http://127.0.0.1:$AGENT_PORT/agent" 120 "$OUT/agent.log"

step "1. the AG-UI pack, the agent's model being the witness on 127.0.0.1:$WITNESS_PORT"
agui_run "$OUT" "http://127.0.0.1:$AGENT_PORT/agent" "$WITNESS_PORT" "http://127.0.0.1:$MEDIA_PORT"
echo "what pydantic-ai logged about dropped parts:"
grep -h "UserWarning" "$OUT/agent.log" | sed 's/^.*UserWarning: /  /' | sort | uniq -c || echo "  nothing"

step "2. pydantic-ai as a client: the exported files, one call each, then all in one message"
CLIENT_PORT=$(free_port)
"$MMCONFORM" witness --listen "127.0.0.1:$CLIENT_PORT" --count 7 --duration 120 \
    --junit "$OUT/client.xml" --report "$OUT/client.json" --color never >"$OUT/client-witness.log" 2>&1 &
WITNESS_PID=$!
wait_http "http://127.0.0.1:$CLIENT_PORT/v1/models" 30 "$OUT/client-witness.log"
"$VENV/bin/python" "$EXAMPLES_DIR/apps/pydantic_ai_client.py" "http://127.0.0.1:$CLIENT_PORT/v1" \
    "$OUT/media/exported" || die "the pydantic-ai client failed"
rc=0
wait "$WITNESS_PID" || rc=$?
cat "$OUT/client-witness.log"
case $rc in 0 | 1) ;; *) die "mmconform witness exited $rc" ;; esac
"$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$OUT/client.json" --media "$OUT/media/exported"

step "reports in $OUT: agui.json agui.xml (step 1), client.json client.xml (step 2)"
