"""A pydantic-ai agent served over AG-UI whose model is an OpenAI-compatible endpoint.

The model's base URL comes from MODEL_BASE_URL (mmconform's witness); nothing leaves
loopback. Served with uvicorn: `uvicorn pydantic_ai_agent:app --host 127.0.0.1 --port N`.
"""

import os

from pydantic_ai import Agent
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

model = OpenAIChatModel(
    os.environ.get("MODEL_NAME", "mmconform-witness"),
    provider=OpenAIProvider(base_url=os.environ["MODEL_BASE_URL"], api_key="unused"),
)
agent = Agent(model, instructions="Describe what the user sends.")


async def run_agent(request: Request) -> Response:
    return await AGUIAdapter.dispatch_request(request, agent=agent)


app = Starlette(routes=[Route("/agent", run_agent, methods=["POST"])])
