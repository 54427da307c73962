"""UserMemory on Redis sessions + profile cache + event stream (records in SQLite)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.storage import StorageSpec
from shared_core.storage.redis import RedisSessionStore
from shared_core.storage.redis_events import (
    EventSubscriber,
    LocalProfileCache,
    RedisEventBus,
    RedisProfileCache,
)

pytestmark = pytest.mark.integration


def open_memory(client: Any, prefix: str, db: Path) -> UserMemory:
    return UserMemory(
        StorageSpec(
            records=f"sqlite:///{db}",
            sessions=RedisSessionStore(client, prefix=prefix, ttl_seconds=60),
            cache=RedisProfileCache(client, prefix=prefix, ttl_seconds=60),
            events=RedisEventBus(client, prefix=prefix),
        ),
        embedder=HashingEmbedder(),
    )


@pytest.fixture
def memory(client: Any, prefix: str, tmp_path: Path) -> Iterator[UserMemory]:
    mem = open_memory(client, prefix, tmp_path / "memory.db")
    yield mem
    mem.close()


def test_profile_is_served_from_redis_and_never_stale(memory: UserMemory, client: Any) -> None:
    assert isinstance(memory.cache.inner, RedisProfileCache)  # type: ignore[union-attr]
    memory.remember("alice", "diet", "vegetarian")
    assert memory.profile("alice") == {"diet": "vegetarian"}
    key = memory.cache.keys.profile("alice")  # type: ignore[union-attr]
    fields = client.hgetall(key)
    entries = [json.loads(v) for v in fields.values()]
    # each entry carries the user's fence ("epoch.gen") it was computed at, under "\n"
    assert [{k: v for k, v in e.items() if k != "\n"} for e in entries] == [{"diet": "vegetarian"}]

    def plant() -> None:  # the cached entry with another value, its fence tag kept
        field, raw = next(iter(client.hgetall(key).items()))
        client.hset(key, field, json.dumps({**json.loads(raw), "diet": "from-redis"}))

    # the cache is read before the durable store: a planted entry is what profile() returns
    plant()
    assert memory.profile("alice") == {"diet": "from-redis"}
    # ...and every write invalidates it: no stale read after remember / observe
    memory.remember("alice", "diet", "vegan")
    assert memory.profile("alice") == {"diet": "vegan"}
    plant()
    assert memory.profile("alice") == {"diet": "from-redis"}
    memory.observe("alice", "I am allergic to peanuts", session_id="s1")  # writes the turn
    assert memory.profile("alice").get("diet") == "vegan"
    assert [t.text for t in memory.session_turns("alice", "s1")] == ["I am allergic to peanuts"]
    # an entry from before a write is never served, even where no invalidation arrived
    stale = client.hgetall(key)
    memory.remember("alice", "diet", "pescatarian")
    client.hset(key, mapping=stale)  # as if the invalidation had been lost
    assert memory.profile("alice")["diet"] == "pescatarian"


def test_two_agents_share_the_cache_without_stale_reads(
    client: Any, prefix: str, tmp_path: Path
) -> None:
    db = tmp_path / "shared.db"
    agent_a, agent_b = open_memory(client, prefix, db), open_memory(client, prefix, db)
    try:
        agent_a.remember("bob", "city", "Paris")
        assert agent_b.profile("bob") == {"city": "Paris"}  # B fills the shared cache
        agent_a.remember("bob", "city", "Berlin")  # A's write drops B's cached entry
        assert agent_b.profile("bob") == {"city": "Berlin"}
    finally:
        agent_a.close()
        agent_b.close()


def test_changes_are_streamed_without_values(memory: UserMemory, client: Any, prefix: str) -> None:
    local = LocalProfileCache()
    local.set("carol", "default", {"diet": "stale"})
    got: list[dict[str, str]] = []
    sub = EventSubscriber(
        client, prefix=prefix, group="other-agent", consumer="c1", cache=local, handler=got.append
    )
    memory.remember("carol", "diet", "pescatarian")
    memory.remember("carol", "diet", "vegan")
    assert sub.run(max_events=3, timeout=5) == 3  # added, then new version + superseded
    assert {e["key"] for e in got} == {"diet"}
    assert {e["user_id"] for e in got} == {"carol"}
    assert local.get("carol", "default") is None  # applied to the local cache
    raw = json.dumps(client.xrange(memory.events.stream))  # type: ignore[union-attr]
    assert "pescatarian" not in raw and "vegan" not in raw


def test_forget_erases_the_user_from_every_redis_store(
    memory: UserMemory, client: Any, prefix: str, scan: Any
) -> None:
    user = "dave {x} 😀"
    memory.remember(user, "allergy", "penicillin")
    memory.observe(user, "I live in Lyon", session_id="s1", device_id="phone")
    memory.profile(user)
    memory.remember("erin", "allergy", "latex")
    report = memory.forget(user)
    assert report["sessions"] == 1 and report["cache"] >= 1 and report["events"] >= 2
    tag = memory.sessions.keys.tag(user)  # type: ignore[attr-defined]
    assert [k for k in scan("*") if tag in k] == []
    entries = client.xrange(memory.events.stream)  # type: ignore[union-attr]
    assert entries and all(f["user_id"] == "erin" for _, f in entries)
    assert memory.profile(user) == {}


def test_redis_cache_and_stream_down_degrade_but_work(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = f"redis://127.0.0.1:{sock.getsockname()[1]}/0"
    with UserMemory(
        StorageSpec(
            records=f"sqlite:///{tmp_path / 'm.db'}",
            cache=RedisProfileCache(dead),
            events=RedisEventBus(dead),
        ),
        embedder=HashingEmbedder(),
    ) as memory:
        memory.remember("frank", "diet", "vegan")
        assert memory.profile("frank") == {"diet": "vegan"}
        assert memory.recall("frank", "what does frank eat?")[0].record.value == "vegan"
