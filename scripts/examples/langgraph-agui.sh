#!/usr/bin/env bash
# Did the media reach the model? A LangGraph agent (one node calling langchain-openai's
# ChatOpenAI) served over AG-UI by ag-ui-langgraph, its model's base_url pointed at
# mmconform's witness, judged with the AG-UI pack.
#
#   cargo build --release && scripts/examples/langgraph-agui.sh
#
# Installs ag-ui-langgraph 0.0.47, langgraph 1.2.22 and langchain-openai 1.7.3 (frozen in
# requirements/langgraph.txt) into target/examples/venv-langgraph; writes reports and logs
# to target/examples/langgraph/. Everything listens on 127.0.0.1 and is stopped on exit.
# Exit 0 when every step ran (what it found is printed, not turned into the exit code), 2
# when the setup failed.
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_mmconform
VENV=$(venv langgraph)
OUT=$WORK/langgraph
rm -rf "$OUT" && mkdir -p "$OUT"
media_dir "$OUT/media" example

WITNESS_PORT=$(free_port)
AGENT_PORT=$(free_port)
MEDIA_PORT=$(free_port)

step "serving the media on 127.0.0.1:$MEDIA_PORT and the LangGraph agent on 127.0.0.1:$AGENT_PORT"
start "$OUT/media-server.log" "$VENV/bin/python" -m http.server "$MEDIA_PORT" \
    --bind 127.0.0.1 --directory "$OUT/media/served"
export MODEL_BASE_URL=http://127.0.0.1:$WITNESS_PORT/v1
start "$OUT/agent.log" "$VENV/bin/uvicorn" --app-dir "$EXAMPLES_DIR/apps" langgraph_agent:app \
    --host 127.0.0.1 --port "$AGENT_PORT"
wait_http "http://127.0.0.1:$MEDIA_PORT/" 30 "$OUT/media-server.log"
wait_http "http://127.0.0.1:$AGENT_PORT/agent/health" 120 "$OUT/agent.log"

step "the AG-UI pack, the agent's model being the witness on 127.0.0.1:$WITNESS_PORT"
agui_run "$OUT" "http://127.0.0.1:$AGENT_PORT/agent" "$WITNESS_PORT" "http://127.0.0.1:$MEDIA_PORT"
echo "what ag-ui-langgraph logged about dropped parts:"
grep -h "Dropping" "$OUT/agent.log" | sort | uniq -c || echo "  nothing"

step "reports in $OUT: agui.json agui.xml"
