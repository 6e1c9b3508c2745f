#!/usr/bin/env bash
# Do A2A agents do what their cards say? A pydantic-ai agent served over A2A by fasta2a,
# its model's base_url pointed at mmconform's witness, judged with the A2A pack twice:
# with the card fasta2a writes by default (defaultInputModes: application/json), then
# with a card that lists the media the agent's model takes (so the accept cases run and
# an agent doing what its card says is shown to pass them).
#
#   cargo build --release && scripts/examples/a2a-agents.sh
#
# Installs pydantic-ai-slim 2.68.0 and fasta2a 2.1.1 (frozen in requirements/fasta2a.txt)
# into target/examples/venv-fasta2a; writes reports and logs to target/examples/a2a/.
# Everything listens on 127.0.0.1 and is stopped on exit. Exit 0 when every step ran (what
# the steps found is printed, not turned into the exit code), 2 when the setup failed.
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_mmconform
VENV=$(venv fasta2a)
OUT=$WORK/a2a
rm -rf "$OUT" && mkdir -p "$OUT"

# a2a_agent NAME INPUT_MODES: the fasta2a agent, its card listing INPUT_MODES (fasta2a's
# default when empty), judged by the A2A pack with the witness as its model.
a2a_agent() {
    local name=$1 modes=$2 witness_port agent_port shown=${2:-the default of fasta2a}
    witness_port=$(free_port)
    agent_port=$(free_port)
    step "$name: the fasta2a agent on 127.0.0.1:$agent_port (defaultInputModes: $shown), its model the witness on 127.0.0.1:$witness_port"
    MODEL_BASE_URL=http://127.0.0.1:$witness_port/v1 AGENT_URL=http://127.0.0.1:$agent_port/ \
        INPUT_MODES=$modes start "$OUT/$name-agent.log" \
        "$VENV/bin/uvicorn" --app-dir "$EXAMPLES_DIR/apps" fasta2a_agent:app \
        --host 127.0.0.1 --port "$agent_port"
    wait_http "http://127.0.0.1:$agent_port/.well-known/agent-card.json" 120 "$OUT/$name-agent.log"
    mm run --profile a2a --target "http://127.0.0.1:$agent_port" \
        --witness "127.0.0.1:$witness_port" \
        --report "$OUT/$name.json" --junit "$OUT/$name.xml" --color never
    "$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$OUT/$name.json"
    stop_servers
}

a2a_agent fasta2a-default ""
a2a_agent fasta2a-media "text/plain,image/png,image/jpeg,image/webp,image/gif,audio/wav,audio/mpeg,application/pdf"

step "reports in $OUT: fasta2a-default.json/.xml, fasta2a-media.json/.xml"
