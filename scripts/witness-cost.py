#!/usr/bin/env python3
"""The witness's cost per call, per wire: N calls over one keep-alive connection.

  witness-cost.py BASE_URL [N] [KIB | FILE]

BASE_URL is a running witness (`mmconform witness`, e.g. http://127.0.0.1:PORT/v1).
Each call carries a text part and one inline PDF-labelled part of KIB KiB (default 256),
in the wire's own shape; wires the witness does not serve (answered 404) are skipped.
With FILE (a path: `mmconform media export DIR` writes stamped ones), that file is the
inline part instead, typed by its extension, so a picture or sound the witness decodes
is measured. Prints the median and 90th percentile microseconds per call for each wire.
"""
import base64
import http.client
import json
import statistics
import sys
import time
from urllib.parse import urlparse


TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
         ".wav": "audio/wav", ".mp3": "audio/mpeg", ".pdf": "application/pdf"}


def bodies(kib, path=None):
    if path:
        raw = open(path, "rb").read()
        mime = TYPES[path[path.rfind("."):].lower()]
    else:
        raw = b"%PDF-1.4\n" + bytes(range(256)) * (kib * 4)
        mime = "application/pdf"
    b64 = base64.b64encode(raw).decode()
    url = f"data:{mime};base64,{b64}"
    text = "what is this? mmconform-cost"
    return {
        "openai.chat": ("/v1/chat/completions", {"model": "m", "messages": [{"role": "user", "content": [
            {"type": "text", "text": text},
            {"type": "file", "file": {"file_data": url, "filename": "a.pdf"}}]}]}),
        "anthropic.messages": ("/v1/messages", {"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": [
            {"type": "text", "text": text},
            {"type": "document", "source": {"type": "base64", "media_type": mime, "data": b64}}]}]}),
        "openai.responses": ("/v1/responses", {"model": "m", "input": [{"role": "user", "content": [
            {"type": "input_text", "text": text},
            {"type": "input_file", "file_data": url, "filename": "a.pdf"}]}]}),
        "gemini": ("/v1beta/models/m:generateContent", {"contents": [{"role": "user", "parts": [
            {"text": text}, {"inlineData": {"mimeType": mime, "data": b64}}]}]}),
    }


def main():
    base = urlparse(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    third = sys.argv[3] if len(sys.argv) > 3 else "256"
    path = None if third.isdigit() else third
    kib = int(third) if third.isdigit() else 0
    conn = http.client.HTTPConnection(base.hostname, base.port)
    what = path or f"one {kib} KiB inline part"
    print(f"{n} calls per wire, {what} each")
    for wire, (url_path, body) in bodies(kib, path).items():
        payload = json.dumps(body).encode()
        times = []
        for _ in range(n):
            started = time.perf_counter()
            conn.request("POST", url_path, payload, {"content-type": "application/json"})
            response = conn.getresponse()
            response.read()
            times.append(time.perf_counter() - started)
            if response.status == 404:
                break
        if response.status == 404:
            print(f"  {wire:20} not served")
            continue
        times.sort()
        p90 = times[int(len(times) * 0.9)]
        print(f"  {wire:20} median {statistics.median(times) * 1e6:8.0f} us  p90 {p90 * 1e6:8.0f} us")


if __name__ == "__main__":
    main()
