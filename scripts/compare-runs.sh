#!/usr/bin/env bash
# Compares two output folders of scripts/reference-runs.sh (before and after a change that
# must not alter behaviour): exit codes, every run's cases and outcomes, every hurl export
# (and the large bodies written beside it) and the calibration matrix. Exits 1 on a difference.
# A loaded machine can move a timing-bound cell of the matrix (a fault caught by one more
# case): the cells that differ are printed, to be read rather than trusted blindly.
#   scripts/compare-runs.sh target/runs/before target/runs/after
set -uo pipefail
before=${1:?before folder} after=${2:?after folder}
here=$(dirname "$0")
status=0
if ! diff -u "$before/exits.txt" "$after/exits.txt"; then status=1; fi
for report in "$before"/report-*.json; do
  name=$(basename "$report" .json); name=${name#report-}
  echo "== $name"
  python3 "$here/compare-reports.py" run "$report" "$after/report-$name.json" | tail -1 || status=1
  python3 "$here/compare-reports.py" hurl "$before/hurl-$name/$name.hurl" "$after/hurl-$name/$name.hurl" | tail -1 || status=1
  # Bodies over 64 KiB are files beside the export, named by request: compare their digests.
  sums() { find "$1/hurl-$name" -type f ! -name '*.hurl' -exec sha256sum {} + | cut -d' ' -f1 | sort; }
  if ! diff <(sums "$before") <(sums "$after") >/dev/null; then echo "large bodies DIFFERENT"; status=1; fi
done
echo "== calibration"
python3 "$here/compare-reports.py" calibration "$before/calibration.json" "$after/calibration.json" | tail -1 || status=1
exit $status
