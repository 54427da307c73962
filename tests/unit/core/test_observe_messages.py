"""observe_messages: a whole conversation in one call, each reply kept with its turn."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from shared_core import AsyncUserMemory, UserMemory
from shared_core.errors import InvalidInputError


@dataclass
class Msg:  # the shape of a LangChain message (type + content), duck-typed
    type: str
    content: Any
    id: str | None = None


CONVERSATION = [
    {"role": "system", "content": "You are a support agent."},
    {"role": "user", "content": "Never call me, text me instead."},
    {"role": "assistant", "content": "Understood, I will only text you."},
    {"role": "user", "content": "I prefer green tea."},
    {"role": "assistant", "content": "Green tea it is."},
]


def test_dicts_are_observed_in_order_in_one_session(mem: UserMemory) -> None:
    mem.observe_messages("u1", CONVERSATION, session_id="s3")
    turns = mem.session_turns("u1", "s3")
    assert [(t.role, t.text) for t in turns] == [
        (m["role"], m["content"]) for m in CONVERSATION[1:]
    ]  # the system prompt is the app's, not a turn
    assert mem.profile("u1")["contact.call"] == "never"


def test_without_session_id_every_message_shares_one_live_session(mem: UserMemory) -> None:
    mem.observe_messages("u1", CONVERSATION)
    state = mem.records.user_state("u1")
    assert state is not None and state.last_session_id
    turns = mem.session_turns("u1", state.last_session_id)
    assert len(turns) == 4
    assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]


def test_duck_typed_messages_with_content_blocks_and_ids(mem: UserMemory) -> None:
    messages = [
        Msg("human", [{"type": "text", "text": "I only accept SMS notifications."}], id="m1"),
        Msg("ai", [{"type": "tool_use", "id": "c1", "name": "f", "input": {}}], id="m2"),
        Msg("ai", "Noted, SMS only.", id="m3"),
    ]
    changes = mem.observe_messages("u1", messages, session_id="s1")
    assert any(c.action.value == "added" and c.key == "contact.channel" for c in changes)
    turns = mem.session_turns("u1", "s1")
    assert [(t.role, t.turn_id) for t in turns] == [("user", "m1"), ("assistant", "m3")]
    again = mem.observe_messages("u1", messages, session_id="s1")  # message ids: a retry
    assert {c.action.value for c in again} == {"ignored"}
    assert len(mem.session_turns("u1", "s1")) == 2


def test_bad_messages_raise_before_anything_is_written(mem: UserMemory) -> None:
    for bad in (
        "I prefer tea",  # a string is not a list of messages
        {"role": "user", "content": "x"},
        [{"role": "user", "content": "I prefer tea."}, {"role": "wizard", "content": "x"}],
        [{"role": "user", "content": "I prefer tea."}, {"role": "user", "content": b"x"}],
        [{"role": "user", "content": "I prefer tea."}, object()],
        [{"role": "user", "content": "I prefer tea."}, {"role": "user", "content": "x\x00"}],
    ):
        with pytest.raises(InvalidInputError):
            mem.observe_messages("u1", bad, session_id="s1")  # type: ignore[arg-type]
    assert mem.session_turns("u1", "s1") == []
    assert mem.profile("u1") == {}


def test_async_twin(mem: UserMemory) -> None:
    amem = AsyncUserMemory.wrap(mem)

    async def run() -> None:
        await amem.observe_messages("u1", CONVERSATION, session_id="s9")

    asyncio.run(run())
    assert len(mem.session_turns("u1", "s9")) == 4
