#!/usr/bin/env bash
# Do A2A agents do what their cards say? Each agent's model is mmconform's witness, and
# each is judged with the A2A pack:
#   1. a pydantic-ai agent served over A2A by fasta2a, with the card fasta2a writes by
#      default (defaultInputModes: application/json), then with a card that lists the
#      media the agent's model takes (so the accept cases run);
#   2. an agent on the A2A Python SDK's own server (JSON-RPC at 1.0 and 0.3, HTTP+JSON),
#      its card listing text only with the SDK's defaults, then listing the media with
#      the SDK's input-mode check on (validate_input_modes).
#
#   cargo build --release && scripts/examples/a2a-agents.sh
#
# Installs pydantic-ai-slim 2.68.0 and fasta2a 2.1.1 (requirements/fasta2a.txt) into
# target/examples/venv-fasta2a, a2a-sdk 1.3.0 (requirements/a2a-sdk.txt) into
# target/examples/venv-a2a-sdk; writes reports and logs to target/examples/a2a/.
# Everything listens on 127.0.0.1 and is stopped on exit. Exit 0 when every step ran (what
# the steps found is printed, not turned into the exit code), 2 when the setup failed.
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_mmconform
OUT=$WORK/a2a
rm -rf "$OUT" && mkdir -p "$OUT"

MEDIA=text/plain,image/png,image/jpeg,image/webp,image/gif,audio/wav,audio/mpeg,application/pdf

# a2a_agent NAME VENV APP INPUT_MODES [VALIDATE]: the agent APP (scripts/examples/apps),
# its card listing INPUT_MODES (the app's default when empty), judged by the A2A pack with
# the witness as its model.
a2a_agent() {
    local name=$1 venv=$2 app=$3 modes=$4 validate=${5:-0} witness_port agent_port
    local shown=${4:-the default of the app}
    witness_port=$(free_port)
    agent_port=$(free_port)
    step "$name: $app on 127.0.0.1:$agent_port (defaultInputModes: $shown), its model the witness on 127.0.0.1:$witness_port"
    MODEL_BASE_URL=http://127.0.0.1:$witness_port/v1 AGENT_URL=http://127.0.0.1:$agent_port \
        INPUT_MODES=$modes VALIDATE_INPUT_MODES=$validate start "$OUT/$name-agent.log" \
        "$venv/bin/uvicorn" --app-dir "$EXAMPLES_DIR/apps" "$app:app" \
        --host 127.0.0.1 --port "$agent_port"
    wait_http "http://127.0.0.1:$agent_port/.well-known/agent-card.json" 120 "$OUT/$name-agent.log"
    mm run --profile a2a --target "http://127.0.0.1:$agent_port" \
        --witness "127.0.0.1:$witness_port" \
        --report "$OUT/$name.json" --junit "$OUT/$name.xml" --color never
    "$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$OUT/$name.json"
    stop_servers
}

FASTA2A=$(venv fasta2a)
a2a_agent fasta2a-default "$FASTA2A" fasta2a_agent ""
a2a_agent fasta2a-media "$FASTA2A" fasta2a_agent "$MEDIA"

A2A_SDK=$(venv a2a-sdk)
a2a_agent a2a-sdk-text "$A2A_SDK" a2a_sdk_agent text/plain
a2a_agent a2a-sdk-validating "$A2A_SDK" a2a_sdk_agent "$MEDIA" 1

step "reports in $OUT: fasta2a-default, fasta2a-media, a2a-sdk-text, a2a-sdk-validating (.json, .xml)"
