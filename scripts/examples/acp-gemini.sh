#!/usr/bin/env bash
# OPT-IN, never in CI. Gemini CLI as an ACP agent (`gemini --acp`) judged by
# `mmconform run --profile acp`, its model (the Gemini wire) pointed at the run's witness.
# Everything runs inside a network namespace that has only loopback (`unshare -n`, then
# `ip link set lo up`), the witness inside too: the agent can reach nothing but it.
#
#   cargo build --release && sudo scripts/examples/acp-gemini.sh   (root: unshare -n)
#
# Installs @google/gemini-cli, pinned below, into target/examples/acp-gemini (npm), with
# HOME under the output folder, so no configuration of yours is read or written. The key
# is a dummy: the witness takes any and mmconform redacts --target-env values. The report
# is in target/examples/acp-gemini/out. Exit 2 when the setup failed; otherwise the run's
# own exit code (what it finds is a finding, reported as what it is).
# shellcheck source=scripts/examples/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

GEMINI_CLI_VERSION=0.61.0

require_mmconform
command -v unshare >/dev/null && command -v ip >/dev/null || die "unshare and ip are needed"
command -v npm >/dev/null || die "npm is needed"
AGENTS=$WORK/acp-gemini
OUT=$AGENTS/out
mkdir -p "$AGENTS"
wanted="@google/gemini-cli@$GEMINI_CLI_VERSION"
if [ "$(cat "$AGENTS/installed.txt" 2>/dev/null)" != "$wanted" ]; then
    step "installing $wanted into $AGENTS"
    printf '{"name": "acp-gemini", "private": true}\n' >"$AGENTS/package.json"
    (cd "$AGENTS" && npm install --no-audit --no-fund --save-exact "$wanted" >npm.log 2>&1) ||
        die "npm install failed (log: $AGENTS/npm.log)"
    echo "$wanted" >"$AGENTS/installed.txt"
fi
rm -rf "$OUT" && mkdir -p "$OUT/home/.gemini"
# Gemini CLI asks for an auth method before anything else: the API key (a dummy).
echo '{"security": {"auth": {"selectedType": "gemini-api-key"}}}' >"$OUT/home/.gemini/settings.json"
PORT=$(free_port)

step "inside unshare -n: mmconform run --profile acp --target-cmd 'gemini --acp', witness on 127.0.0.1:$PORT"
code=0
unshare -n env MMCONFORM="$MMCONFORM" PORT="$PORT" OUT="$OUT" AGENTS="$AGENTS" sh -c '
    ip link set lo up
    exec "$MMCONFORM" run --profile acp --color never \
        --target-cmd "$AGENTS/node_modules/.bin/gemini --acp -m mmconform-witness" \
        --target-env "HOME=$OUT/home" --target-env GEMINI_CLI_TRUST_WORKSPACE=true \
        --target-env GEMINI_API_KEY=dummy-key \
        --target-env "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$PORT" \
        --witness "127.0.0.1:$PORT" --timeout 60 \
        --report "$OUT/report.json" --junit "$OUT/junit.xml"
' >"$OUT/run.log" 2>&1 || code=$?
grep -E '^(PASS|FAIL|WARN|BLOCKED|SKIP|summary|verdict)' "$OUT/run.log" || true
step "exit $code (log: $OUT/run.log, report: $OUT/report.json)"
exit "$code"
