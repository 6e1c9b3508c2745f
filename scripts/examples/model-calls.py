#!/usr/bin/env python3
"""Print what reached the model, from an mmconform JSON report.

  model-calls.py REPORT.json [--media DIR]

A `run --witness` report: per case (skipped and excluded ones left out), its outcome, the
answer's bucket, and each model call attributed to it. A `witness` report: per call, its
outcome and what it carried. A call is one line per non-text part (kind, wire form, MIME
type or audio format, decoded bytes, filename, detail, what the bytes are when that
differs, the stamps found, the problems the witness saw); text parts are counted, and a
system message's text is shown, since the examples name their requests with it.

--media DIR (a `mmconform media export` folder): each part stamped `<nonce>-pN` is
compared with the file pN it came from: `intact` when its decoded bytes have the file's
length and SHA-256, `CHANGED` otherwise.
"""
import hashlib
import json
import re
import sys
from pathlib import Path

EXPORTED = {}  # "pN" -> (bytes, sha256) of the exported file pN-*


def part_line(part):
    bits = [part["kind"], part["wire_form"], part.get("mime") or "-"]
    if part.get("bytes") is not None:
        bits.append(f'{part["bytes"]} B')
    elif part.get("url"):
        bits.append(f'url {part["url"]}')
    elif part.get("file_id"):
        bits.append(f'file_id {part["file_id"]}')
    else:
        bits.append("undecoded")
    if part.get("filename") is not None:
        bits.append(f'filename {part["filename"]}')
    if part.get("detail") is not None:
        bits.append(f'detail {part["detail"]}')
    sniffed = part.get("sniffed")
    if sniffed and sniffed != part.get("mime") and part["wire_form"] != "input_audio":
        bits.append(f"bytes are {sniffed}")
    bits.append("stamp " + (", ".join(part["stamps"]) or "none"))
    bits.extend(compare_with_export(part))
    line = " ".join(bits)
    for problem in part.get("problems") or []:
        line += f'\n            problem: {problem.get("message", problem)}'
    return line


def compare_with_export(part):
    for stamp in part["stamps"]:
        match = re.search(r"-(p\d+)$", stamp)
        if not match or match.group(1) not in EXPORTED:
            continue
        size, sha = EXPORTED[match.group(1)]
        if (part.get("bytes"), part.get("sha256")) == (size, sha):
            return ["intact"]
        return [f"CHANGED (the file: {size} B sha256 {sha[:12]}; received sha256 {(part.get('sha256') or '-')[:12]})"]
    return []


def load_export(folder):
    for path in Path(folder).iterdir():
        match = re.match(r"(p\d+)-", path.name)
        if match:
            data = path.read_bytes()
            EXPORTED[match.group(1)] = (len(data), hashlib.sha256(data).hexdigest())


def print_call(call, indent):
    texts = [p for p in call["parts"] if p["kind"] == "text"]
    system = [p.get("text") for p in texts if p["role"] == "system" and p.get("text")]
    user_texts = sum(1 for p in texts if p["role"] != "system")
    head = f'{indent}call {call["seq"]}' + (" (stream)" if call.get("stream") else "")
    head += f": {user_texts} text part(s)"
    if system:
        head += f' [system: {system[0][:60]}]'
    print(head)
    for part in call["parts"]:
        if part["kind"] != "text":
            print(f"{indent}  {part_line(part)}")
        else:
            for problem in part.get("problems") or []:
                print(f'{indent}  text problem: {problem.get("message", problem)}')
    for problem in call.get("problems") or []:
        print(f'{indent}  problem: {problem.get("message", problem)}')


def main(path):
    report = json.load(open(path))
    witness_report = report["run"].get("profile") == "witness" or all(
        "model_calls" not in case for case in report["cases"]
    )
    for case in report["cases"]:
        if case["outcome"] in ("skip", "excluded"):
            continue
        if witness_report:
            print(f'{case["outcome"].upper():5} {case["id"]}')
            print_call(case["stream"], "      ")
            continue
        stream = case.get("stream") or {}
        bucket = stream.get("classification", "")
        print(f'{case["outcome"].upper():5} {case["id"]}' + (f" -> {bucket}" if bucket else ""))
        calls = case.get("model_calls")
        if calls is None:
            print("      (no witness in this run)")
        elif not calls:
            print("      no model call carried the case's nonce")
        for call in calls or []:
            print_call(call, "      ")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 3 and args[1] == "--media":
        load_export(args[2])
        args = args[:1]
    if len(args) != 1:
        sys.exit(__doc__)
    main(args[0])
