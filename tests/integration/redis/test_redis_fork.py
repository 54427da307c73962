"""Redis after ``os.fork()``: redis-py notices the new pid and gives the child connections
of its own, so UserMemory's Redis stores need no fork hook. The parent's socket is not
used, shut down or closed by the child: its server-side client id outlives the child."""

from __future__ import annotations

import gc
import os
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
from shared_core.storage.redis_events import RedisEventBus, RedisProfileCache
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
