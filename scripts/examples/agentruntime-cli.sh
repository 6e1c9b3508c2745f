#!/usr/bin/env bash
# OPT-IN, never in CI. The agentruntime profile against AgentRuntimes that wrap the real
# CLI agents: examples/agentruntime/runtimes/{claude-code,gemini-cli,codex}.mjs, each
# loaded by the Node bridge, each handing media to its CLI the way RemoteClaw's
# runtimes do (base64 blocks on stdin, @path in the prompt, --image flags), each CLI's
# model the witness. Everything (mmconform, its witness, the bridges, the CLIs) runs
# inside a network namespace that has only loopback (`unshare -n`, then
# `ip link set lo up`): the closed-source CLIs can reach nothing but the witness.
#
#   sudo scripts/examples/agentruntime-cli.sh [RUNTIME[:EXPORT] ...]
#
# RUNTIME is claude-code, gemini-cli or codex (default: all three, and gemini-cli's
# inWorkspace export, which writes the media inside Gemini CLI's workspace).
#
# Installs @anthropic-ai/claude-code, @google/gemini-cli and @openai/codex, pinned
# below, into target/examples/agentruntime-cli (npm), with HOME and CODEX_HOME under the
# output folder, so no configuration of yours is read or written. The keys the CLIs get
# are dummies: the witness takes any and never prints them. Reports (JSON, JUnit, the
# terminal log) land in target/examples/agentruntime-cli/out/<runtime>.*. A CLI that
# gives up on the witness's plain answers fails its cases on that, which is not a media
# defect: read the reasons. Exit 2 when the setup failed.
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0

require_mmconform
command -v unshare >/dev/null && command -v ip >/dev/null || die "unshare and ip are needed"
command -v npm >/dev/null && command -v node >/dev/null || die "node and npm are needed"
RUNTIMES=("$@")
[ ${#RUNTIMES[@]} -gt 0 ] || RUNTIMES=(claude-code gemini-cli gemini-cli:inWorkspace codex)
AGENTS=$WORK/agentruntime-cli
OUT=$AGENTS/out
npm_pinned "$AGENTS" "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@google/gemini-cli@$GEMINI_CLI_VERSION" "@openai/codex@$CODEX_VERSION"
mkdir -p "$OUT"

for spec in "${RUNTIMES[@]}"; do
    module=${spec%%:*}
    export_name=${spec#"$module"}
    export_name=${export_name#:}
    runtime=$module${export_name:+-$export_name}
    [ -f "$REPO/examples/agentruntime/runtimes/$module.mjs" ] || die "no runtime $module"
    step "inside unshare -n: mmconform run --profile agentruntime, $spec, its model the witness"
    home=$OUT/home-$runtime
    # One workspace per runtime, as a runtime's workingDirectory: Gemini CLI keeps its
    # sessions per project directory, so a resume from a fresh directory finds none.
    work=$OUT/work-$runtime
    rm -rf "$home" "$work" && mkdir -p "$home/.gemini" "$home/.codex" "$work"
    # Gemini CLI asks for an auth method before anything else: the API key (a dummy).
    printf '{"security": {"auth": {"selectedType": "gemini-api-key"}}}\n' >"$home/.gemini/settings.json"
    rc=0
    # GEMINI_MODEL: Gemini CLI's default model `auto` first asks a router model to pick
    # one, and against a plain answer retries that for minutes; a named model skips it.
    unshare -n env MMCONFORM="$MMCONFORM" REPO="$REPO" OUT="$OUT" RUNTIME="$runtime" \
        MODULE="$module" EXPORT="$export_name" WORKSPACE="$work" \
        HOME="$home" CODEX_HOME="$home/.codex" GEMINI_CLI_TRUST_WORKSPACE=true \
        GEMINI_MODEL=gemini-2.5-flash \
        PATH="$AGENTS/node_modules/.bin:$PATH" sh -c '
        ip link set lo up
        "$MMCONFORM" run --profile agentruntime --witness 127.0.0.1:0 \
            --target-cmd "node $REPO/examples/agentruntime/bridge.mjs $REPO/examples/agentruntime/runtimes/$MODULE.mjs $EXPORT" \
            --target-cwd "$WORKSPACE" --timeout 120 --witness-wait 10 -j 2 --color never \
            --target-env GEMINI_CLI_TRUST_WORKSPACE --target-env GEMINI_MODEL \
            --report "$OUT/$RUNTIME.json" --junit "$OUT/$RUNTIME.xml"
    ' >"$OUT/$runtime.log" 2>&1 || rc=$?
    grep -E '^(PASS|FAIL|WARN|BLOCKED|SKIP|ERROR) |^summary|^verdict' "$OUT/$runtime.log" || true
    case $rc in
    0 | 1 | 3) echo "(mmconform exited $rc; log: $OUT/$runtime.log)" ;;
    *) tail -n 20 "$OUT/$runtime.log" >&2 && die "mmconform exited $rc for $runtime: the setup is broken" ;;
    esac
done
