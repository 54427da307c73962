"""Redis down, driver errors, URL options, factories and the missing-extra error."""

from __future__ import annotations

import socket
import sys
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from shared_core.config import MemoryConfig
from shared_core.entities import SessionTurn
from shared_core.errors import (
    BackendError,
    BackendUnavailableError,
    ConfigError,
    MissingDependencyError,
)
from shared_core.storage.redis import RedisSessionStore, open_redis_sessions, parse_redis_url
from shared_core.storage.redis_events import (
    EventSubscriber,
    RedisEventBus,
    RedisProfileCache,
    open_redis_cache,
    open_redis_events,
)

pytestmark = pytest.mark.integration

TURN = SessionTurn(role="user", text="hi", turn_id="t1", at=datetime(2026, 1, 1, tzinfo=UTC))


@pytest.fixture
def dead_url() -> str:
    """A Redis URL on a loopback port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_redis_down_raises_backend_unavailable(dead_url: str) -> None:
    started = time.monotonic()
    sessions = RedisSessionStore(dead_url)
    with pytest.raises(BackendUnavailableError, match="redis is unavailable"):
        sessions.append("alice", "s1", TURN)
    with pytest.raises(BackendUnavailableError):
        sessions.turns("alice", "s1")
    with pytest.raises(BackendUnavailableError):
        sessions.delete_user("alice")
    cache = RedisProfileCache(dead_url)
    with pytest.raises(BackendUnavailableError):
        cache.get("alice", "default")
    with pytest.raises(BackendUnavailableError):
        cache.invalidate("alice")
    bus = RedisEventBus(dead_url)
    with pytest.raises(BackendUnavailableError):
        bus.publish({"user_id": "alice", "key": "diet"})
    with pytest.raises(BackendUnavailableError):
        EventSubscriber(dead_url, group="g", consumer="c")
    with pytest.raises(BackendUnavailableError):
        RedisSessionStore(dead_url.replace("redis://", "redis+cluster://"))
    for store in (sessions, cache, bus):
        store.close()
    assert time.monotonic() - started < 10


def test_server_side_errors_become_backend_error(client: Any, prefix: str) -> None:
    store = RedisSessionStore(client, prefix=prefix)
    client.set(store.keys.session_index("alice"), "not a hash")
    with pytest.raises(BackendError) as info:
        store.append("alice", "s1", TURN)
    assert not isinstance(info.value, BackendUnavailableError)
    assert "WRONGTYPE" in str(info.value)


def test_parse_redis_url_splits_our_options() -> None:
    opts = parse_redis_url(
        "rediss://:secret@cache.example:6380/2?prefix=app%3A&ttl=90&cache_ttl=30"
        "&maxlen=500&stream=events&socket_timeout=3"
    )
    assert opts.url == "rediss://:secret@cache.example:6380/2?socket_timeout=3"
    assert (opts.prefix, opts.ttl, opts.cache_ttl, opts.maxlen, opts.stream) == (
        "app:",
        90.0,
        30.0,
        500,
        "events",
    )
    assert not opts.cluster
    assert parse_redis_url("redis+cluster://h:7000").cluster
    assert parse_redis_url("redis://h:7000?cluster=true").url == "redis://h:7000"
    assert parse_redis_url("redis://h:7000?cluster=true").cluster
    for bad in ("postgresql://x", "redis://h?ttl=abc", "redis://h?maxlen=x"):
        with pytest.raises(ConfigError):
            parse_redis_url(bad)
    with pytest.raises(ConfigError):
        RedisSessionStore("redis://127.0.0.1:6379?ttl=0", ttl_seconds=0)
    with pytest.raises(ConfigError):
        RedisEventBus("redis://127.0.0.1:6379", maxlen=0)


def test_factories_read_url_options_and_config(std_url: tuple[str, str, Any]) -> None:
    url, prefix, _ = std_url
    sessions = open_redis_sessions(url, config=MemoryConfig(session_ttl_seconds=120))
    assert sessions.ttl_seconds == 120.0 and sessions.keys.prefix == prefix
    sessions.append("alice", "s1", TURN)
    key = sessions.client.hget(sessions.keys.session_index("alice"), "s1")
    assert key.startswith(prefix + "session:{")
    assert 119_000 < sessions.client.pttl(key) <= 120_000
    assert open_redis_sessions(url + "&ttl=7").ttl_seconds == 7.0
    cache = open_redis_cache(url + "&cache_ttl=5")
    cache.set("alice", "default", {"a": "b"})
    assert 4_000 < cache._client.pttl(cache.keys.profile("alice")) <= 5_000
    bus = open_redis_events(url + "&maxlen=123&stream=feed")
    assert bus.maxlen == 123 and bus.stream == prefix + "feed"
    bus.publish({"user_id": "alice", "key": "diet"})
    assert bus._client.xlen(prefix + "feed") == 1
    for store in (sessions, cache, bus):
        store.close()


def test_missing_driver_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "redis" or m.startswith("redis.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "redis", None)
    with pytest.raises(MissingDependencyError, match=r"\[redis\] extra"):
        RedisSessionStore("redis://127.0.0.1:6379")
    with pytest.raises(ImportError):
        RedisEventBus("redis://127.0.0.1:6379")
