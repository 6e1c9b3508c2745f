#!/usr/bin/env bash
# OPT-IN, never in CI or tests. Codex through its ACP adapter, judged by
# `mmconform run --profile acp --witness`, its model the run's witness, inside a network
# namespace that has loopback alone (mmconform, its witness, the MCP server it hands the
# agent and the agent all inside).
#
#   cargo build --release
#   sudo examples/real-agents/codex-acp.sh                       # both models, every acp case
#   sudo MODELS=gpt-5.5 FILTER='acp.tool-media*' examples/real-agents/codex-acp.sh
#
# Variables (all optional):
#   AGENTS   where the pinned packages are installed (default target/real-agents/codex)
#   OUT      where the reports go, one folder per model (default target/real-agents/codex-acp)
#   MODELS   the model names Codex is configured with, one run each (default: gpt-5.5,
#            whose MCP tools are deferred behind a client-run `tool_search`, and
#            gpt-6.1-sol, which reaches every tool through code mode's `exec`)
#   FILTER   the cases (default 'acp.*')
#   MMCONFORM the binary (default target/release/mmconform)
#
# Codex's model is set in a config.toml written, per run, into a fresh CODEX_HOME from
# MMCONFORM_WITNESS_URL (a model provider whose base_url is the witness, wire_api
# "responses", a dummy key from an env_key variable). HOME and TMPDIR are fresh per run
# too, so no configuration of yours is read or written. The adapter starts in its
# read-only mode (INITIAL_AGENT_MODE): mmconform's MCP tool is annotated read-only, so it
# runs without an approval. Exit 0 when every run ran (its findings are in the reports),
# 2 when the setup failed.
set -euo pipefail

CODEX_ACP_VERSION=2.6.0
CODEX_VERSION=0.166.0

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MMCONFORM=${MMCONFORM:-$REPO/target/release/mmconform}
AGENTS=${AGENTS:-$REPO/target/real-agents/codex}
OUT=${OUT:-$REPO/target/real-agents/codex-acp}
MODELS=${MODELS:-gpt-5.5 gpt-6.1-sol}
FILTER=${FILTER:-acp.*}

die() {
    echo "error: $*" >&2
    exit 2
}

[ -x "$MMCONFORM" ] || die "no mmconform at $MMCONFORM: run \`cargo build --release\` first, or set MMCONFORM"
command -v npm >/dev/null || die "npm is needed"
command -v unshare >/dev/null && command -v ip >/dev/null || die "unshare and ip are needed"
MMCONFORM=$(cd "$(dirname "$MMCONFORM")" && pwd)/$(basename "$MMCONFORM")

wanted="@agentclientprotocol/codex-acp@$CODEX_ACP_VERSION @openai/codex@$CODEX_VERSION"
mkdir -p "$AGENTS" "$OUT"
AGENTS=$(cd "$AGENTS" && pwd)
OUT=$(cd "$OUT" && pwd)
if [ "$(cat "$AGENTS/installed.txt" 2>/dev/null)" != "$wanted" ]; then
    echo "installing $wanted into $AGENTS"
    printf '{"name": "real-agents-codex", "private": true}\n' >"$AGENTS/package.json"
    # shellcheck disable=SC2086 # two package specs
    (cd "$AGENTS" && npm install --no-audit --no-fund --save-exact $wanted >npm.log 2>&1) ||
        die "npm install failed (log: $AGENTS/npm.log)"
    echo "$wanted" >"$AGENTS/installed.txt"
fi

# The agent command mmconform starts: writes Codex's configuration from the witness's
# URL, then runs the adapter on mmconform's stdin/stdout.
AGENT=$OUT/codex-acp-at-witness.sh
cat >"$AGENT" <<SCRIPT
#!/bin/sh
set -eu
: "\${CODEX_HOME:?}" "\${MMCONFORM_WITNESS_URL:?run by mmconform with --witness}"
mkdir -p "\$CODEX_HOME"
cat >"\$CODEX_HOME/config.toml" <<TOML
model = "\$CODEX_MODEL"
model_provider = "witness"
[model_providers.witness]
name = "mmconform witness"
base_url = "\$MMCONFORM_WITNESS_URL"
wire_api = "responses"
env_key = "WITNESS_KEY"
TOML
exec "$AGENTS/node_modules/.bin/codex-acp"
SCRIPT
chmod +x "$AGENT"

# As root `unshare -n`; otherwise in a user namespace of its own (`-r`).
NS=(unshare -n)
[ "$(id -u)" -eq 0 ] || NS=(unshare -rn)

for model in $MODELS; do
    out=$OUT/$model
    rm -rf "$out" && mkdir -p "$out"
    home=$(mktemp -d "$out/home.XXXXXX")
    echo "== $model: mmconform run --profile acp inside ${NS[*]} (report $out/report.json)"
    code=0
    # The model name and the mode are passed on by name: a NAME=VALUE value is redacted
    # from every output, and the report must show the model each call used.
    "${NS[@]}" env MMCONFORM="$MMCONFORM" AGENT="$AGENT" HOME_DIR="$home" OUT_DIR="$out" \
        CODEX_MODEL="$model" INITIAL_AGENT_MODE=read-only NO_BROWSER=1 FILTER="$FILTER" sh -c '
        ip link set lo up
        exec "$MMCONFORM" run --profile acp --color never --witness 127.0.0.1:0 \
            --timeout 90 --target-cmd "$AGENT" --filter "$FILTER" \
            --target-env "HOME=$HOME_DIR" --target-env "TMPDIR=$HOME_DIR" \
            --target-env "CODEX_HOME=$HOME_DIR/codex" --target-env CODEX_MODEL \
            --target-env WITNESS_KEY=dummy-witness-key --target-env INITIAL_AGENT_MODE \
            --target-env NO_BROWSER \
            --report "$OUT_DIR/report.json" --junit "$OUT_DIR/junit.xml"
    ' >"$out/run.log" 2>&1 || code=$?
    grep -E '^(PASS|FAIL|WARN|BLOCKED|SKIP|ERROR|summary)' "$out/run.log" | cut -c1-160 || true
    echo "($model: mmconform exited $code; log $out/run.log)"
    case $code in 0 | 1 | 3) ;; *) die "$model: the setup is broken (exit $code), not the agent" ;; esac
done
