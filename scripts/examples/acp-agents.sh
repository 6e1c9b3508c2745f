#!/usr/bin/env bash
# OPT-IN, never in CI. Three real ACP agents judged by `mmconform run --profile acp`,
# each with its model at the run's witness:
#
#   gemini  Gemini CLI `--acp`; its model pointed at the witness through its "gateway"
#           authentication method (`--acp-auth gateway`: authenticate's
#           _meta.gateway.baseUrl), so no key and no variable (Gemini wire);
#   claude  Claude Code through @zed-industries/claude-agent-acp, through its gateway method
#           too (listed to a client that says it can give one; Anthropic Messages wire);
#   codex   Codex through @zed-industries/codex-acp, a model provider at the witness given
#           with `-c` (Responses wire).
#
# Everything runs inside a network namespace that has only loopback (`unshare -n`, then
# `ip link set lo up`), the witness inside too: the agents can reach nothing but it.
#
#   cargo build --release && sudo scripts/examples/acp-agents.sh [gemini] [claude] [codex]
#   sudo ACP_ARGS='--filter acp.text*' scripts/examples/acp-agents.sh gemini   # more run options
#
# Installs the three packages, pinned below, into target/examples/acp-agents (npm, about
# a minute), with HOME (and CODEX_HOME) under the output folder, so no configuration of
# yours is read or written. Keys are dummies: the witness takes any, and mmconform redacts
# --target-env values. Reports in target/examples/acp-agents/out/AGENT/. What a run finds
# is a finding about that agent, reported as what it is (an agent that gives up on the
# witness's plain answers is not a media defect); exit 2 when a setup failed.
# shellcheck source=scripts/examples/lib.sh
# shellcheck disable=SC2086 # ACP_ARGS is split into options on purpose
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

GEMINI_CLI_VERSION=0.61.0
CLAUDE_AGENT_ACP_VERSION=0.23.1
CODEX_ACP_VERSION=0.16.0

require_mmconform
command -v unshare >/dev/null && command -v ip >/dev/null || die "unshare and ip are needed"
command -v npm >/dev/null || die "npm is needed"
AGENTS=$WORK/acp-agents
BIN=$AGENTS/node_modules/.bin
npm_pinned "$AGENTS" "@google/gemini-cli@$GEMINI_CLI_VERSION" "@zed-industries/claude-agent-acp@$CLAUDE_AGENT_ACP_VERSION" "@zed-industries/codex-acp@$CODEX_ACP_VERSION"

# acp_run AGENT ARGS...: the acp pack against one agent, inside the namespace, with the
# witness on a free port (WITNESS_PORT, WITNESS_URL in ARGS are replaced inside).
acp_run() {
    local agent=$1 out=$AGENTS/out/$1 port code=0
    shift
    port=$(free_port)
    rm -rf "$out" && mkdir -p "$out/home/.codex"
    step "$agent: mmconform run --profile acp inside unshare -n, witness on 127.0.0.1:$port"
    unshare -n env MMCONFORM="$MMCONFORM" PORT="$port" OUT="$out" sh -c '
        ip link set lo up
        exec "$MMCONFORM" run --profile acp --color never \
            --witness "127.0.0.1:$PORT" --timeout 90 --witness-wait 5 \
            --target-env "HOME=$OUT/home" \
            --report "$OUT/report.json" --junit "$OUT/junit.xml" "$@"
    ' sh "${@//WITNESS_PORT/$port}" ${ACP_ARGS:-} >"$out/run.log" 2>&1 || code=$?
    grep -E '^(PASS|FAIL|WARN|BLOCKED|SKIP|ERROR|summary|verdict)|^ +(reason|hint|note):' "$out/run.log" || true
    echo "($agent: mmconform exited $code; log $out/run.log, report $out/report.json)"
    case $code in 0 | 1 | 3) ;; *) die "$agent: the setup is broken (exit $code), not the agent" ;; esac
}

agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=(gemini claude codex)
for agent in "${agents[@]}"; do
    case $agent in
    gemini)
        acp_run gemini --target-cmd "$BIN/gemini --acp -m mmconform-witness" \
            --acp-auth gateway --target-env GEMINI_CLI_TRUST_WORKSPACE=true
        ;;
    claude)
        # IS_SANDBOX=1: as root (what unshare -n needs) Claude Code refuses the
        # --allow-dangerously-skip-permissions the SDK passes it, and every session/new
        # fails ("Query closed before response received"); this namespace is a sandbox.
        acp_run claude --target-cmd "$BIN/claude-agent-acp" --acp-auth gateway \
            --target-env IS_SANDBOX=1 --target-env CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
        ;;
    codex)
        provider='model_providers.witness={name="witness", base_url="http://127.0.0.1:WITNESS_PORT/v1", wire_api="responses", env_key="WITNESS_KEY"}'
        acp_run codex --target-cmd "$BIN/codex-acp -c model=mmconform-witness -c model_provider=witness -c '$provider'" \
            --target-env WITNESS_KEY=dummy-witness-key \
            --target-env "CODEX_HOME=$AGENTS/out/codex/home/.codex" --acp-auth codex-api-key \
            --target-env CODEX_API_KEY=dummy-witness-key
        ;;
    *) die "unknown agent $agent (gemini, claude, codex)" ;;
    esac
done
