#!/usr/bin/env python3
"""Compare two mmconform outputs for a change that must not change behaviour.

  compare-reports.py calibration BEFORE.json AFTER.json   # calibrate --format json
  compare-reports.py run BEFORE.json AFTER.json           # run --report

Calibration matrices must be identical. Run reports must list the same cases with the
same outcomes, reasons, notes and assertions; timings, ports, nonces and digests aside.
Exits 1 and prints the differences when they differ.
"""
import json
import re
import sys

# A nonce is the run's (16 hex digits) or a case's (the run's followed by -c<index>);
# stamped media grow with their nonce, so the sizes an echo reports ("image bytes 125")
# are masked too (both sides of an assertion are, and whether it passed is compared).
VOLATILE = re.compile(
    r"127\.0\.0\.1:\d+|[0-9a-f]{16}(-c\d+)?|\d+ ?ms|\d+(\.\d+)?s\b|(?<=\bbytes )\d+"
)


def scrub(value):
    if isinstance(value, str):
        return VOLATILE.sub("*", value)
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if k != "duration_ms"}
    return value


def cases(report):
    return {
        c["id"]: scrub({k: c.get(k) for k in ("outcome", "reason", "notes", "assertions", "decided_on")})
        for c in report["cases"]
    }


def main():
    kind, before, after = sys.argv[1:4]
    a, b = (json.load(open(p)) for p in (before, after))
    if kind == "calibration":
        a, b = scrub(a), scrub(b)
        same = a == b
    else:
        ca, cb = cases(a), cases(b)
        diffs = [i for i in sorted(set(ca) | set(cb)) if ca.get(i) != cb.get(i)]
        for i in diffs[:20]:
            print(f"{i}:\n  before {ca.get(i)}\n  after  {cb.get(i)}")
        same = not diffs and a["summary"]["counts"] == b["summary"]["counts"]
        print(f"{len(ca)} cases before, {len(cb)} after, {len(diffs)} differ")
    print("same" if same else "DIFFERENT")
    sys.exit(0 if same else 1)


main()
