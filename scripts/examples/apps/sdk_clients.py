#!/usr/bin/env python3
"""Real client libraries calling the witness on its Responses and Gemini wires.

  sdk_clients.py ROOT_URL MEDIA_DIR

ROOT_URL is the witness without `/v1` (http://127.0.0.1:PORT); MEDIA_DIR a
`mmconform media export` folder (p0-image.png, p3-audio.wav, p5-document.pdf, ...).

openai (Python) `responses.create`: an input_text, an input_image (data URL, detail
high) and an input_file (data URL, filename) in one message, once plain and once
streamed. google-genai `generate_content`: a text, an inline PNG, WAV and PDF in one
content, once plain, once streamed (?alt=sse), plus one `count_tokens` (recorded by the
witness, never counted as the model reading it). Six calls; each prints the start of
the witness's answer. Exit 0 when every call was answered, 1 otherwise.
"""
import base64
import sys
from pathlib import Path

from google import genai
from google.genai import types
from openai import OpenAI

MODEL = "mmconform-witness"


def media(folder, stem):
    path = next(Path(folder).glob(f"p*-{stem}"))
    return path.name, path.read_bytes()


def data_url(mime, raw):
    return f"data:{mime};base64,{base64.b64encode(raw).decode()}"


def show(label, text):
    print(f"  {label}: {text[:150]}")


def responses(root, folder):
    client = OpenAI(base_url=f"{root}/v1", api_key="sk-unused-by-the-witness")
    _, png = media(folder, "image.png")
    pdf_name, pdf = media(folder, "document.pdf")
    content = [
        {"type": "input_text", "text": "What are these? (openai responses.create)"},
        {"type": "input_image", "image_url": data_url("image/png", png), "detail": "high"},
        {"type": "input_file", "file_data": data_url("application/pdf", pdf), "filename": pdf_name},
    ]
    answer = client.responses.create(
        model=MODEL, input=[{"role": "user", "content": content}], store=False
    )
    show("openai responses.create", answer.output_text)
    text = ""
    with client.responses.stream(model=MODEL, input=[{"role": "user", "content": content}]) as stream:
        for event in stream:
            if event.type == "response.output_text.delta":
                text += event.delta
        final = stream.get_final_response()
    assert final.status == "completed", final.status
    show("openai responses.stream", text)


def gemini(root, folder):
    client = genai.Client(
        api_key="unused-by-the-witness",
        http_options=types.HttpOptions(base_url=root),
    )
    _, png = media(folder, "image.png")
    _, wav = media(folder, "audio.wav")
    _, pdf = media(folder, "document.pdf")
    contents = [
        types.Content(
            role="user",
            parts=[
                types.Part.from_text(text="What are these? (google-genai generate_content)"),
                types.Part.from_bytes(data=png, mime_type="image/png"),
                types.Part.from_bytes(data=wav, mime_type="audio/wav"),
                types.Part.from_bytes(data=pdf, mime_type="application/pdf"),
            ],
        )
    ]
    answer = client.models.generate_content(
        model=MODEL,
        contents=contents,
        config=types.GenerateContentConfig(system_instruction="Name every part you see."),
    )
    show("google-genai generate_content", answer.text)
    text = "".join(
        chunk.text or "" for chunk in client.models.generate_content_stream(model=MODEL, contents=contents)
    )
    show("google-genai generate_content_stream", text)
    tokens = client.models.count_tokens(model=MODEL, contents=contents)
    show("google-genai count_tokens", f"total_tokens={tokens.total_tokens}")


def main():
    root, folder = sys.argv[1].rstrip("/"), sys.argv[2]
    failed = 0
    for name, calls in (("openai", responses), ("google-genai", gemini)):
        try:
            calls(root, folder)
        except Exception as error:  # a client that cannot read the witness is the finding
            print(f"  {name}: FAILED: {type(error).__name__}: {error}")
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
