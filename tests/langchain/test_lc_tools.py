"""Memory tools for LangChain/LangGraph agents: manage + search, the user bound from the run."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from lc_support import RecordingChatModel

from langchain_usermemory import create_memory_tools, create_search_memory_tool
from shared_core import AsyncUserMemory, InvalidIdError, UserMemory
from shared_core.clock import FakeClock
from shared_core.entities import Source


@dataclass
class Ctx:
    user_id: str


def _call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": call_id}])


def _agent(core: Any, replies: list[AIMessage]) -> tuple[Any, RecordingChatModel]:
    model = RecordingChatModel(messages=iter(replies))
    agent = create_agent(model, tools=create_memory_tools(core), context_schema=Ctx)
    return agent, model


def _tool_messages(result: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in result["messages"] if isinstance(m, ToolMessage)]


def test_the_model_cannot_choose_the_user(core: UserMemory) -> None:
    manage, search = create_memory_tools(core)
    for tool in (manage, search):
        assert "user_id" not in tool.tool_call_schema.model_json_schema()["properties"]
    with pytest.raises(InvalidIdError):  # no user in the run and none bound: an error
        search.invoke({"query": "tea"})
    # a user_id smuggled into the arguments is not a parameter: the run's user is used
    manage.invoke(
        {"action": "create", "key": "food.tea", "value": "green tea", "user_id": "mallory"},
        config={"configurable": {"user_id": "ada"}},
    )
    assert core.profile("ada") == {"food.tea": "green tea"}
    assert core.profile("mallory") == {}


def test_manage_goes_through_the_conflict_rules(core: UserMemory) -> None:
    manage, _ = create_memory_tools(core, user_id="ada")
    core.observe("ada", "I only accept SMS notifications.")

    def run(**args: Any) -> ToolMessage:
        msg = manage.invoke({"type": "tool_call", "id": "c", "name": manage.name, "args": args})
        assert isinstance(msg, ToolMessage)
        return msg

    lost = run(action="update", key="contact.channel", value="email")
    assert lost.artifact["stored"] is False  # what the user said outranks the agent's note
    assert core.profile("ada")["contact.channel"] == "SMS"
    made = run(action="create", key="food.tea", value="green tea")
    assert made.artifact["stored"] is True
    assert core.history("ada", "food.tea")[-1].source is Source.AGENT
    changed = run(action="update", key="food.tea", value="jasmine tea")
    assert changed.artifact["record"]["value"] == "jasmine tea"
    assert [r.value for r in core.history("ada", "food.tea")] == ["green tea", "jasmine tea"]
    gone = run(action="delete", key="food.tea")
    assert gone.artifact["deleted"] == 1 and "food.tea" not in core.profile("ada")
    bad = run(action="create", key="food.tea")  # no value: the model is told, nothing written
    assert bad.status == "error" and "food.tea" not in core.profile("ada")


def test_search_limit_is_bounded(core: UserMemory) -> None:
    for i in range(8):
        core.remember("ada", f"food.item{i}", f"dish {i}")
    search = create_search_memory_tool(core, user_id="ada", max_results=3)
    msg = search.invoke(
        {
            "type": "tool_call",
            "id": "s",
            "name": search.name,
            "args": {"query": "dish", "limit": 50},
        }
    )
    assert len(msg.artifact) == 3


def test_langgraph_agent_recalls_session_3_at_session_50(
    core: UserMemory, clock: FakeClock
) -> None:
    agent, _ = _agent(
        core,
        [
            _call(
                "manage_memory",
                {"action": "create", "key": "contact.channel", "value": "SMS"},
                "c3",
            ),
            AIMessage("Noted: I will only text you."),
        ],
    )
    agent.invoke(
        {"messages": [HumanMessage("Please only ever text me, no calls.")]},
        context=Ctx(user_id="ada"),
        config={"configurable": {"thread_id": "s3"}},
    )
    for session in range(4, 50):  # sessions without memory tool calls
        clock.advance(timedelta(days=1))
        filler, _ = _agent(core, [AIMessage(f"Order {session} is on its way.")])
        filler.invoke(
            {"messages": [HumanMessage(f"Where is order {session}?")]}, context=Ctx("ada")
        )
    clock.advance(timedelta(days=2))
    search = {"query": "how to contact the user", "limit": 3}
    agent, model = _agent(
        core,
        [_call("search_memory", search, "c50"), AIMessage("I will send you an SMS.")],
    )
    result = agent.invoke(
        {"messages": [HumanMessage("How will you tell me my order is ready?")]},
        context=Ctx(user_id="ada"),
    )
    [found] = _tool_messages(result)
    values = {(hit["key"], hit["value"]) for hit in found.artifact}
    assert ("contact.channel", "SMS") in values
    assert found.artifact[0]["provenance"]["at"].startswith(
        f"{(clock.now() - timedelta(days=48)):%Y-%m-%d}"
    )  # said in session 3
    assert any(isinstance(m, ToolMessage) and "SMS" in m.text for m in model.calls[-1])
    # another user's run with the same tool call finds nothing of ada's
    agent, _ = _agent(core, [_call("search_memory", search, "x"), AIMessage("?")])
    other = agent.invoke({"messages": [HumanMessage("hi")]}, context=Ctx(user_id="bob"))
    assert _tool_messages(other)[0].artifact == []


async def test_async_agent_with_async_core(core: UserMemory) -> None:
    amem = AsyncUserMemory.wrap(core)
    model = RecordingChatModel(
        messages=iter(
            [
                _call(
                    "manage_memory",
                    {"action": "create", "key": "food.tea", "value": "green tea"},
                    "a1",
                ),
                _call("search_memory", {"query": "tea"}, "a2"),
                AIMessage("Green tea."),
            ]
        )
    )
    agent = create_agent(model, tools=create_memory_tools(amem), context_schema=Ctx)
    result = await agent.ainvoke(
        {"messages": [HumanMessage("I like green tea.")]}, context=Ctx(user_id="ada")
    )
    saved, found = _tool_messages(result)
    assert saved.artifact["stored"] is True
    assert [hit["value"] for hit in found.artifact] == ["green tea"]
