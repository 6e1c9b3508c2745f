#!/usr/bin/env bash
# Did the media reach the model, through a gateway? The LiteLLM proxy, its one model an
# `openai/` model whose api_base is mmconform's witness, started offline.
#
#   cargo build --release && scripts/examples/litellm-gateway.sh
#
# 1. Requests written by hand (apps/send_openai.py: each exported medium in each wire
#    form, detail set and not, a file with and without a filename, a streamed call, all six
#    in one message, and eight malformed requests) go through the proxy; the standalone
#    witness judges what the proxy forwarded, and model-calls.py compares each part with
#    the file it came from.
# 2. The same requests to a second model of the proxy, `anthropic/...` with the same
#    witness as api_base: the proxy translates them to the Anthropic Messages wire, and
#    the witness shows what survived the translation.
# 3. When this mmconform has `run --profile openai`: the openai pack against the proxy,
#    with the witness checking what reached the upstream.
# 4. The proxy's other front doors, the same witness upstream: the openai-responses pack
#    at its `/v1/responses`, and the anthropic pack at its `/v1/messages` (LiteLLM takes
#    the key as `x-api-key` there), each with the witness judging what reached the model.
#
# Installs litellm[proxy] 1.106.2 (frozen in requirements/litellm.txt) into
# target/examples/venv-litellm; writes reports and logs to target/examples/litellm/.
# Everything listens on 127.0.0.1 and is stopped on exit. Exit 0 when every step ran (what
# the steps found is printed, not turned into the exit code), 2 when the setup failed.
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_mmconform
VENV=$(venv litellm)
OUT=$WORK/litellm
rm -rf "$OUT" && mkdir -p "$OUT"
media_dir "$OUT/media" example

WITNESS_PORT=$(free_port)
PROXY_PORT=$(free_port)
MODEL=witness-vision
ANTHROPIC_MODEL=witness-anthropic
# The proxy refuses to start without a master key; a fresh one each run, never printed.
GATEWAY_KEY=sk-$("$PYTHON" -c 'import secrets; print(secrets.token_hex(16))')
export GATEWAY_KEY

cat >"$OUT/config.yaml" <<CONFIG
model_list:
  - model_name: $MODEL
    litellm_params:
      model: openai/mmconform-witness
      api_base: http://127.0.0.1:$WITNESS_PORT/v1
      api_key: unused
  - model_name: $ANTHROPIC_MODEL
    litellm_params:
      model: anthropic/claude-sonnet-4-5
      api_base: http://127.0.0.1:$WITNESS_PORT
      api_key: unused
CONFIG

step "starting the LiteLLM proxy on 127.0.0.1:$PROXY_PORT (upstream: the witness on 127.0.0.1:$WITNESS_PORT)"
# LITELLM_LOCAL_MODEL_COST_MAP: use the cost map the package ships instead of fetching it.
LITELLM_MASTER_KEY=$GATEWAY_KEY LITELLM_LOCAL_MODEL_COST_MAP=True \
    start "$OUT/proxy.log" "$VENV/bin/litellm" --config "$OUT/config.yaml" \
    --host 127.0.0.1 --port "$PROXY_PORT" --telemetry False
wait_http "http://127.0.0.1:$PROXY_PORT/health/liveliness" 240 "$OUT/proxy.log"

# through MODEL NAME: the hand-written requests to the proxy's model MODEL; the standalone
# witness judges what the proxy forwarded (reports $OUT/NAME.json, .xml, .log).
through() {
    local model=$1 name=$2 rc=0 pid
    # --count: every request sent; one the proxy does not forward leaves the witness
    # waiting until --duration.
    "$MMCONFORM" witness --listen "127.0.0.1:$WITNESS_PORT" --count 17 --duration 60 \
        --junit "$OUT/$name.xml" --report "$OUT/$name.json" --color never >"$OUT/$name.log" 2>&1 &
    pid=$!
    wait_http "http://127.0.0.1:$WITNESS_PORT/v1/models" 30 "$OUT/$name.log"
    echo "  #  status  request (the proxy's answer)"
    "$VENV/bin/python" "$EXAMPLES_DIR/apps/send_openai.py" "http://127.0.0.1:$PROXY_PORT/v1" "$model" \
        "$OUT/media/exported" || die "sending through the proxy failed"
    wait "$pid" || rc=$?
    grep -E '^(PASS|FAIL|summary|verdict)|^        [a-z-]+: expected' "$OUT/$name.log" || true
    case $rc in 0 | 1) ;; *) die "mmconform witness exited $rc (log: $OUT/$name.log)" ;; esac
    "$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$OUT/$name.json" --media "$OUT/media/exported"
}

step "1. hand-written requests through the proxy to $MODEL (OpenAI upstream: the witness)"
through "$MODEL" witness-openai

step "2. the same requests to $ANTHROPIC_MODEL (Anthropic upstream: the witness)"
through "$ANTHROPIC_MODEL" witness-anthropic

step "3. the openai pack against the proxy"
if "$MMCONFORM" run --profile openai --help >/dev/null 2>&1; then
    OPENAI_API_KEY=$GATEWAY_KEY mm run --profile openai --target "http://127.0.0.1:$PROXY_PORT/v1" \
        --model "$MODEL" --accepts image/,audio/wav,audio/mpeg,application/pdf \
        --witness "127.0.0.1:$WITNESS_PORT" \
        --report "$OUT/openai.json" --junit "$OUT/openai.xml" --color never
    "$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$OUT/openai.json"
else
    echo "this mmconform has no --profile openai yet: step 3 skipped"
fi

# door PROFILE ACCEPTS: the PROFILE pack against the proxy's door, the witness upstream.
door() {
    local profile=$1 accepts=$2
    if ! "$MMCONFORM" run --profile "$profile" --help >/dev/null 2>&1; then
        echo "this mmconform has no --profile $profile: skipped"
        return
    fi
    local rc=0
    OPENAI_API_KEY=$GATEWAY_KEY ANTHROPIC_API_KEY=$GATEWAY_KEY "$MMCONFORM" run --profile "$profile" \
        --target "http://127.0.0.1:$PROXY_PORT/v1" --model "$MODEL" --accepts "$accepts" \
        --witness "127.0.0.1:$WITNESS_PORT" \
        --report "$OUT/$profile.json" --junit "$OUT/$profile.xml" --color never || rc=$?
    # 3: cases blocked (a door the proxy does not open, or a key it does not take there).
    case $rc in
    0 | 1 | 3) echo "(mmconform exited $rc)" ;;
    *) die "mmconform run --profile $profile exited $rc: the setup is broken" ;;
    esac
    "$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$OUT/$profile.json"
}

step "4a. the openai-responses pack against the proxy's /v1/responses"
door openai-responses image/,audio/wav,audio/mpeg,application/pdf

step "4b. the anthropic pack against the proxy's /v1/messages"
door anthropic image/png,image/jpeg,image/gif,image/webp,application/pdf

step "reports in $OUT: witness-openai.json (step 1), witness-anthropic.json (step 2), openai.json (step 3), openai-responses.json and anthropic.json (step 4), and their .xml"
