"""The memory tools' logic in the core (the adapters only wrap it): sync and async alike."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from shared_core import (
    AsyncUserMemory,
    InvalidIdError,
    InvalidInputError,
    ManageMemoryArgs,
    MemoryTools,
    SearchMemoryArgs,
    UserMemory,
    check_count,
)
from shared_core.embed import HashingEmbedder
from shared_core.entities import Source


@pytest.fixture
def mem() -> Iterator[UserMemory]:
    m = UserMemory.from_url("sqlite:///:memory:", embedder=HashingEmbedder())
    yield m
    m.close()


def test_manage_and_search_write_agent_notes_for_the_bound_user(mem: UserMemory) -> None:
    tools = MemoryTools(mem, max_results=2)
    _, saved = tools.manage("ada", "create", "food.tea", "green tea")
    assert saved["stored"] is True and saved["record"]["value"] == "green tea"
    assert mem.history("ada", "food.tea")[-1].source is Source.AGENT
    for i in range(4):
        mem.remember("ada", f"food.dish{i}", f"tea dish {i}")
    _, hits = tools.search("ada", "tea", limit=50)
    assert len(hits) == 2  # clamped to max_results
    assert tools.search("bob", "tea")[1] == []
    _, gone = tools.manage("ada", "delete", "food.tea")
    assert gone["deleted"] == 1 and "food.tea" not in mem.profile("ada")


def test_a_note_loses_to_what_the_user_said(mem: UserMemory) -> None:
    mem.observe("ada", "I only accept SMS notifications.")
    _, out = MemoryTools(mem).manage("ada", "update", "contact.channel", "email")
    assert out["stored"] is False
    assert out["record"]["value"] == "SMS"
    assert mem.profile("ada")["contact.channel"] == "SMS"


def test_bad_arguments_raise_typed_errors_and_write_nothing(mem: UserMemory) -> None:
    tools = MemoryTools(mem)
    with pytest.raises(InvalidInputError):
        tools.manage("ada", "create", "food.tea")  # no value
    with pytest.raises(InvalidInputError):
        tools.manage("ada", "rename", "food.tea", "x")
    with pytest.raises(InvalidInputError):
        tools.search("ada", "tea", limit="3")  # type: ignore[arg-type]
    with pytest.raises(InvalidIdError):
        tools.manage("", "create", "food.tea", "green tea")
    assert mem.users() == []
    for bad in (0, -1, True, 2.5):
        with pytest.raises(InvalidInputError):
            MemoryTools(mem, max_results=bad)
    with pytest.raises(InvalidInputError):
        MemoryTools(None)


async def test_async_methods_match_the_sync_ones_on_both_cores(mem: UserMemory) -> None:
    for core in (mem, AsyncUserMemory.wrap(mem)):
        tools: Any = MemoryTools(core)
        _, saved = await tools.amanage(
            "ada", "update", "food.tea", f"tea via {type(core).__name__}"
        )
        assert saved["stored"] is True
        _, hits = await tools.asearch("ada", "tea")
        assert hits[0]["value"] == saved["record"]["value"]
        assert [h["id"] for h in tools.search("ada", "tea")[1]] == [h["id"] for h in hits]


def test_argument_schemas_hold_only_what_the_model_fills() -> None:
    for schema in (ManageMemoryArgs, SearchMemoryArgs):
        assert "user_id" not in schema.model_json_schema()["properties"]
    assert ManageMemoryArgs(action="delete", key="food.tea").value is None
    assert SearchMemoryArgs(query="tea").limit == 5
    with pytest.raises(ValidationError):
        ManageMemoryArgs(action="rename", key="food.tea")


def test_check_count_takes_integers_only() -> None:
    assert check_count(3, "k") == 3
    assert check_count(-2, "offset", minimum=None) == -2
    for bad in (0, True, 1.0, "2", None):
        with pytest.raises(InvalidInputError):
            check_count(bad, "k")
