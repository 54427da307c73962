"""The redis.asyncio twins, on a real Redis and a real Redis Cluster."""

from __future__ import annotations

import asyncio
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from shared_core.entities import SessionTurn
from shared_core.errors import BackendUnavailableError, ConflictError, InvalidIdError
from shared_core.storage.redis import RedisSessionStore
from shared_core.storage.redis_async import (
    AsyncEventSubscriber,
    AsyncRedisEventBus,
    AsyncRedisProfileCache,
    AsyncRedisSessionStore,
    open_async_redis_cache,
    open_async_redis_events,
    open_async_redis_sessions,
)
from shared_core.storage.redis_events import LocalProfileCache, RedisProfileCache

pytestmark = pytest.mark.integration

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def turn(i: int) -> SessionTurn:
    return SessionTurn(
        role="user", text=f"turn {i} 🙂", turn_id=f"t{i}", at=T0 + timedelta(seconds=i)
    )


async def test_async_session_roundtrip(aclient: Any, client: Any, prefix: str, scan: Any) -> None:
    store = AsyncRedisSessionStore(aclient, prefix=prefix, ttl_seconds=60)
    for i in range(4):
        await store.append("al{ice}", "s1", turn(i), device_id="phone")
    await store.mark_written("al{ice}", "s1", "t2", ["r1", "r2"])
    got = await store.turns("al{ice}", "s1")
    assert [t.turn_id for t in got] == ["t0", "t1", "t2", "t3"]
    assert got[2].written == ("r1", "r2")
    assert [t.turn_id for t in await store.turns("al{ice}", "s1", limit=1)] == ["t3"]
    key = client.hget(store.keys.session_index("al{ice}"), "s1")
    assert 59_000 < client.pttl(key) <= 60_000
    # the sync store reads what the async store wrote (shared keys and formats)
    sync = RedisSessionStore(client, prefix=prefix)
    assert [t.turn_id for t in sync.turns("al{ice}", "s1")] == ["t0", "t1", "t2", "t3"]
    await store.set_state("al{ice}", "s1", {"k": 1})
    assert sync.get_state("al{ice}", "s1") == {"k": 1}
    assert await store.sessions("al{ice}") == ["s1"]
    assert [t.turn_id for t in await store.end("al{ice}", "s1")] == ["t0", "t1", "t2", "t3"]
    assert await store.sessions("al{ice}") == []
    await store.append("al{ice}", "s2", turn(9))
    assert await store.delete_user("al{ice}") == 1
    assert scan(prefix + "*") == []
    with pytest.raises(InvalidIdError):
        await store.append("", "s1", turn(1))


async def test_async_cas_and_concurrent_updates(aclient: Any, prefix: str) -> None:
    store = AsyncRedisSessionStore(aclient, prefix=prefix, ttl_seconds=60)
    await store.set_state("alice", "s1", {"n": 0})
    _, version = await store.get_state_versioned("alice", "s1")
    assert await store.cas_state("alice", "s1", {"n": 1}, version) == version + 1
    with pytest.raises(ConflictError):
        await store.cas_state("alice", "s1", {"n": 99}, version)

    async def bump(times: int) -> None:
        for _ in range(times):
            await store.update_state("alice", "s1", lambda st: {"n": st["n"] + 1}, retries=500)

    await asyncio.gather(*(bump(10) for _ in range(5)))
    assert await store.get_state("alice", "s1") == {"n": 51}


async def test_async_cache_guard_is_per_task(aclient: Any, client: Any, prefix: str) -> None:
    cache = AsyncRedisProfileCache(aclient, prefix=prefix, ttl_seconds=60)
    assert await cache.get("alice", "default") is None
    await cache.invalidate("alice")
    await cache.set("alice", "default", {"diet": "stale"})  # raced a write: dropped
    assert await cache.get("alice", "default") is None

    async def fresh_reader() -> None:
        assert await cache.get("alice", "default") is None
        await cache.set("alice", "default", {"diet": "fresh"})

    await asyncio.create_task(fresh_reader())
    assert await cache.get("alice", "default") == {"diet": "fresh"}
    # interop with the sync cache
    assert RedisProfileCache(client, prefix=prefix).get("alice", "default") == {"diet": "fresh"}
    assert await cache.delete_user("alice") == 2
    assert await cache.get("alice", "default") is None


async def test_async_stream_group_two_consumers_and_erase(
    aclient: Any, client: Any, prefix: str
) -> None:
    bus = AsyncRedisEventBus(aclient, prefix=prefix)
    seen: list[tuple[str, str]] = []
    local = LocalProfileCache()
    local.set("u1", "default", {"a": "b"})

    async def async_handler(ev: dict[str, str]) -> None:
        seen.append(("b", ev["record_id"]))

    subs = [
        AsyncEventSubscriber(
            aclient,
            prefix=prefix,
            group="g",
            consumer="a",
            cache=local,
            handler=lambda ev: seen.append(("a", ev["record_id"])),
            batch=3,
        ),
        AsyncEventSubscriber(
            aclient, prefix=prefix, group="g", consumer="b", handler=async_handler, batch=3
        ),
    ]
    for sub in subs:
        await sub.ensure_group()
    tasks = [sub.start(timeout=10) for sub in subs]
    for i in range(30):
        await bus.publish({"user_id": f"u{i % 3}", "key": "diet", "record_id": f"r{i}"})
    for _ in range(200):
        if len(seen) >= 30:
            break
        await asyncio.sleep(0.02)
    for sub in subs:
        sub.stop()
    await asyncio.gather(*tasks)
    assert sorted(r for _, r in seen) == sorted(f"r{i}" for i in range(30))
    assert {c for c, _ in seen} == {"a", "b"}
    assert client.xpending(bus.stream, "g")["pending"] == 0
    if any(c == "a" for c, r in seen if int(r[1:]) % 3 == 1):
        assert local.get("u1", "default") is None
    # a consumer that crashed after reading: its events are claimed and applied
    await bus.publish({"user_id": "u9", "key": "diet", "record_id": "late"})
    await aclient.xreadgroup("g", "crashed", {bus.stream: ">"}, count=10)
    await asyncio.sleep(0.05)
    assert await subs[0].claim_stale(min_idle_ms=10) == 1
    assert await subs[0].run(max_events=1, timeout=5) == 1
    assert ("a", "late") in seen
    assert await bus.delete_user("u0") == 10
    assert all(f["user_id"] != "u0" for _, f in client.xrange(bus.stream))


async def test_async_redis_down(redis_url: str) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"redis://127.0.0.1:{port}/0"
    stores: list[Any] = [
        open_async_redis_sessions(url),
        open_async_redis_cache(url),
        open_async_redis_events(url),
    ]
    with pytest.raises(BackendUnavailableError):
        await stores[0].append("alice", "s1", turn(1))
    with pytest.raises(BackendUnavailableError):
        await stores[1].get("alice", "default")
    with pytest.raises(BackendUnavailableError):
        await stores[2].publish({"user_id": "alice", "key": "diet"})
    stores.append(AsyncEventSubscriber(url, group="g", consumer="c"))
    with pytest.raises(BackendUnavailableError):
        await stores[3].poll()
    for store in stores:
        await store.aclose()


async def test_async_factories_use_url_options(std_url: tuple[str, str, Any]) -> None:
    base, prefix, client = std_url
    url = f"{base}&ttl=33&maxlen=77"
    sessions = open_async_redis_sessions(url)
    assert sessions.ttl_seconds == 33.0 and sessions.keys.prefix == prefix
    await sessions.append("alice", "s1", turn(1))
    key = client.hget(sessions.keys.session_index("alice"), "s1")
    assert 32_000 < client.pttl(key) <= 33_000
    events = open_async_redis_events(url)
    assert events.maxlen == 77 and events.stream == prefix + "memory.update"
    await sessions.aclose()
    await events.aclose()
