#!/usr/bin/env python3
"""Compare two mmconform outputs for a change that must not change behaviour.

  compare-reports.py calibration BEFORE.json AFTER.json   # calibrate --format json
  compare-reports.py run BEFORE.json AFTER.json           # run --report
  compare-reports.py hurl BEFORE.hurl AFTER.hurl          # run --export-hurl

Calibration matrices must be identical. Run reports must list the same cases with the
same outcomes, reasons, notes and assertions; timings, ports, nonces and digests aside.
Hurl exports must hold the same requests byte for byte once the embedded host's port is
masked and the requests are put in case order (`-j` sends them in any order); make both with
the same MMCONFORM_RUN_NONCE so the nonces and the media stamped with them agree.
Exits 1 and prints the differences when they differ.
"""
import json
import re
import sys

# A nonce is the run's (16 hex digits) or a case's (the run's followed by -c<index>);
# stamped media grow with their nonce, so the sizes an echo reports ("image bytes 125")
# are masked too (both sides of an assertion are, and whether it passed is compared), and
# so is the number of the witness's call a part arrived in (`(call 6)`): calls are
# numbered as they arrive, in whatever order concurrent cases send them.
VOLATILE = re.compile(
    r"127\.0\.0\.1:\d+|[0-9a-f]{16}(-c\d+)?|\d+ ?ms|\d+(\.\d+)?s\b|(?<=\bbytes )\d+"
    r"|(?<=\bcall )\d+"
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


PORT = re.compile(r"127\.0\.0\.1:\d+")
REQUEST_NUMBER = re.compile(r" \(request \d+\)$", re.M)
# A body over 64 KiB is a file beside the export named by its request number.
BODY_FILE = re.compile(r"^file,[^;]*\.\d+\.(json|bin);", re.M)


def hurl_requests(path):
    """The export's requests, each a block starting with its `# case (request N)` line,
    with the port masked and the request number dropped, in sorted order."""
    text = PORT.sub("127.0.0.1:*", open(path, encoding="utf-8").read())
    text = BODY_FILE.sub("file,*;", text)
    blocks = re.split(r"\n(?=# )", text)
    return sorted(REQUEST_NUMBER.sub("", b.strip()) for b in blocks if b.strip())


def main():
    kind, before, after = sys.argv[1:4]
    if kind == "hurl":
        a, b = hurl_requests(before), hurl_requests(after)
        only_a = [x for x in a if x not in b]
        only_b = [x for x in b if x not in a]
        for x in only_a[:5]:
            print(f"only before:\n{x[:400]}")
        for x in only_b[:5]:
            print(f"only after:\n{x[:400]}")
        print(f"{len(a)} requests before, {len(b)} after")
        same = a == b
        print("same" if same else "DIFFERENT")
        sys.exit(0 if same else 1)
    a, b = (json.load(open(p)) for p in (before, after))
    if kind == "calibration":
        a, b = scrub(a), scrub(b)
        same = a == b
        for key in ("cases", "variants"):
            rows_a = {r.get("id", r.get("name")): r for r in a["matrix"][key]}
            rows_b = {r.get("id", r.get("name")): r for r in b["matrix"][key]}
            for name in sorted(set(rows_a) | set(rows_b)):
                if rows_a.get(name) != rows_b.get(name):
                    print(f"{key[:-1]} {name}:\n  before {rows_a.get(name)}\n  after  {rows_b.get(name)}")
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
