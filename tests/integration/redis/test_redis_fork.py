"""Redis after ``os.fork()``: redis-py notices the new pid and gives the child connections
of its own, so UserMemory's Redis stores need no fork hook. The parent's socket is not
used, shut down or closed by the child: its server-side client id outlives the child.

An :class:`EventSubscriber` (which keeps a :class:`LocalProfileCache` fresh) does need
one: its thread is the parent's, and the child's cache needs every event, not a share of
the parent's consumer group."""

from __future__ import annotations

import gc
import os
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

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
from tests.forking import PASSED, in_child

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)"),
]


@pytest.fixture
def std_client(redis_url: str) -> Iterator[tuple[Any, str]]:
    """A standalone client and a random key prefix (its keys deleted afterwards)."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    prefix = f"umtest:{uuid.uuid4().hex[:10]}:"
    yield client, prefix
    for key in client.scan_iter(match=prefix + "*"):
        client.delete(key)
    client.close()


def test_child_gets_its_own_redis_connections_and_the_parents_survive(
    std_client: tuple[Any, str], tmp_path: Path
) -> None:
    client, prefix = std_client
    mem = UserMemory(
        StorageSpec(
            records=f"sqlite:///{tmp_path / 'memory.db'}",
            sessions=RedisSessionStore(client, prefix=prefix, ttl_seconds=60),
            cache=RedisProfileCache(client, prefix=prefix, ttl_seconds=60),
            events=RedisEventBus(client, prefix=prefix),
        ),
        embedder=HashingEmbedder(),
    )
    try:
        mem.observe("u", "I live in Berlin.", session_id="s1")
        assert mem.profile("u") == {"location.city": "Berlin"}  # cached in Redis
        parent_id = client.client_id()

        def child() -> None:
            assert client.client_id() != parent_id  # a connection of the child's own
            assert len(mem.session_turns("u", "s1")) == 1
            mem.observe("u", "My budget is 5000.", session_id="s1")
            assert mem.profile("u") == {"location.city": "Berlin", "budget.max": "5000"}
            assert len(mem.session_turns("u", "s1")) == 2
            mem.close()
            client.close()  # disconnects the child's connections only
            gc.collect()

        assert in_child(child, timeout=30) == PASSED
        assert client.client_id() == parent_id  # the same socket: untouched by the child
        assert len(mem.session_turns("u", "s1")) == 2
        assert mem.profile("u") == {"location.city": "Berlin", "budget.max": "5000"}
        mem.observe("u", "I work at Acme.", session_id="s1")
        assert mem.profile("u")["job.employer"] == "Acme"
    finally:
        mem.close()


def wait_for(check: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def groups(client: Any, stream: str) -> set[str]:
    return {g["name"] for g in client.xinfo_groups(stream)}


def test_a_running_subscriber_restarts_in_the_child_and_keeps_its_cache_fresh(
    std_client: tuple[Any, str], redis_url: str
) -> None:
    """The child's local cache gets every invalidation from its own subscriber thread
    (in a group of its own), and the parent's subscriber loses none to the child."""
    client, prefix = std_client
    bus = RedisEventBus(client, prefix=prefix)
    local = LocalProfileCache()
    sub = EventSubscriber(client, prefix=prefix, group="agents", consumer="c1", cache=local)
    thread = sub.start()
    taken, release = threading.Event(), threading.Event()

    def holder() -> None:  # a parent thread is inside the cache at the fork
        with local._lock:
            taken.set()
            release.wait(30)

    held = threading.Thread(target=holder, daemon=True)
    held.start()
    try:
        assert taken.wait(5)
        local._data[("alice", "default", "")] = {"diet": "vegan"}  # the parent's entry

        def child() -> None:
            own = f"agents.{os.getpid()}"
            assert sub.group == own and sub._thread is not None and sub._thread.is_alive()
            assert local.get("alice", "default") is None  # the parent's copy is dropped
            other = redis.Redis.from_url(redis_url, decode_responses=True)
            assert wait_for(lambda: own in groups(other, bus.stream))  # subscribed
            # and the join is finished: the cache emptied of what predates it
            assert wait_for(lambda: not sub._join_own_group)
            local.set("alice", "default", {"diet": "vegan"})
            local.set("bob", "default", {"diet": "omnivore"})
            # another connection (as another agent would) publishes a change of alice
            RedisEventBus(other, prefix=prefix).publish(
                {"user_id": "alice", "key": "diet", "op": "updated", "record_id": "r1"}
            )
            assert wait_for(lambda: local.get("alice", "default") is None)
            assert local.get("bob", "default") == {"diet": "omnivore"}
            sub.close()  # deletes the child's group
            assert own not in groups(other, bus.stream)
            other.close()

        try:
            assert in_child(child, timeout=30) == PASSED
        finally:
            release.set()
            held.join(5)
        assert thread.is_alive()  # the parent's subscriber still runs
        # the parent's group got the child's event too (the child read in its own group)
        assert wait_for(lambda: local.get("alice", "default") is None)
        assert groups(client, bus.stream) == {"agents"}
        local.set("bob", "default", {"diet": "omnivore"})
        bus.publish({"user_id": "bob", "key": "diet", "op": "updated", "record_id": "r2"})
        assert wait_for(lambda: local.get("bob", "default") is None)
        assert client.xpending(bus.stream, "agents")["pending"] == 0
    finally:
        sub.close()


def test_a_subscriber_not_running_at_the_fork_joins_a_group_of_its_own_on_first_poll(
    std_client: tuple[Any, str], redis_url: str
) -> None:
    client, prefix = std_client
    bus = RedisEventBus(client, prefix=prefix)
    local = LocalProfileCache()
    sub = EventSubscriber(client, prefix=prefix, group="agents", consumer="c1", cache=local)
    bus.publish({"user_id": "zoe", "key": "diet", "op": "updated", "record_id": "r0"})

    def child() -> None:
        assert sub._thread is None  # nothing to restart
        assert sub.poll(block_ms=10) == 0  # joins at the stream's end: r0 is the parent's
        assert f"agents.{os.getpid()}" in groups(client, bus.stream)
        local.set("alice", "default", {"diet": "vegan"})
        other = redis.Redis.from_url(redis_url, decode_responses=True)
        RedisEventBus(other, prefix=prefix).publish(
            {"user_id": "alice", "key": "diet", "op": "updated", "record_id": "r1"}
        )
        assert sub.run(max_events=1, timeout=5) == 1
        assert local.get("alice", "default") is None
        sub.close()
        other.close()

    try:
        assert in_child(child, timeout=30) == PASSED
        assert sub.run(max_events=2, timeout=5) == 2  # r0 and the child's r1: none was taken
        assert groups(client, bus.stream) == {"agents"}
    finally:
        sub.close()
