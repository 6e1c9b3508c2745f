"""A LangGraph agent (one node calling ChatOpenAI) served over AG-UI by ag-ui-langgraph.

The model's base URL comes from MODEL_BASE_URL (mmconform's witness). Served with uvicorn:
`uvicorn langgraph_agent:app --host 127.0.0.1 --port N`; the run endpoint is /agent.
"""

import os

from ag_ui_langgraph import LangGraphAgent, add_langgraph_fastapi_endpoint
from fastapi import FastAPI
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph

model = ChatOpenAI(
    model=os.environ.get("MODEL_NAME", "mmconform-witness"),
    base_url=os.environ["MODEL_BASE_URL"],
    api_key="unused",
    max_retries=0,
)


async def chat(state: MessagesState) -> dict:
    return {"messages": [await model.ainvoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("chat", chat)
builder.add_edge(START, "chat")
builder.add_edge("chat", END)
graph = builder.compile(checkpointer=MemorySaver())

app = FastAPI()
add_langgraph_fastapi_endpoint(app, LangGraphAgent(name="witness", graph=graph), "/agent")
