"""An agent served by the A2A Python SDK (a2a-sdk), its model an OpenAI-compatible endpoint.

The SDK's own server: a `DefaultRequestHandler` behind its JSON-RPC route (`/`, with its
0.3 compatibility on) and its HTTP+JSON routes (`/rest`), the card listing all three
interfaces. The executor is the SDK's task pattern: a task, `working`, one model call with
every part it can hand the model, an artifact with the answer, `completed`.

The model's base URL comes from MODEL_BASE_URL (mmconform's witness); nothing leaves
loopback. AGENT_URL is the base URL the card names. INPUT_MODES is the card's
comma-separated `defaultInputModes`; VALIDATE_INPUT_MODES=1 turns on the SDK's check of
parts against them. Served with uvicorn:
`uvicorn a2a_sdk_agent:app --host 127.0.0.1 --port N`.
"""

import base64
import os

from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes.agent_card_routes import create_agent_card_routes
from a2a.server.routes.jsonrpc_routes import create_jsonrpc_routes
from a2a.server.routes.rest_routes import create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types.a2a_pb2 import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from openai import AsyncOpenAI
from starlette.applications import Starlette

BASE = os.environ["AGENT_URL"].rstrip("/")
MODES = os.environ.get("INPUT_MODES", "text/plain").split(",")
client = AsyncOpenAI(base_url=os.environ["MODEL_BASE_URL"], api_key="unused")


def model_content(part):
    """The chat content for one A2A part, or None for what this agent does not forward."""
    kind = part.WhichOneof("content")
    mime = part.media_type
    if kind == "text":
        return {"type": "text", "text": part.text}
    if kind == "raw":
        data = base64.b64encode(part.raw).decode()
        if mime.startswith("image/"):
            return {"type": "image_url", "image_url": {"url": f"data:{mime};base64,{data}"}}
        if mime in ("audio/wav", "audio/mpeg"):
            fmt = "wav" if mime == "audio/wav" else "mp3"
            return {"type": "input_audio", "input_audio": {"data": data, "format": fmt}}
        if mime == "application/pdf":
            name = part.filename or "document.pdf"
            return {"type": "file", "file": {"filename": name, "file_data": f"data:{mime};base64,{data}"}}
    if kind == "url" and mime.startswith("image/"):
        return {"type": "image_url", "image_url": {"url": part.url}}
    return None


class ModelExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task or new_task_from_user_message(context.message)
        if context.current_task is None:
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work()
        content = [c for c in map(model_content, context.message.parts) if c is not None]
        answer = await client.chat.completions.create(
            model=os.environ.get("MODEL_NAME", "mmconform-witness"),
            messages=[
                {"role": "system", "content": "Describe what the user sends."},
                {"role": "user", "content": content},
            ],
        )
        await updater.add_artifact([new_text_part(answer.choices[0].message.content or "")])
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


card = AgentCard(
    name="mmconform-example",
    description="Describes what it is sent.",
    version="1.0.0",
    supported_interfaces=[
        AgentInterface(protocol_binding="JSONRPC", url=f"{BASE}/", protocol_version="1.0"),
        AgentInterface(protocol_binding="HTTP+JSON", url=f"{BASE}/rest", protocol_version="1.0"),
        AgentInterface(protocol_binding="JSONRPC", url=f"{BASE}/", protocol_version="0.3"),
    ],
    capabilities=AgentCapabilities(streaming=True),
    default_input_modes=MODES,
    default_output_modes=["text/plain"],
    skills=[AgentSkill(id="describe", name="describe", description="Describes what it is sent.", tags=["media"])],
)
handler = DefaultRequestHandler(
    agent_executor=ModelExecutor(),
    task_store=InMemoryTaskStore(),
    agent_card=card,
    validate_input_modes=os.environ.get("VALIDATE_INPUT_MODES") == "1",
)
app = Starlette(
    routes=[
        *create_agent_card_routes(card),
        *create_jsonrpc_routes(handler, rpc_url="/", enable_v0_3_compat=True),
        *create_rest_routes(handler, path_prefix="/rest"),
    ]
)
