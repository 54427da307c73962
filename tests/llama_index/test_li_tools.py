"""Memory FunctionTools for LlamaIndex agents: bound to one user at construction."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms import MockFunctionCallingLLM

from llama_index_usermemory import UserChatMemory, create_memory_tools
from shared_core import AsyncUserMemory, InvalidInputError, UserMemory
from shared_core.clock import FakeClock
from shared_core.entities import Source

# workflows inspects FunctionAgent with inspect.getmembers, which touches pydantic's
# deprecated attributes: a LlamaIndex workflows / pydantic 2.14 incompatibility, not ours.
pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")


class ScriptedLLM:
    """Replies for MockFunctionCallingLLM, in order; keeps the messages of every call."""

    def __init__(self, replies: Sequence[ChatMessage]) -> None:
        self.replies = list(replies)
        self.calls: list[list[ChatMessage]] = []

    def __call__(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.calls.append(list(messages))
        return self.replies.pop(0)

    def llm(self) -> MockFunctionCallingLLM:
        return MockFunctionCallingLLM(response_generator=self)


def _call(name: str, kwargs: dict[str, Any], call_id: str) -> ChatMessage:
    block = ToolCallBlock(tool_call_id=call_id, tool_name=name, tool_kwargs=kwargs)
    return ChatMessage(role=MessageRole.ASSISTANT, blocks=[block])


def _say(text: str) -> ChatMessage:
    return ChatMessage(role=MessageRole.ASSISTANT, content=text)


def _run(agent: FunctionAgent, text: str, memory: Any = None) -> Any:
    async def go() -> Any:
        return await agent.run(user_msg=text, memory=memory)

    return asyncio.run(go())


def test_tools_are_bound_to_one_user_and_write_agent_notes(core: UserMemory) -> None:
    manage, search = create_memory_tools(core, "alice")
    for tool in (manage, search):
        props = tool.metadata.get_parameters_dict()["properties"]
        assert "user_id" not in props  # the model cannot choose the user
    out = manage.call(action="create", key="food.tea", value="green tea")
    assert out.raw_output["artifact"]["stored"] is True
    assert "green tea" in out.content
    assert core.history("alice", "food.tea")[-1].source is Source.AGENT
    found = search.call(query="tea")
    assert [h["value"] for h in found.raw_output["artifact"]] == ["green tea"]
    assert core.profile("bob") == {}
    bad = manage.call(action="create", key="food.tea")  # no value: the model is told
    assert bad.raw_output["artifact"] is None and "value" in bad.content
    gone = manage.call(action="delete", key="food.tea")
    assert gone.raw_output["artifact"]["deleted"] == 1
    with pytest.raises(InvalidInputError):
        create_memory_tools(core, "")


def test_a_note_never_overrides_what_the_user_said(core: UserMemory) -> None:
    core.observe("alice", "I only accept SMS notifications.")
    manage, _ = create_memory_tools(core, "alice")
    out = manage.call(action="update", key="contact.channel", value="email")
    assert out.raw_output["artifact"]["stored"] is False
    assert core.profile("alice")["contact.channel"] == "SMS"


def test_llamaindex_agent_recalls_session_3_at_session_50(
    core: UserMemory, clock: FakeClock
) -> None:
    tools = create_memory_tools(core, "alice")
    script = ScriptedLLM(
        [
            _call(
                "manage_memory",
                {"action": "create", "key": "contact.channel", "value": "SMS"},
                "c3",
            ),
            _say("Noted: texts only."),
        ]
    )
    memory = UserChatMemory(memory=core, user_id="alice", session_id="s3")
    _run(FunctionAgent(tools=tools, llm=script.llm()), "Please only ever text me.", memory)
    memory.reset()
    for session in range(4, 50):  # sessions without memory tool calls
        clock.advance(timedelta(days=1))
        filler = ScriptedLLM([_say(f"Order {session} ships tomorrow.")])
        chat = UserChatMemory(memory=core, user_id="alice", session_id=f"s{session}")
        _run(FunctionAgent(tools=tools, llm=filler.llm()), f"Where is order {session}?", chat)
    clock.advance(timedelta(days=2))
    script = ScriptedLLM(
        [
            _call("search_memory", {"query": "how to contact the user"}, "c50"),
            _say("I will send you an SMS."),
        ]
    )
    agent = FunctionAgent(tools=tools, llm=script.llm())
    result = _run(agent, "How will you tell me my order is ready?")
    [call] = result.tool_calls
    hits = call.tool_output.raw_output["artifact"]
    assert ("contact.channel", "SMS") in {(h["key"], h["value"]) for h in hits}
    assert hits[0]["provenance"]["at"].startswith(f"{clock.now() - timedelta(days=48):%Y-%m-%d}")
    tool_results = [m for m in script.calls[-1] if m.role == MessageRole.TOOL]
    assert tool_results and "SMS" in (tool_results[0].content or "")
    # the tool outputs observed by UserChatMemory in session 3 did not become memories
    assert core.history("alice", "contact.channel")[-1].source is Source.AGENT


def test_async_core(core: UserMemory) -> None:
    tools = create_memory_tools(AsyncUserMemory.wrap(core), "alice")
    script = ScriptedLLM(
        [
            _call(
                "manage_memory", {"action": "create", "key": "food.tea", "value": "green tea"}, "a1"
            ),
            _call("search_memory", {"query": "tea"}, "a2"),
            _say("Green tea."),
        ]
    )
    result = _run(FunctionAgent(tools=tools, llm=script.llm()), "I like green tea.")
    saved, found = (c.tool_output.raw_output["artifact"] for c in result.tool_calls)
    assert saved["stored"] is True
    assert [h["value"] for h in found] == ["green tea"]
