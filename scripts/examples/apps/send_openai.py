"""Send OpenAI Chat Completions requests carrying mmconform's exported media to a gateway.

Usage: send_openai.py BASE_URL MODEL MEDIA_DIR   (bearer token from $GATEWAY_KEY;
MEDIA_DIR: `mmconform media export` output)
Standard library only. Each request opens with a system message naming it ("request N:
...") so the upstream's record of it can be found. Prints one line per request: its
number, the gateway's status and, for an error, the start of its message. What reached
the upstream is the witness's to say.
"""

import base64
import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path


def data_url(path: Path, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode()}"


def requests(media: Path) -> list[tuple[str, list, bool]]:
    """(name, content parts of one user message, stream)."""
    f = {p.name.split("-", 1)[1]: p for p in media.iterdir()}
    png = {"type": "image_url", "image_url": {"url": data_url(f["image.png"], "image/png")}}
    jpeg_low = {"type": "image_url", "image_url": {"url": data_url(f["image.jpg"], "image/jpeg"), "detail": "low"}}
    webp_high = {"type": "image_url", "image_url": {"url": data_url(f["image.webp"], "image/webp"), "detail": "high"}}
    wav = {"type": "input_audio", "input_audio": {"data": base64.b64encode(f["audio.wav"].read_bytes()).decode(), "format": "wav"}}
    mp3 = {"type": "input_audio", "input_audio": {"data": base64.b64encode(f["audio.mp3"].read_bytes()).decode(), "format": "mp3"}}
    pdf_named = {"type": "file", "file": {"file_data": data_url(f["document.pdf"], "application/pdf"), "filename": "report.pdf"}}
    pdf_unnamed = {"type": "file", "file": {"file_data": data_url(f["document.pdf"], "application/pdf")}}
    text = {"type": "text", "text": "What is in this?"}
    bad_b64 = {"type": "image_url", "image_url": {"url": "data:image/png;base64,not base64 !!!"}}
    no_mime = {"type": "image_url", "image_url": {"url": "data:;base64," + png["image_url"]["url"].split(",", 1)[1]}}
    return [
        ("image png, no detail", [text, png], False),
        ("image jpeg, detail low", [text, jpeg_low], False),
        ("image webp, detail high", [text, webp_high], False),
        ("audio wav", [text, wav], False),
        ("audio mp3", [text, mp3], False),
        ("file pdf, filename report.pdf", [text, pdf_named], False),
        ("file pdf, no filename", [text, pdf_unnamed], False),
        ("image png, streamed", [text, png], True),
        ("all six in export order", [text, png, jpeg_low, webp_high, wav, mp3, pdf_named], False),
        # Malformed: the openai profile's malformed cases, sent by hand until it exists.
        ("malformed: invalid base64 in a data URL", [text, bad_b64], False),
        ("malformed: data URL without a MIME type", [text, no_mime], False),
        ("malformed: unknown part type", [text, {"type": "hologram", "hologram": {"data": "AAAA"}}], False),
        ("malformed: image_url as a bare string", [text, {"type": "image_url", "image_url": png["image_url"]["url"]}], False),
        ("malformed: unknown detail value", [text, {"type": "image_url", "image_url": {"url": png["image_url"]["url"], "detail": "ultra"}}], False),
        ("malformed: input_audio with format flac", [text, {"type": "input_audio", "input_audio": {"data": wav["input_audio"]["data"], "format": "flac"}}], False),
        ("malformed: empty text block", [{"type": "text", "text": ""}, png], False),
        ("malformed: empty content list", [], False),
    ]


def send(base: str, model: str, label: str, content: list, stream: bool) -> tuple[int, str]:
    messages = [{"role": "system", "content": label}, {"role": "user", "content": content}]
    body = {"model": model, "messages": messages, "stream": stream}
    request = urllib.request.Request(
        f"{base}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {os.environ['GATEWAY_KEY']}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
            return answer.status, ""
    except urllib.error.HTTPError as error:
        return error.code, error.read(300).decode(errors="replace")


def main() -> int:
    base, model, media = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    for number, (name, content, stream) in enumerate(requests(media), 1):
        status, error = send(base, model, f"request {number}: {name}", content, stream)
        print(f"  {number:2}  {status}  {name}" + (f": {error}" if error else ""))
    return 0


sys.exit(main())
