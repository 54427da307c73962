"""UserChatMemory with real LlamaIndex chat engines and agents (MockLLM-based)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from li_support import FILLERS, PREFERENCE, RecordingFunctionLLM, RecordingLLM, next_session
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.chat_engine import CondensePlusContextChatEngine, SimpleChatEngine
from llama_index.core.memory.types import BaseMemory

from llama_index_usermemory import UserChatMemory, UserMemoryRetriever
from shared_core import AsyncUserMemory, UserMemory
from shared_core.clock import FakeClock
from shared_core.embed import HashingEmbedder
from shared_core.errors import InvalidInputError

USER = "u_li_chat"


def seed_sessions(core: UserMemory, clock: FakeClock, llm: RecordingLLM, upto: int) -> None:
    """Sessions 1..upto through a SimpleChatEngine; session 3 states the preference."""
    for n in range(1, upto + 1):
        next_session(clock)
        memory = UserChatMemory(memory=core, user_id=USER, session_id=f"s{n:02d}")
        engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)
        engine.chat(PREFERENCE if n == 3 else FILLERS[n % len(FILLERS)])
        memory.reset()


def test_is_a_llamaindex_base_memory(core: UserMemory) -> None:
    memory = UserChatMemory.from_defaults(memory=core, user_id=USER)
    assert isinstance(memory, BaseMemory)
    assert memory.session_id  # a random id by default
    assert "memory" not in memory.model_dump()  # the core object is not serialised


def test_put_is_observed_immediately_and_get_returns_context_then_turns(
    core: UserMemory,
) -> None:
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s1")
    memory.put(ChatMessage(role="system", content="You are a support bot."))
    memory.put(ChatMessage(role="user", content=PREFERENCE))
    # Observed right away: the long-term profile already has it.
    assert any("sms" in v.lower() for v in core.profile(USER).values())
    memory.put(ChatMessage(role="assistant", content="Understood, SMS only."))

    messages = memory.get(input="How should we contact you?")
    assert messages[0].role == MessageRole.SYSTEM
    assert "SMS" in (messages[0].content or "")
    turns = messages[1:]
    assert [(m.role.value, m.content) for m in turns] == [
        ("user", PREFERENCE),
        ("assistant", "Understood, SMS only."),
    ]
    # The system prompt was not stored as a turn.
    assert [m.content for m in memory.get_all()] == [PREFERENCE, "Understood, SMS only."]


def test_get_without_input_uses_latest_user_turn(core: UserMemory) -> None:
    core.observe(USER, PREFERENCE, session_id="old")
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s2")
    assert memory.get() == []  # nothing said in this session yet: no query, no context
    memory.put(ChatMessage(role="user", content="Please contact me about the refund."))
    messages = memory.get()
    assert messages[0].role == MessageRole.SYSTEM and "SMS" in (messages[0].content or "")


def test_window_limits_recent_turns(core: UserMemory) -> None:
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s1", window=2)
    for i in range(5):
        memory.put(ChatMessage(role="user", content=f"question number {i}"))
    turns = [m for m in memory.get() if m.role != MessageRole.SYSTEM]
    assert [m.content for m in turns] == ["question number 3", "question number 4"]
    assert len(memory.get_all()) == 5


def test_set_appends_only_new_messages(core: UserMemory) -> None:
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s1")
    first = [ChatMessage(role="user", content="hello"), ChatMessage(role="assistant", content="hi")]
    memory.set(first)
    memory.set(first)  # same history again: nothing new
    memory.set([*first, ChatMessage(role="user", content="and one more thing")])
    assert [m.content for m in memory.get_all()] == ["hello", "hi", "and one more thing"]


def test_reset_ends_session_and_keeps_long_term_memory(core: UserMemory) -> None:
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s1")
    memory.put(ChatMessage(role="user", content=PREFERENCE))
    memory.reset()
    assert memory.session_id != "s1"
    assert memory.get_all() == []
    records = core.export(USER)["records"]
    assert any(r["key"] == "session:s1" and r["kind"] == "episode" for r in records)
    assert any("sms" in v.lower() for v in core.profile(USER).values())


def test_bad_input_is_a_typed_error_and_nothing_is_stored(core: UserMemory) -> None:
    with pytest.raises(InvalidInputError):
        UserChatMemory(memory=core, user_id="  ")
    with pytest.raises(InvalidInputError):
        UserChatMemory(memory=None, user_id=USER)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s1")
    with pytest.raises(InvalidInputError):
        memory.put("not a message")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        memory.put(ChatMessage(role="user", content="x" * 40_000))  # over max_text_chars
    assert memory.get_all() == []


def test_simple_chat_engine_session_50_sees_session_3_preference(
    core: UserMemory, clock: FakeClock, llm: RecordingLLM
) -> None:
    seed_sessions(core, clock, llm, 49)
    next_session(clock)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s50")
    engine = SimpleChatEngine.from_defaults(
        llm=llm, memory=memory, system_prompt="You are a support agent."
    )
    engine.chat("Like last time, how will you contact me about my refund?")
    seen = llm.last_input
    assert "SMS" in seen, seen
    assert "support agent" in seen
    # The whole history is not stuffed into the prompt: only this session's turns.
    assert FILLERS[1] not in seen


async def test_simple_chat_engine_async(
    core: UserMemory, clock: FakeClock, llm: RecordingLLM
) -> None:
    seed_sessions(core, clock, llm, 49)
    next_session(clock)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s50")
    engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)
    await engine.achat("How will you contact me about my refund?")
    assert "SMS" in llm.last_input
    assert [m.role.value for m in await memory.aget_all()] == ["user", "assistant"]


async def test_sync_engine_called_inside_running_loop(
    core: UserMemory, clock: FakeClock, llm: RecordingLLM
) -> None:
    """Jupyter-style: a sync ``chat`` while an event loop is running in this thread."""
    asyncio.get_running_loop()  # we are inside a running loop
    seed_sessions(core, clock, llm, 49)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s50")
    SimpleChatEngine.from_defaults(llm=llm, memory=memory).chat("How do you contact me?")
    assert "SMS" in llm.last_input


def test_async_core_sync_calls_use_the_sync_twin_async_calls_the_callers_loop(
    clock: FakeClock, llm: RecordingLLM
) -> None:
    acore = AsyncUserMemory.from_url("sqlite:///:memory:", embedder=HashingEmbedder(), clock=clock)
    memory = UserChatMemory(memory=acore, user_id=USER, session_id="s1")
    loops: list[int] = []
    original = acore.observe

    async def spy(*args: Any, **kwargs: Any) -> Any:
        loops.append(id(asyncio.get_running_loop()))
        return await original(*args, **kwargs)

    acore.observe = spy  # type: ignore[method-assign]
    memory.put(ChatMessage(role="user", content=PREFERENCE))  # sync, no loop running
    assert loops == []  # went through acore.sync, no temporary event loop

    async def inside_loop() -> int:
        memory.put(ChatMessage(role="user", content="sync put inside a running loop"))
        await memory.aput(ChatMessage(role="user", content="async put"))
        await SimpleChatEngine.from_defaults(llm=llm, memory=memory).achat("How do you reach me?")
        return id(asyncio.get_running_loop())

    caller_loop = asyncio.run(inside_loop())
    assert loops and set(loops) == {caller_loop}  # awaited on the caller's own loop
    assert "SMS" in llm.last_input
    assert len(memory.get_all()) == 5
    asyncio.run(acore.aclose())


class AsyncOnlyCore:
    """A real AsyncUserMemory behind a facade without ``.sync`` (like a core whose async
    clients are bound to one event loop); records the loop each coroutine runs on."""

    def __init__(self, inner: AsyncUserMemory) -> None:
        self._inner = inner
        self.loops: set[int] = set()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._inner, name)

        async def run(*args: Any, **kwargs: Any) -> Any:
            self.loops.add(id(asyncio.get_running_loop()))
            return await method(*args, **kwargs)

        return run

    async def observe(self, *args: Any, **kwargs: Any) -> Any:
        self.loops.add(id(asyncio.get_running_loop()))
        return await self._inner.observe(*args, **kwargs)


def test_async_only_core_runs_on_one_private_loop(clock: FakeClock, llm: RecordingLLM) -> None:
    inner = AsyncUserMemory.from_url("sqlite:///:memory:", embedder=HashingEmbedder(), clock=clock)
    core = AsyncOnlyCore(inner)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s1")
    retriever = UserMemoryRetriever(core, USER)
    memory.put(ChatMessage(role="user", content=PREFERENCE))

    async def inside_loop() -> None:
        memory.put(ChatMessage(role="user", content="sync put inside a running loop"))
        await memory.aput(ChatMessage(role="user", content="async put"))
        await SimpleChatEngine.from_defaults(llm=llm, memory=memory).achat("How do you reach me?")
        assert await retriever.aretrieve("SMS")

    asyncio.run(inside_loop())
    asyncio.run(memory.aput(ChatMessage(role="user", content="from a second caller loop")))
    assert retriever.retrieve("SMS")
    assert "SMS" in llm.last_input
    assert len(core.loops) == 1  # every coroutine ran on the core's one private loop
    assert len(memory.get_all()) == 6
    asyncio.run(inner.aclose())


def test_condense_plus_context_engine_sync(
    core: UserMemory, clock: FakeClock, llm: RecordingLLM
) -> None:
    seed_sessions(core, clock, llm, 49)
    next_session(clock)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s50")
    retriever = UserMemoryRetriever(core, USER, k=3)
    engine = CondensePlusContextChatEngine.from_defaults(
        retriever=retriever, llm=llm, memory=memory
    )
    engine.chat("Hi, I have a question about my invoice.")
    engine.chat("How will you contact me about it?")
    assert "SMS" in llm.last_input
    assert [m.role.value for m in memory.get_all()] == ["user", "assistant"] * 2


async def test_condense_plus_context_engine_async(
    core: UserMemory, clock: FakeClock, llm: RecordingLLM
) -> None:
    seed_sessions(core, clock, llm, 49)
    next_session(clock)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s50")
    engine = CondensePlusContextChatEngine.from_defaults(
        retriever=UserMemoryRetriever(core, USER), llm=llm, memory=memory
    )
    await engine.achat("How will you contact me about the refund?")
    assert "SMS" in llm.last_input


# workflows inspects FunctionAgent with inspect.getmembers, which touches pydantic's deprecated
# deprecated pydantic attributes (``__fields__``, ``model_computed_fields`` on the instance):
# a LlamaIndex workflows / pydantic 2.14 incompatibility, not ours.
WORKFLOWS_PYDANTIC_WARNING = pytest.mark.filterwarnings(
    "ignore::pydantic.warnings.PydanticDeprecationWarning"
)


@WORKFLOWS_PYDANTIC_WARNING
async def test_function_agent_with_chat_memory(core: UserMemory, clock: FakeClock) -> None:
    llm = RecordingLLM()
    seed_sessions(core, clock, llm, 49)
    next_session(clock)
    agent_llm = RecordingFunctionLLM()
    agent = FunctionAgent(tools=[], llm=agent_llm, system_prompt="You are a support agent.")
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s50")
    result = await agent.run(user_msg="How will you contact me about the refund?", memory=memory)
    assert "Noted" in str(result)
    assert "SMS" in agent_llm.last_input
    assert "support agent" in agent_llm.last_input
    roles = [m.role.value for m in memory.get_all()]
    assert roles == ["user", "assistant"]


@WORKFLOWS_PYDANTIC_WARNING
async def test_function_agent_with_tools_stores_tool_text(
    core: UserMemory, clock: FakeClock
) -> None:
    from llama_index.core.llms import MockFunctionCallingLLM
    from llama_index.core.tools import FunctionTool

    calls: list[int] = []

    def order_status(order: str = "A-1") -> str:
        """Look up the shipping status of an order."""
        calls.append(threading.get_ident())
        return f"Order {order} ships tomorrow."

    core.observe(USER, PREFERENCE, session_id="s3")
    agent = FunctionAgent(
        tools=[FunctionTool.from_defaults(order_status)], llm=MockFunctionCallingLLM()
    )
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s9")
    await agent.run(user_msg="Where is my order?", memory=memory)
    assert calls
    texts = [m.content or "" for m in memory.get_all()]
    assert texts[0] == "Where is my order?"
    assert any("ships tomorrow" in t for t in texts)  # the tool output was observed


def test_from_defaults_observes_chat_history(core: UserMemory) -> None:
    history = [
        ChatMessage(role="user", content=PREFERENCE),
        ChatMessage(role="assistant", content="Noted."),
    ]
    memory = UserChatMemory.from_defaults(
        memory=core, user_id=USER, session_id="s1", chat_history=history, llm=RecordingLLM()
    )
    assert [m.content for m in memory.get_all()] == [PREFERENCE, "Noted."]
    assert any("sms" in v.lower() for v in core.profile(USER).values())


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_stream_chat_writes_the_reply_from_a_worker_thread(
    core: UserMemory, clock: FakeClock, llm: RecordingLLM
) -> None:
    seed_sessions(core, clock, llm, 3)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s4")
    response = SimpleChatEngine.from_defaults(llm=llm, memory=memory).stream_chat(
        "How do you contact me?"
    )
    text = "".join(response.response_gen)
    assert text.startswith("text")
    wait_for(lambda: len(memory.get_all()) == 2)
    assert [(m.role.value, m.content) for m in memory.get_all()] == [
        ("user", "How do you contact me?"),
        ("assistant", text),
    ]
    assert "SMS" in llm.last_input


async def test_astream_chat(core: UserMemory, clock: FakeClock, llm: RecordingLLM) -> None:
    seed_sessions(core, clock, llm, 3)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s4")
    engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)
    response = await engine.astream_chat("How do you contact me?")
    chunks = [token async for token in response.async_response_gen()]
    assert chunks
    for _ in range(500):
        if len(await memory.aget_all()) == 2:
            break
        await asyncio.sleep(0.01)
    assert [m.role.value for m in await memory.aget_all()] == ["user", "assistant"]
    assert "SMS" in llm.last_input
