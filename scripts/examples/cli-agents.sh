#!/usr/bin/env bash
# OPT-IN, never in CI. Two closed-source agent CLIs with their model base URL at the
# witness: Codex CLI (OpenAI Responses wire, an image attached with -i) and Gemini CLI
# (Gemini wire, an image and a PDF named with @file). Both run inside a network namespace
# that has only loopback (`unshare -n`, then `ip link set lo up`), with the witness inside
# the same namespace: they can reach nothing but the witness.
#
#   cargo build --release && sudo scripts/examples/cli-agents.sh   (root: unshare -n)
#
# Installs @openai/codex and @google/gemini-cli, pinned below, into
# target/examples/cli-agents (npm; about a minute), with HOME and CODEX_HOME under the
# output folder, so no configuration of yours is read or written. Keys given to the CLIs
# are dummies: the witness takes any and never prints them. The CLIs may give up on the
# witness's plain answers; what matters is what the witness recorded (printed at the end,
# reports in target/examples/cli-agents/out). Exit 2 when the setup failed.
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0

require_mmconform
command -v unshare >/dev/null && command -v ip >/dev/null || die "unshare and ip are needed"
command -v npm >/dev/null || die "npm is needed"
AGENTS=$WORK/cli-agents
OUT=$AGENTS/out
npm_pinned "$AGENTS" "@openai/codex@$CODEX_VERSION" "@google/gemini-cli@$GEMINI_CLI_VERSION"
rm -rf "$OUT" && mkdir -p "$OUT/home"
media_dir "$OUT/media" cli
IMAGE=$(ls "$OUT"/media/exported/p0-*.png)
PDF=$(ls "$OUT"/media/exported/p5-*.pdf)
PORT=$(free_port)

# Everything below runs in the namespace: the witness, then each CLI, then the witness
# stops after --duration (the CLIs' call counts vary: retries, title generation...).
step "inside unshare -n: the witness on 127.0.0.1:$PORT, then codex exec and gemini -p"
unshare -n env MMCONFORM="$MMCONFORM" PORT="$PORT" OUT="$OUT" AGENTS="$AGENTS" \
    IMAGE="$IMAGE" PDF="$PDF" sh -c '
    set -u
    ip link set lo up
    "$MMCONFORM" witness --listen "127.0.0.1:$PORT" --duration 90 \
        --report "$OUT/witness.json" --junit "$OUT/witness.xml" --color never \
        >"$OUT/witness.log" 2>&1 &
    witness=$!
    sleep 1
    export HOME="$OUT/home" CODEX_HOME="$OUT/home/.codex" WITNESS_KEY=dummy-key
    mkdir -p "$CODEX_HOME" "$HOME/.gemini"
    # Gemini CLI asks for an auth method before anything else: the API key (a dummy).
    echo "{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}}" \
        >"$HOME/.gemini/settings.json"
    echo "-- codex exec (Responses wire)"
    timeout 60 "$AGENTS/node_modules/.bin/codex" exec --skip-git-repo-check \
        --ignore-user-config --sandbox read-only \
        -c model=mmconform-witness -c model_provider=witness \
        -c "model_providers.witness={name=\"witness\", base_url=\"http://127.0.0.1:$PORT/v1\", wire_api=\"responses\", env_key=\"WITNESS_KEY\"}" \
        "Describe the attached image." -i "$IMAGE" </dev/null >"$OUT/codex.log" 2>&1
    echo "   exit $? (log: $OUT/codex.log)"
    echo "-- gemini -p (Gemini wire)"
    (cd "$(dirname "$IMAGE")" && GEMINI_CLI_TRUST_WORKSPACE=true GEMINI_API_KEY=dummy-key GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
        timeout 60 "$AGENTS/node_modules/.bin/gemini" -m mmconform-witness \
        -p "Describe @$(basename "$IMAGE") and @$(basename "$PDF")" </dev/null >"$OUT/gemini.log" 2>&1)
    echo "   exit $? (log: $OUT/gemini.log)"
    wait "$witness"
    echo "-- witness exit $?"
'
grep -E '^(PASS|FAIL|summary|verdict)|^        [a-z-]+: expected' "$OUT/witness.log" || true
step "what reached the model, part by part"
"$PYTHON" "$EXAMPLES_DIR/model-calls.py" "$OUT/witness.json" --media "$OUT/media/exported"
