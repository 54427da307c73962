"""Verifiable erase: after delete_user on every Redis store nothing of the user is left."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from shared_core.entities import SessionTurn
from shared_core.storage.redis import RedisSessionStore
from shared_core.storage.redis_events import EventSubscriber, RedisEventBus, RedisProfileCache

pytestmark = pytest.mark.integration

USER = f"erase-me {{42}} 😀 * {uuid.uuid4().hex}"
SECRET_TEXT = "my passport number is X1234567"
SECRET_VALUE = "peanut allergy (severe)"


def contains(haystack: str, needle: str) -> bool:
    """``needle`` as is or JSON-escaped (turns are stored as ASCII JSON)."""
    return needle in haystack or json.dumps(needle)[1:-1] in haystack


def dump(client: Any, keys: list[str]) -> str:
    """Every field, member and stream entry of ``keys`` as one string."""
    parts: list[str] = []
    for key in keys:
        kind = client.type(key)
        if kind == "hash":
            parts += [f"{k}={v}" for k, v in client.hgetall(key).items()]
        elif kind == "stream":
            parts += ["|".join(f"{k}={v}" for k, v in f.items()) for _, f in client.xrange(key)]
        elif kind == "string":
            parts.append(str(client.get(key)))
        parts.append(key)
    return "\n".join(parts)


def test_delete_user_everywhere_leaves_nothing(client: Any, prefix: str, scan: Any) -> None:
    sessions = RedisSessionStore(client, prefix=prefix, ttl_seconds=60)
    cache = RedisProfileCache(client, prefix=prefix, ttl_seconds=60)
    bus = RedisEventBus(client, prefix=prefix)
    sub = EventSubscriber(client, prefix=prefix, group="agents", consumer="c1")
    at = datetime(2026, 5, 1, tzinfo=UTC)
    for user in (USER, "keeper"):
        for i, device in enumerate(("phone", "laptop")):
            turn = SessionTurn(role="user", text=f"{SECRET_TEXT} ({user})", turn_id=f"t{i}", at=at)
            sessions.append(user, f"s{i}", turn, device_id=device)
            sessions.mark_written(user, f"s{i}", f"t{i}", [f"rec-{user}-{i}"])
        sessions.set_state(user, "s0", {"last_turn_index": 1})
        cache.get(user, "default")
        cache.set(user, "default", {"allergy": f"{SECRET_VALUE} ({user})"})
        cache.set(user, "work", {"allergy": f"{SECRET_VALUE} ({user})"}, scope_key="device:phone")
        cache.invalidate(user)
        assert cache.get(user, "default") is None
        cache.set(user, "default", {"allergy": f"{SECRET_VALUE} ({user})"})
        for n in range(30):
            bus.publish({"user_id": user, "key": "allergy", "record_id": f"r{n}", "version": n})
    assert sub.run(max_events=60, timeout=5) == 60
    before = dump(client, scan(prefix + "*"))
    assert contains(before, USER) and contains(before, f"{SECRET_TEXT} ({USER})")
    assert contains(before, f"{SECRET_VALUE} ({USER})")

    report = {
        "sessions": sessions.delete_user(USER),
        "cache": cache.delete_user(USER),
        "events": bus.delete_user(USER),
    }
    assert report == {"sessions": 2, "cache": 2, "events": 30}

    tag = sessions.keys.tag(USER)
    assert [k for k in scan("*") if tag in k] == []  # the whole keyspace, every node
    after = dump(client, scan(prefix + "*"))
    assert not contains(after, USER)
    assert not contains(after, f"({USER})")
    assert contains(after, f"{SECRET_TEXT} (keeper)")  # the check can see values
    assert all(f["user_id"] != USER for _, f in client.xrange(bus.stream))
    # the other user is intact
    assert len(sessions.turns("keeper", "s0")) == 1
    assert cache.get("keeper", "default") == {"allergy": f"{SECRET_VALUE} (keeper)"}
    assert client.xlen(bus.stream) == 30
    # erasing again finds nothing
    assert (sessions.delete_user(USER), cache.delete_user(USER), bus.delete_user(USER)) == (0, 0, 0)
