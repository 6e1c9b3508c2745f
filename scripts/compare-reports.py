#!/usr/bin/env python3
"""Compare two mmconform outputs for a change that must not change behaviour.

  compare-reports.py calibration BEFORE.json AFTER.json   # calibrate --format json
  compare-reports.py run BEFORE.json AFTER.json           # run --report
  compare-reports.py hurl BEFORE_DIR AFTER_DIR            # run --export-hurl DIR/X.hurl

Calibration matrices must be identical. Run reports must list the same cases with the
same outcomes, reasons, notes and assertions; timings, ports, nonces and digests aside.
Hurl exports must hold the same requests, each the same (method, URL, headers, body,
asserts) once the run's port, nonces and nonce-stamped media are masked: cases run
concurrently, so the order of the requests and the numbers of the bodies written
beside the file are not compared. Exits 1 and prints the differences when they differ.
"""
import json
import os
import re
import sys

# A nonce is the run's (16 hex digits) or a case's (the run's followed by -c<index>);
# stamped media grow with their nonce, so the sizes an echo reports ("image bytes 125")
# are masked too (both sides of an assertion are, and whether it passed is compared).
# With a witness, the digests of stamped media ("sha256 acccd2771e70") differ with the
# nonce, and the witness numbers calls in the order they arrive ("(call 8)"), which
# concurrent cases change from run to run.
VOLATILE = re.compile(
    r"127\.0\.0\.1:\d+|[0-9a-f]{16}(-c\d+)?|\d+ ?ms|\d+(\.\d+)?s\b|(?<=\bbytes )\d+"
    r"|(?<=sha256 )[0-9a-f]{12}\b|\bcalls? \d+(, \d+)*"
)
# Base64 runs long enough to be media (stamped with the nonce, so their bytes differ),
# with the `*` the base64-noise cases put inside.
BASE64 = re.compile(r"[A-Za-z0-9+/*]{40,}={0,2}")


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


def hurl_requests(folder):
    """Every request of the one `.hurl` file in `folder`, by its purpose line, masked;
    a body written beside the file (`file,X.hurl.N.json;`) is read in its place."""
    (name,) = [f for f in os.listdir(folder) if f.endswith(".hurl")]
    text = open(os.path.join(folder, name)).read()
    beside = re.compile(r"^file,(\S+);$", re.M)
    text = beside.sub(lambda m: open(os.path.join(folder, m.group(1))).read(), text)
    requests = {}
    for entry in re.split(r"\n(?=# )", text.strip()):
        purpose, _, rest = entry.partition("\n")
        purpose = re.sub(r" \(request \d+\)$", "", purpose)
        rest = BASE64.sub(lambda m: f"<base64 {len(m.group(0))}>", rest)
        requests[scrub(purpose)] = scrub(rest.strip())
    return requests


def main():
    kind, before, after = sys.argv[1:4]
    if kind == "hurl":
        ra, rb = hurl_requests(before), hurl_requests(after)
        diffs = [p for p in sorted(set(ra) | set(rb)) if ra.get(p) != rb.get(p)]
        for p in diffs[:20]:
            print(f"{p}:\n  before {ra.get(p)!r}\n  after  {rb.get(p)!r}")
        print(f"{len(ra)} requests before, {len(rb)} after, {len(diffs)} differ")
        same = not diffs
        print("same" if same else "DIFFERENT")
        sys.exit(0 if same else 1)
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
