"""RedisProfileCache, RedisEventBus and EventSubscriber on a real Redis and Redis Cluster."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from shared_core.clock import FakeClock
from shared_core.errors import InvalidIdError, InvalidInputError
from shared_core.storage.protocols import EventBus, ProfileCache
from shared_core.storage.redis_events import (
    EventSubscriber,
    LocalProfileCache,
    RedisEventBus,
    RedisProfileCache,
)

pytestmark = pytest.mark.integration


def event(user: str, key: str = "diet", n: int = 1) -> dict[str, Any]:
    return {
        "type": "memory.update",
        "user_id": user,
        "system_context": "default",
        "action": "added",
        "key": key,
        "record_id": f"r{n}",
        "version": n,
    }


@pytest.fixture
def cache(client: Any, prefix: str) -> RedisProfileCache:
    return RedisProfileCache(client, prefix=prefix, ttl_seconds=60)


@pytest.fixture
def bus(client: Any, prefix: str) -> RedisEventBus:
    return RedisEventBus(client, prefix=prefix, clock=FakeClock())


# ----------------------------------------------------------------------------- cache
def test_cache_protocols(cache: RedisProfileCache, bus: RedisEventBus) -> None:
    assert isinstance(cache, ProfileCache)
    assert isinstance(LocalProfileCache(), ProfileCache)
    assert isinstance(bus, EventBus)


def test_cache_get_set_invalidate_and_ttl(cache: RedisProfileCache, client: Any) -> None:
    assert cache.get("alice", "default") is None
    cache.set("alice", "default", {"diet": "vegetarian", "城市": "上海"})
    cache.set("alice", "default", {"diet": "vegetarian", "device": "x"}, scope_key="device:phone")
    cache.set("alice", "work", {"title": "engineer"})
    cache.set("bob", "default", {"diet": "vegan"})
    assert cache.get("alice", "default") == {"diet": "vegetarian", "城市": "上海"}
    assert cache.get("alice", "default", "device:phone") == {"diet": "vegetarian", "device": "x"}
    assert cache.get("alice", "work") == {"title": "engineer"}
    ttl = client.pttl(cache.keys.profile("alice"))
    assert 59_000 < ttl <= 60_000
    cache.invalidate("alice")
    assert cache.get("alice", "default") is None
    assert cache.get("alice", "work") is None
    assert cache.get("bob", "default") == {"diet": "vegan"}  # other users untouched


def test_cache_entries_expire(client: Any, prefix: str) -> None:
    cache = RedisProfileCache(client, prefix=prefix, ttl_seconds=0.2)
    cache.set("alice", "default", {"diet": "vegan"})
    assert cache.get("alice", "default") == {"diet": "vegan"}
    time.sleep(0.4)
    assert cache.get("alice", "default") is None


def test_fill_that_raced_a_write_is_dropped(cache: RedisProfileCache) -> None:
    """reader misses -> writer writes + invalidates -> reader fills stale data: rejected."""
    assert cache.get("alice", "default") is None  # reader's miss
    cache.invalidate("alice")  # a concurrent remember() committed and invalidated
    cache.set("alice", "default", {"diet": "OLD"})  # the reader's stale fill
    assert cache.get("alice", "default") is None
    cache.set("alice", "default", {"diet": "NEW"})  # a fill after a fresh miss is kept
    assert cache.get("alice", "default") == {"diet": "NEW"}


def test_fill_guard_is_per_thread(cache: RedisProfileCache) -> None:
    results: dict[str, Any] = {}
    assert cache.get("alice", "default") is None  # this thread's miss (old generation)

    def other() -> None:
        cache.invalidate("alice")
        results["miss"] = cache.get("alice", "default")
        cache.set("alice", "default", {"diet": "fresh"})  # its own miss was after the write

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert results["miss"] is None
    cache.set("alice", "default", {"diet": "stale"})  # this thread's fill raced: dropped
    assert cache.get("alice", "default") == {"diet": "fresh"}


def test_cache_delete_user(cache: RedisProfileCache, scan: Any, prefix: str) -> None:
    cache.set("alice", "default", {"a": "1"})
    cache.invalidate("bob")
    cache.invalidate("alice")
    cache.set("alice", "default", {"a": "2"})
    assert cache.delete_user("alice") == 2  # profile + generation counter
    assert [k for k in scan(prefix + "*") if cache.keys.tag("alice") in k] == []
    assert scan(prefix + "*") == [cache.keys.profile_gen("bob")]
    assert cache.delete_user("alice") == 0


def test_cache_bad_input(cache: RedisProfileCache, scan: Any, prefix: str) -> None:
    with pytest.raises(InvalidIdError):
        cache.get("", "default")
    with pytest.raises(InvalidInputError):
        cache.set("alice", None, {"a": "b"})  # type: ignore[arg-type]
    assert scan(prefix + "*") == []


# ----------------------------------------------------------------------------- events
def test_publish_carries_key_names_never_values(bus: RedisEventBus, client: Any) -> None:
    bus.publish(event("alice"))
    bus.publish({"user_id": "bob", "key": "city", "version": None, "extra": {"a": 1}})
    entries = client.xrange(bus.stream)
    assert len(entries) == 2
    first = entries[0][1]
    assert first["user_id"] == "alice" and first["key"] == "diet" and first["version"] == "1"
    assert first["at"] == "2026-01-01T00:00:00+00:00"  # stamped by the injected clock
    assert "version" not in entries[1][1] and entries[1][1]["extra"] == '{"a": 1}'
    with pytest.raises(InvalidInputError):
        bus.publish({**event("alice"), "value": "vegetarian"})
    with pytest.raises(InvalidIdError):
        bus.publish({"key": "diet"})
    assert client.xlen(bus.stream) == 2


def test_stream_is_trimmed_to_maxlen(client: Any, prefix: str) -> None:
    bus = RedisEventBus(client, prefix=prefix, maxlen=50)
    for i in range(600):
        bus.publish(event("alice", n=i))
    length = client.xlen(bus.stream)
    assert 50 <= length < 600  # MAXLEN ~ trims whole macro nodes (100 entries each)
    newest = client.xrevrange(bus.stream, count=1)[0][1]
    assert newest["version"] == "599"


def test_consumer_group_delivers_each_event_once_across_two_subscribers(
    bus: RedisEventBus, client: Any, prefix: str
) -> None:
    seen: dict[str, list[str]] = {"a": [], "b": []}
    lock = threading.Lock()

    def handler(name: str) -> Any:
        def record(ev: dict[str, str]) -> None:
            with lock:
                seen[name].append(ev["record_id"])

        return record

    subs = [
        EventSubscriber(
            client, prefix=prefix, group="agents", consumer=name, handler=handler(name), batch=5
        )
        for name in ("a", "b")
    ]
    threads = [sub.start(timeout=10) for sub in subs]
    total = 60
    for i in range(total):
        bus.publish(event(f"user{i % 7}", n=i))
    deadline = time.monotonic() + 10
    while len(seen["a"]) + len(seen["b"]) < total and time.monotonic() < deadline:
        time.sleep(0.02)
    for sub in subs:
        sub.stop()
    for t in threads:
        t.join(5)
    delivered = seen["a"] + seen["b"]
    assert sorted(delivered) == sorted(f"r{i}" for i in range(total))  # once each
    assert seen["a"] and seen["b"]  # both consumers took a share
    pending = client.xpending(bus.stream, "agents")
    assert pending["pending"] == 0  # everything acked
    # a second group gets its own copy of every event
    other = EventSubscriber(client, prefix=prefix, group="audit", consumer="x", start_id="0")
    assert other.run(max_events=total, timeout=5) == total


def test_subscriber_applies_events_to_a_local_cache(
    bus: RedisEventBus, client: Any, prefix: str
) -> None:
    local = LocalProfileCache()
    local.set("alice", "default", {"diet": "vegan"})
    local.set("alice", "work", {"title": "cto"})
    local.set("bob", "default", {"diet": "omnivore"})
    sub = EventSubscriber(client, prefix=prefix, group="g", consumer="c", cache=local)
    bus.publish(event("alice"))
    assert sub.run(max_events=1, timeout=5) == 1
    assert local.get("alice", "default") is None and local.get("alice", "work") is None
    assert local.get("bob", "default") == {"diet": "omnivore"}
    assert sub.processed == 1
    assert sub.run(timeout=0.3) == 0  # timeout with nothing new


def test_unacked_events_are_redelivered_to_the_same_consumer(
    bus: RedisEventBus, client: Any, prefix: str
) -> None:
    first = EventSubscriber(client, prefix=prefix, group="g", consumer="c1")
    bus.publish(event("alice", n=1))
    bus.publish(event("bob", n=2))
    # simulate a crash: read without applying/acking
    client.xreadgroup("g", "c1", {bus.stream: ">"}, count=10)
    assert client.xpending(bus.stream, "g")["pending"] == 2
    got: list[str] = []
    restarted = EventSubscriber(
        client,
        prefix=prefix,
        group="g",
        consumer="c1",
        handler=lambda ev: got.append(ev["record_id"]),
    )
    assert restarted.run(max_events=2, timeout=5) == 2
    assert got == ["r1", "r2"]
    assert client.xpending(bus.stream, "g")["pending"] == 0
    assert first.run(timeout=0.2) == 0


def test_stale_events_of_a_crashed_consumer_are_claimed(
    bus: RedisEventBus, client: Any, prefix: str
) -> None:
    got: list[str] = []
    survivor = EventSubscriber(
        client,
        prefix=prefix,
        group="g",
        consumer="survivor",
        handler=lambda ev: got.append(ev["record_id"]),
    )
    bus.publish(event("alice", n=1))
    bus.publish(event("bob", n=2))
    client.xreadgroup("g", "crashed", {bus.stream: ">"}, count=10)  # read, never acked
    assert survivor.run(timeout=0.2) == 0  # nothing new for the survivor
    time.sleep(0.05)
    assert survivor.claim_stale(min_idle_ms=60_000) == 0  # not idle long enough
    assert survivor.claim_stale(min_idle_ms=10) == 2
    assert survivor.run(max_events=2, timeout=5) == 2
    assert got == ["r1", "r2"]
    assert client.xpending(bus.stream, "g")["pending"] == 0


def test_event_bus_delete_user_xdels_only_that_user(
    bus: RedisEventBus, client: Any, prefix: str
) -> None:
    hostile = "evil}{*  😀"
    sub = EventSubscriber(client, prefix=prefix, group="g", consumer="c")
    for i in range(2500):  # more than one XRANGE page
        bus.publish(event(hostile if i % 3 == 0 else "bob", n=i))
    client.xreadgroup("g", "c", {bus.stream: ">"}, count=5)  # some pending for the group
    assert bus.delete_user(hostile) == 834
    entries = client.xrange(bus.stream)
    assert len(entries) == 2500 - 834
    assert all(f["user_id"] == "bob" for _, f in entries)
    assert bus.delete_user(hostile) == 0
    # pending entries that were erased come back empty and are just acked
    assert sub.poll(count=5) == 3
    assert client.xpending(bus.stream, "g")["pending"] == 0
