"""UserMemoryMiddleware with langchain.agents.create_agent and fake chat models."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from lc_support import RecordingChatModel

from langchain_usermemory import UserMemoryMiddleware
from shared_core import AsyncUserMemory, InvalidIdError, UserMemory


@dataclass
class Ctx:
    user_id: str
    session_id: str | None = None


def system_text(messages: list[Any]) -> str:
    assert isinstance(messages[0], SystemMessage), messages
    return str(messages[0].content)


def seed(core: UserMemory) -> None:
    core.remember("ada", "drink.morning", "green tea with lemon")
    core.remember("bob", "drink.morning", "black coffee")


def test_context_is_injected_into_the_system_message(core: UserMemory) -> None:
    seed(core)
    model = RecordingChatModel(messages=iter(["Green tea it is.", "Coffee, then."]))
    agent = create_agent(
        model,
        system_prompt="You are a barista.",
        middleware=[UserMemoryMiddleware(core)],
        context_schema=Ctx,
    )
    out = agent.invoke(
        {"messages": [HumanMessage("What should I drink this morning?")]}, context=Ctx("ada")
    )
    sent = system_text(model.calls[0])
    assert sent.startswith("You are a barista.")
    assert "green tea with lemon" in sent and "black coffee" not in sent
    # the block was not persisted into the agent state
    assert [type(m).__name__ for m in out["messages"]] == ["HumanMessage", "AIMessage"]
    assert all(not isinstance(m, SystemMessage) for m in out["messages"])
    # another user gets their own memory
    agent.invoke(
        {"messages": [HumanMessage("What should I drink this morning?")]}, context=Ctx("bob")
    )
    sent_bob = system_text(model.calls[1])
    assert "black coffee" in sent_bob and "green tea" not in sent_bob


def test_turns_are_observed_after_the_run(core: UserMemory) -> None:
    model = RecordingChatModel(messages=iter(["Noted, no calls.", "You asked for SMS only."]))
    agent = create_agent(model, middleware=[UserMemoryMiddleware(core)], context_schema=Ctx)
    agent.invoke(
        {"messages": [HumanMessage("Never call me, text me instead.")]},
        context=Ctx("ada", session_id="s1"),
    )
    turns = core.session_turns("ada", "s1")
    assert [(t.role, t.text) for t in turns] == [
        ("user", "Never call me, text me instead."),
        ("assistant", "Noted, no calls."),
    ]
    assert core.profile("ada").get("contact.call") == "never"
    # the next run sees the memory it just wrote
    agent.invoke(
        {"messages": [HumanMessage("How should you contact me?")]}, context=Ctx("ada", "s2")
    )
    assert "never" in system_text(model.calls[1]).lower()


def test_user_id_from_configurable_and_thread_as_session(core: UserMemory) -> None:
    seed(core)
    model = RecordingChatModel(messages=iter(["ok", "ok again"]))
    agent = create_agent(
        model, middleware=[UserMemoryMiddleware(core)], checkpointer=InMemorySaver()
    )
    cfg: Any = {"configurable": {"user_id": "ada", "thread_id": "t-1"}}
    agent.invoke({"messages": [HumanMessage("What do I drink in the morning?")]}, cfg)
    assert "green tea with lemon" in system_text(model.calls[0])
    # second turn on the same thread: only the new turns are observed, none twice
    agent.invoke({"messages": [HumanMessage("And in the evening?")]}, cfg)
    texts = [t.text for t in core.session_turns("ada", "t-1")]
    assert texts == ["What do I drink in the morning?", "ok", "And in the evening?", "ok again"]


def test_tools_loop_observes_only_conversation_turns(core: UserMemory) -> None:
    @tool
    def get_weather(city: str) -> str:
        """Weather for a city."""
        return f"Sunny in {city}"

    model = RecordingChatModel(
        messages=iter(
            [
                AIMessage(
                    "", tool_calls=[{"name": "get_weather", "args": {"city": "Oslo"}, "id": "w1"}]
                ),
                "It is sunny in Oslo.",
            ]
        )
    )
    agent = create_agent(model, tools=[get_weather], middleware=[UserMemoryMiddleware(core)])
    core.observe("ada", "I live in Oslo.", session_id="earlier")
    out = agent.invoke(
        {"messages": [HumanMessage("What's the weather in my city?")]},
        {"configurable": {"user_id": "ada", "session_id": "w"}},
    )
    assert out["messages"][-1].content == "It is sunny in Oslo."
    assert len(model.calls) == 2  # memory injected on every model call
    assert all("Oslo" in system_text(call) for call in model.calls)
    assert [(t.role, t.text) for t in core.session_turns("ada", "w")] == [
        ("user", "What's the weather in my city?"),
        ("assistant", "It is sunny in Oslo."),
    ]


async def test_async_agent_uses_async_core(acore: AsyncUserMemory, core: UserMemory) -> None:
    seed(core)
    model = RecordingChatModel(messages=iter(["Tea!"]))
    agent = create_agent(
        model,
        system_prompt=SystemMessage(content=[{"type": "text", "text": "Be brief."}]),
        middleware=[UserMemoryMiddleware(acore)],
        context_schema=Ctx,
    )
    out = await agent.ainvoke(
        {"messages": [HumanMessage("What do I drink in the morning?")]}, context=Ctx("ada", "as")
    )
    assert out["messages"][-1].content == "Tea!"
    content: Any = model.calls[0][0].content
    assert isinstance(content, list) and content[0]["text"] == "Be brief."
    assert "green tea with lemon" in content[-1]["text"]
    turns = await acore.session_turns("ada", "as")
    assert [t.role for t in turns] == ["user", "assistant"]


def test_missing_user_id_is_a_typed_error(core: UserMemory) -> None:
    model = RecordingChatModel(messages=iter(["hi"]))
    agent = create_agent(model, middleware=[UserMemoryMiddleware(core)])
    with pytest.raises(InvalidIdError):
        agent.invoke({"messages": [HumanMessage("hello")]})
    assert core.users() == []


def test_default_user_id_and_observe_off(core: UserMemory) -> None:
    model = RecordingChatModel(messages=iter(["hi"]))
    mw = UserMemoryMiddleware(core, user_id="carol", observe=False)
    agent = create_agent(model, middleware=[mw])
    agent.invoke(
        {"messages": [HumanMessage("I live in Lisbon.")]}, {"configurable": {"session_id": "x"}}
    )
    assert core.session_turns("carol", "x") == []


def test_fail_open_keeps_the_agent_running(
    core: UserMemory, caplog: pytest.LogCaptureFixture
) -> None:
    model = RecordingChatModel(messages=iter(["still here"]))
    core.close()  # every store call now fails with a BackendError
    agent = create_agent(
        model, middleware=[UserMemoryMiddleware(core, user_id="ada", fail_open=True)]
    )
    out = agent.invoke({"messages": [HumanMessage("hello there")]})
    assert out["messages"][-1].content == "still here"
    assert "continuing without memory" in caplog.text
