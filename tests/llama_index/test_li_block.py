"""UserMemoryBlock inside llama_index.core.memory.Memory (real Memory, small token limits)."""

from __future__ import annotations

from typing import Any

import pytest
from li_support import FILLERS, PREFERENCE, RecordingLLM, next_session
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.memory import BaseMemoryBlock, Memory
from llama_index.core.storage.chat_store.base_db import MessageStatus

from llama_index_usermemory import UserMemoryBlock
from shared_core import UserMemory
from shared_core.clock import FakeClock
from shared_core.errors import BackendError, InvalidInputError

USER = "u_li_block"


def make_memory(block: UserMemoryBlock, session_id: str, token_limit: int = 60) -> Memory:
    return Memory.from_defaults(
        session_id=session_id,
        token_limit=token_limit,
        chat_history_token_ratio=0.5,
        token_flush_size=10,
        memory_blocks=[block],
    )


def test_is_a_memory_block(core: UserMemory) -> None:
    block = UserMemoryBlock(memory=core, user_id=USER)
    assert isinstance(block, BaseMemoryBlock)
    assert block.name == "user_memory"
    with pytest.raises(InvalidInputError):
        UserMemoryBlock(memory=core, user_id="")


async def test_flushes_reach_the_core_and_nothing_is_lost(core: UserMemory) -> None:
    block = UserMemoryBlock(memory=core, user_id=USER)
    memory = make_memory(block, "s1")
    said = [
        PREFERENCE,
        "My budget is at most 20000 dollars.",
        "I live in Berlin.",
        "I am allergic to penicillin.",
        "Please remember that my name is Dana.",
        "What is the status of my order?",
    ]
    for i, text in enumerate(said):
        await memory.aput(ChatMessage(role="user", content=text))
        await memory.aput(ChatMessage(role="assistant", content=f"reply {i} " * 3))
    archived = await memory.aget_all(status=MessageStatus.ARCHIVED)
    active = await memory.aget_all(status=MessageStatus.ACTIVE)
    assert len(archived) >= 4 and len(active) > 0  # flushes happened, some still short-term
    # Every flushed message reached the core's session, in order; the rest did not yet.
    expected = [(m.role.value, m.content or "") for m in archived]
    stored = [(t.role, t.text) for t in core.session_turns(USER, "s1")]
    assert [(r, t.strip()) for r, t in stored] == [(r, t.strip()) for r, t in expected]

    # Close the conversation: what is still in the FIFO is moved too, then the session ends.
    moved = await block.aflush(memory)
    assert moved == len(active)
    assert await memory.aget_all(status=MessageStatus.ACTIVE) == []
    records = core.export(USER)["records"]
    texts = {r["value"].strip() for r in records if r["kind"] == "episode"}
    for i, text in enumerate(said):
        assert text in texts, (text, texts)
        assert (f"reply {i} " * 3).strip() in texts
    assert any(r["key"] == "session:s1" for r in records)  # end_session wrote the episode
    profile = core.profile(USER)
    assert any("sms" in v.lower() for v in profile.values()), profile
    assert any("penicillin" in v.lower() for v in profile.values()), profile


async def test_get_puts_context_for_latest_user_message_into_system_message(
    core: UserMemory,
) -> None:
    core.observe(USER, PREFERENCE, session_id="s3")
    block = UserMemoryBlock(memory=core, user_id=USER)
    memory = make_memory(block, "s50", token_limit=3000)
    await memory.aput(ChatMessage(role="user", content="How will you contact me?"))
    messages = await memory.aget()
    assert messages[0].role == MessageRole.SYSTEM
    assert "<user_memory>" in (messages[0].content or "")
    assert "SMS" in (messages[0].content or "")
    assert messages[-1].content == "How will you contact me?"


async def test_session_id_arrives_as_block_kwarg(core: UserMemory) -> None:
    seen: dict[str, Any] = {}
    original = core.context

    def spy(user_id: str, query: str, **kwargs: Any) -> str:
        seen.update(kwargs)
        return original(user_id, query, **kwargs)

    core.context = spy  # type: ignore[method-assign]
    memory = make_memory(UserMemoryBlock(memory=core, user_id=USER), "sess-xyz", 3000)
    await memory.aput(ChatMessage(role="user", content="hello there"))
    await memory.aget()
    assert seen["session_id"] == "sess-xyz"


def test_memory_with_block_in_chat_engine_session_50(core: UserMemory, clock: FakeClock) -> None:
    llm = RecordingLLM()
    for n in range(1, 50):
        next_session(clock)
        block = UserMemoryBlock(memory=core, user_id=USER)
        memory = make_memory(block, f"s{n}")
        engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)
        engine.chat(PREFERENCE if n == 3 else FILLERS[n % len(FILLERS)])
        block.flush(memory)
    next_session(clock)
    block = UserMemoryBlock(memory=core, user_id=USER)
    memory = make_memory(block, "s50", token_limit=3000)
    SimpleChatEngine.from_defaults(llm=llm, memory=memory).chat("How will you contact me?")
    assert "SMS" in llm.last_input
    assert FILLERS[1] not in llm.last_input  # recall, not the whole history


async def test_memory_get_inside_running_loop(core: UserMemory) -> None:
    core.observe(USER, PREFERENCE, session_id="s3")
    memory = make_memory(UserMemoryBlock(memory=core, user_id=USER), "s9", 3000)
    memory.put(ChatMessage(role="user", content="How do you contact me?"))  # sync in loop
    messages = memory.get()
    assert "SMS" in (messages[0].content or "")


class FlakyCore:
    """Delegates to a real core but fails ``observe`` with a BackendError ``fail`` times."""

    def __init__(self, core: UserMemory, fail: int) -> None:
        self.core = core
        self.fail = fail

    def observe(self, *args: Any, **kwargs: Any) -> Any:
        if self.fail > 0:
            self.fail -= 1
            raise BackendError("sqlite failed: disk I/O error")
        return self.core.observe(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)


async def test_backend_failure_keeps_flushed_messages_for_retry(core: UserMemory) -> None:
    flaky = FlakyCore(core, fail=1)
    block = UserMemoryBlock(memory=flaky, user_id=USER)
    first = ChatMessage(role="user", content=PREFERENCE)
    second = ChatMessage(role="user", content="I live in Berlin.")
    await block.aput([first, second], from_short_term_memory=True, session_id="s1")
    assert block.pending == 2  # nothing lost, nothing reordered
    assert core.session_turns(USER, "s1") == []
    await block.aget([ChatMessage(role="user", content="contact?")], session_id="s1")
    assert block.pending == 0
    assert [t.text for t in core.session_turns(USER, "s1")] == [PREFERENCE, "I live in Berlin."]


async def test_aflush_refuses_foreign_memory(core: UserMemory) -> None:
    block = UserMemoryBlock(memory=core, user_id=USER)
    other = make_memory(UserMemoryBlock(memory=core, user_id=USER, name="other"), "s1")
    with pytest.raises(InvalidInputError):
        await block.aflush(other)


async def test_atruncate_shortens_or_drops(core: UserMemory) -> None:
    block = UserMemoryBlock(memory=core, user_id=USER)
    content = "\n".join(f"line {i} with some words" for i in range(20))
    shorter = await block.atruncate(content, 50)
    assert shorter is not None and len(shorter) < len(content)
    assert content.startswith(shorter)
    assert await block.atruncate(content, 10_000) is None


async def test_invalid_flushed_text_is_skipped_and_the_rest_kept(core: UserMemory) -> None:
    block = UserMemoryBlock(memory=core, user_id=USER)
    messages = [
        ChatMessage(role="user", content="x" * 40_000),  # over max_text_chars
        ChatMessage(role="system", content="You are a bot."),  # not the user's words
        ChatMessage(role="user", content="I live in Berlin."),
    ]
    await block.aput(messages, from_short_term_memory=True, session_id="s1")
    assert block.pending == 0
    assert [t.text for t in core.session_turns(USER, "s1")] == ["I live in Berlin."]


async def test_block_with_async_core_and_sync_flush_inside_loop(clock: FakeClock) -> None:
    from shared_core import AsyncUserMemory
    from shared_core.embed import HashingEmbedder

    acore = AsyncUserMemory.from_url("sqlite:///:memory:", embedder=HashingEmbedder(), clock=clock)
    block = UserMemoryBlock(memory=acore, user_id=USER)
    memory = make_memory(block, "s3", token_limit=3000)
    await memory.aput(ChatMessage(role="user", content=PREFERENCE))
    assert block.flush(memory) == 1  # sync call while this loop runs
    memory2 = make_memory(UserMemoryBlock(memory=acore, user_id=USER), "s50", 3000)
    await memory2.aput(ChatMessage(role="user", content="How will you contact me?"))
    messages = await memory2.aget()
    assert "SMS" in (messages[0].content or "")
    await acore.aclose()
