"""UserMemoryStore writes are the agent's notes (own source, confidence), and expire by TTL."""

from __future__ import annotations

from datetime import timedelta

import pytest

from langchain_usermemory import UserMemoryStore, user_namespace
from shared_core import AsyncUserMemory, InvalidInputError, UserMemory
from shared_core.clock import FakeClock
from shared_core.entities import Source

USER = "grace@example.org"
NS = user_namespace(USER, "memories")
CORE_KEY = "lg.users.memories:commute"


def test_store_writes_are_agent_notes_not_business_rules(core: UserMemory) -> None:
    store = UserMemoryStore(core)
    store.put(NS, "commute", {"content": "Grace cycles to work every day"})
    record = core.history(USER, CORE_KEY)[-1]
    assert record.source is Source.AGENT
    assert record.confidence == pytest.approx(core.config.confidence_for("agent"))
    block = core.context(USER, "how does Grace get to work?")
    assert "Grace cycles to work every day" in block
    assert '{\\"content\\"' not in block and CORE_KEY not in block  # no escaped JSON, no key
    assert "business rule" not in block
    assert store.get(NS, "commute").value == {"content": "Grace cycles to work every day"}


def test_source_and_confidence_are_configurable(core: UserMemory) -> None:
    UserMemoryStore(core, confidence=0.5).put(NS, "commute", {"content": "by train"})
    assert core.history(USER, CORE_KEY)[-1].confidence == pytest.approx(0.5)
    UserMemoryStore(core, source="admin_set").put(NS, "commute", {"content": "by bus"})
    assert core.history(USER, CORE_KEY)[-1].source is Source.ADMIN_SET
    for bad in (1.5, -0.1, True, "high"):
        with pytest.raises(InvalidInputError):
            UserMemoryStore(core, confidence=bad)  # type: ignore[arg-type]


def test_an_agent_note_never_overrides_what_the_user_said(core: UserMemory) -> None:
    core.observe(USER, "I only accept SMS notifications.")
    core.remember(USER, "contact.channel", "email", kind="preference", source="agent")
    assert core.profile(USER)["contact.channel"] == "SMS"


def test_ttl_expires_items_and_reads_refresh_it(core: UserMemory, clock: FakeClock) -> None:
    store = UserMemoryStore(core)
    assert store.supports_ttl
    store.put(NS, "commute", {"content": "Grace cycles to work every day"}, ttl=10)
    store.put(NS, "lunch", {"content": "Grace eats vegetarian lunches"})  # no TTL
    clock.advance(timedelta(minutes=8))
    assert store.get(NS, "commute") is not None  # a read refreshes the TTL by default
    clock.advance(timedelta(minutes=8))
    assert store.get(NS, "commute", refresh_ttl=False) is not None  # 8 min after the read
    clock.advance(timedelta(minutes=3))
    assert store.get(NS, "commute") is None  # 11 min after the last refresh
    assert [i.key for i in store.search(NS)] == ["lunch"]
    assert all(h.record.key != CORE_KEY for h in core.recall(USER, "cycles to work", k=10))
    assert "cycles" not in core.context(USER, "how does Grace get to work?")
    assert core.history(USER, CORE_KEY)  # the versions stay in the history


def test_ttl_config_default_and_refresh_on_read(core: UserMemory, clock: FakeClock) -> None:
    store = UserMemoryStore(core, ttl_config={"default_ttl": 5, "refresh_on_read": False})
    store.put(NS, "commute", {"content": "by bike"})
    clock.advance(timedelta(minutes=4))
    assert [i.key for i in store.search(NS, query="bike")] == ["commute"]  # no refresh
    clock.advance(timedelta(minutes=2))
    assert store.get(NS, "commute") is None
    store.put(NS, "commute", {"content": "by bike"}, ttl=None)  # an explicit None: no expiry
    clock.advance(timedelta(days=30))
    assert store.get(NS, "commute") is not None


def test_putting_again_without_ttl_clears_the_expiry(core: UserMemory, clock: FakeClock) -> None:
    store = UserMemoryStore(core)
    store.put(NS, "commute", {"content": "by bike"}, ttl=1)
    store.put(NS, "commute", {"content": "by bike"})
    clock.advance(timedelta(hours=1))
    assert store.get(NS, "commute") is not None


def test_bad_ttl_is_a_typed_error_and_writes_nothing(core: UserMemory) -> None:
    store = UserMemoryStore(core)
    for bad in (0, -5, "10"):
        with pytest.raises(InvalidInputError):
            store.put(NS, "commute", {"content": "by bike"}, ttl=bad)  # type: ignore[arg-type]
    assert core.history(USER, CORE_KEY) == []


async def test_async_ttl(core: UserMemory, clock: FakeClock) -> None:
    store = UserMemoryStore(AsyncUserMemory.wrap(core))
    await store.aput(NS, "commute", {"content": "by bike"}, ttl=2)
    assert (await store.aget(NS, "commute")) is not None
    clock.advance(timedelta(minutes=3))
    assert (await store.aget(NS, "commute")) is None
