#!/usr/bin/env bash
# The action's run step: mmconform run with the action's inputs (MMCONFORM_TARGET,
# _PROFILE, _TOKEN, _JUNIT, _REPORT, MMCONFORM_ACTION_CONFIG) and MMCONFORM_ARGS, one
# argument per line (a line is one argument as written: `--filter` then
# `source:"RFC 0091 §A"` on the next, never split on spaces; blank lines are skipped).
# Writes exit-code to $GITHUB_OUTPUT and exits with mmconform's code. The inputs'
# variables are none mmconform reads itself (the config input is not
# MMCONFORM_CONFIG), so an empty input never hides a variable the job set.
set -euo pipefail
args=(run --junit "$MMCONFORM_JUNIT" --report "$MMCONFORM_REPORT")
if [ -n "${MMCONFORM_TARGET:-}" ]; then args+=(--target "$MMCONFORM_TARGET"); fi
if [ -n "${MMCONFORM_PROFILE:-}" ]; then args+=(--profile "$MMCONFORM_PROFILE"); fi
if [ -n "${MMCONFORM_ACTION_CONFIG:-}" ]; then args+=(--config "$MMCONFORM_ACTION_CONFIG"); fi
if [ -n "${MMCONFORM_TOKEN:-}" ]; then args+=(--token-env MMCONFORM_TOKEN); fi
while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    # Surrounding blanks are YAML's indentation, not the argument's.
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    if [ -n "$line" ]; then args+=("$line"); fi
done <<< "${MMCONFORM_ARGS:-}"
set +e
mmconform "${args[@]}"
code=$?
set -e
echo "exit-code=$code" >> "${GITHUB_OUTPUT:-/dev/null}"
exit "$code"
