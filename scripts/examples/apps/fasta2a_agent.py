"""A pydantic-ai agent served over A2A by fasta2a, its model an OpenAI-compatible endpoint.

The model's base URL comes from MODEL_BASE_URL (mmconform's witness); nothing leaves
loopback. AGENT_URL is the URL the card names. INPUT_MODES, when set, is a
comma-separated list of media types for the card's `defaultInputModes` (fasta2a's own
default, `application/json`, otherwise). Served with uvicorn:
`uvicorn fasta2a_agent:app --host 127.0.0.1 --port N`.
"""

import os

from fasta2a.pydantic_ai import agent_to_a2a
from pydantic_ai import Agent
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider

model = OpenAIChatModel(
    os.environ.get("MODEL_NAME", "mmconform-witness"),
    provider=OpenAIProvider(base_url=os.environ["MODEL_BASE_URL"], api_key="unused"),
)
agent = Agent(model, instructions="Describe what the user sends.")
app = agent_to_a2a(agent, name="mmconform-example", url=os.environ["AGENT_URL"])

modes = os.environ.get("INPUT_MODES")
if modes:
    # agent_to_a2a takes no input modes; the FastA2A app it returns reads this field
    # when it first serves its card.
    app.default_input_modes = modes.split(",")
