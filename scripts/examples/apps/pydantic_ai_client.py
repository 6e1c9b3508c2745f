"""Send mmconform's exported media through a pydantic-ai agent to an OpenAI-compatible model.

Usage: pydantic_ai_client.py BASE_URL MEDIA_DIR   (MEDIA_DIR: `mmconform media export` output)
One run per file (each file alone after a text part), then one run with every file in
one message, in the export order, so the witness can check that the order is kept.
"""

import asyncio
import sys
from pathlib import Path

from pydantic_ai import Agent, BinaryContent
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider

MIME = {".png": "image/png", ".jpg": "image/jpeg", ".webp": "image/webp",
        ".wav": "audio/wav", ".mp3": "audio/mpeg", ".pdf": "application/pdf"}


async def main(base_url: str, media_dir: str) -> None:
    model = OpenAIChatModel("mmconform-witness", provider=OpenAIProvider(base_url=base_url, api_key="unused"))
    agent = Agent(model)
    files = sorted(p for p in Path(media_dir).iterdir() if p.suffix in MIME)
    parts = [BinaryContent(data=p.read_bytes(), media_type=MIME[p.suffix]) for p in files]
    for path, part in zip(files, parts):
        result = await agent.run([f"What is in {path.name}?", part])
        print(f"{path.name}: {result.output}")
    result = await agent.run(["What is in these files?", *parts])
    print(f"all in one message: {result.output}")


asyncio.run(main(sys.argv[1], sys.argv[2]))
