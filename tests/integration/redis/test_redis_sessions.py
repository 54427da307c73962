"""RedisSessionStore against a real Redis and a real 3-node Redis Cluster."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis.crc

from shared_core.entities import SessionTurn
from shared_core.errors import ConflictError, InvalidIdError, InvalidInputError, NotFoundError
from shared_core.storage.protocols import SessionStore
from shared_core.storage.redis import RedisSessionStore

pytestmark = pytest.mark.integration

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

HOSTILE_IDS = [
    "{",
    "}",
    "{user}",
    "a}b{c",
    "*",
    "?",
    "[a-z]",
    "user id with spaces",
    "emoji 😀🧠",
    "用户:42",
    "x" * 5000,
    "session:{x}:y",
    "\\*\\",
]


def turn(i: int, text: str | None = None, role: str = "user") -> SessionTurn:
    return SessionTurn(
        role=role, text=text or f"turn {i}", turn_id=f"t{i}", at=T0 + timedelta(seconds=i)
    )


@pytest.fixture
def store(client: Any, prefix: str) -> RedisSessionStore:
    return RedisSessionStore(client, prefix=prefix, ttl_seconds=60)


def slot(client: Any, key: str) -> int:
    """The cluster slot of a key: CLUSTER KEYSLOT on a cluster, the same CRC16 locally."""
    if hasattr(client, "get_nodes"):
        return int(client.cluster_keyslot(key))
    return int(redis.crc.key_slot(key.encode()))


def test_satisfies_protocol(store: RedisSessionStore) -> None:
    assert isinstance(store, SessionStore)


def test_append_turns_order_limit_and_written(store: RedisSessionStore) -> None:
    for i in range(5):
        store.append("alice", "s1", turn(i, f"我喜欢茶 {i}"), device_id="phone")
    got = store.turns("alice", "s1")
    assert [t.turn_id for t in got] == ["t0", "t1", "t2", "t3", "t4"]
    assert got[0].text == "我喜欢茶 0" and got[0].at == T0
    assert [t.turn_id for t in store.turns("alice", "s1", limit=2)] == ["t3", "t4"]
    assert store.turns("alice", "s1", limit=0) == []
    store.mark_written("alice", "s1", "t3", ["r1", "r2"])
    store.mark_written("alice", "s1", "t3", ["r2", "r3"])
    with pytest.raises(NotFoundError):
        store.mark_written("alice", "s1", "no-such-turn", ["r9"])
    by_id = {t.turn_id: t for t in store.turns("alice", "s1")}
    assert by_id["t3"].written == ("r1", "r2", "r3")
    assert by_id["t4"].written == ()
    assert store.turns("alice", "other-session") == []
    assert store.turns("bob", "s1") == []
    with pytest.raises(InvalidInputError):
        store.turns("alice", "s1", limit=-1)


def test_state_get_set_and_end(store: RedisSessionStore) -> None:
    assert store.get_state("alice", "s1") == {}
    store.set_state("alice", "s1", {"last_turn_index": 3, "lang": "zh"})
    store.append("alice", "s1", turn(1))
    assert store.get_state("alice", "s1") == {"last_turn_index": 3, "lang": "zh"}
    assert store.get_state_versioned("alice", "s1")[1] == 1
    store.append("alice", "s2", turn(2))
    assert store.sessions("alice") == ["s1", "s2"]
    ended = store.end("alice", "s1")
    assert [t.turn_id for t in ended] == ["t1"]
    assert store.sessions("alice") == ["s2"]
    assert store.turns("alice", "s1") == []
    assert store.get_state("alice", "s1") == {}
    assert store.end("alice", "s1") == []  # ending twice is harmless
    with pytest.raises(InvalidInputError):
        store.set_state("alice", "s2", {"bad": object()})
    assert store.get_state("alice", "s2") == {}  # nothing stored on bad input


def test_key_layout_and_hash_tag_colocation(
    scan: Any, store: RedisSessionStore, client: Any, prefix: str
) -> None:
    user = "{tricky}:user"
    store.append(user, "s1", turn(1), device_id="phone")
    store.append(user, "s2", turn(2), device_id="laptop")
    store.append(user, "s3", turn(3))
    keys = scan(prefix + "*")
    tag = store.keys.tag(user)
    assert len(keys) == 4  # 3 sessions + the index
    assert all(tag in k for k in keys)
    session_keys = [k for k in keys if k.startswith(prefix + "session:")]
    assert len(session_keys) == 3
    assert any(k.endswith(":-:" + k.rsplit(":", 1)[1]) for k in session_keys)  # no device
    assert len({slot(client, k) for k in keys}) == 1
    assert slot(client, keys[0]) == slot(client, tag)
    assert client.hget(store.keys.session_index(user), "s2") in session_keys
    assert store.keys.tag(user) != store.keys.tag("{tricky}:user2")


def test_ttl_set_and_refreshed_on_activity(store: RedisSessionStore, client: Any) -> None:
    store.append("alice", "s1", turn(1))
    key = client.hget(store.keys.session_index("alice"), "s1")
    first = client.pttl(key)
    assert 59_000 < first <= 60_000
    assert 59_000 < client.pttl(store.keys.session_index("alice")) <= 60_000
    client.pexpire(key, 5_000)  # pretend time passed
    client.pexpire(store.keys.session_index("alice"), 5_000)
    store.turns("alice", "s1")  # reads do not refresh
    assert client.pttl(key) <= 5_000
    store.append("alice", "s1", turn(2))
    assert client.pttl(key) > 59_000
    client.pexpire(key, 5_000)
    store.set_state("alice", "s1", {"x": 1})
    assert client.pttl(key) > 59_000
    client.pexpire(key, 5_000)
    store.mark_written("alice", "s1", "t2", ["r1"])
    assert client.pttl(key) > 59_000
    assert client.pttl(store.keys.session_index("alice")) > 59_000


def test_expiry_drops_sessions(scan: Any, client: Any, prefix: str) -> None:
    store = RedisSessionStore(client, prefix=prefix, ttl_seconds=0.3)
    store.append("alice", "s1", turn(1))
    store.append("alice", "s2", turn(2))
    assert store.sessions("alice") == ["s1", "s2"]
    time.sleep(0.6)
    assert store.turns("alice", "s1") == []
    assert store.sessions("alice") == []
    assert scan(prefix + "*") == []


def test_expired_index_entry_is_pruned_and_session_restarts(
    store: RedisSessionStore, client: Any
) -> None:
    store.append("alice", "s1", turn(1), device_id="phone")
    store.append("alice", "s2", turn(2))
    key = client.hget(store.keys.session_index("alice"), "s1")
    client.delete(key)  # s1 expired while the index lives on
    assert store.sessions("alice") == ["s2"]
    assert client.hget(store.keys.session_index("alice"), "s1") is None
    store.append("alice", "s1", turn(3), device_id="phone")
    assert [t.turn_id for t in store.turns("alice", "s1")] == ["t3"]


def test_cas_conflict_with_two_writers(store: RedisSessionStore) -> None:
    store.set_state("alice", "s1", {"n": 0})
    state_a, version_a = store.get_state_versioned("alice", "s1")
    state_b, version_b = store.get_state_versioned("alice", "s1")
    assert version_a == version_b == 1
    assert store.cas_state("alice", "s1", {"n": state_a["n"] + 1, "by": "a"}, version_a) == 2
    with pytest.raises(ConflictError):
        store.cas_state("alice", "s1", {"n": state_b["n"] + 1, "by": "b"}, version_b)
    assert store.get_state("alice", "s1") == {"n": 1, "by": "a"}
    # a fresh session starts at version 0
    assert store.cas_state("alice", "new", {"n": 1}, 0) == 1
    with pytest.raises(ConflictError):
        store.cas_state("alice", "new2", {"n": 1}, 3)
    assert store.sessions("alice") == ["new", "s1"]


def test_concurrent_update_state_loses_no_increment(client: Any, prefix: str) -> None:
    store = RedisSessionStore(client, prefix=prefix, ttl_seconds=60)
    store.set_state("alice", "s1", {"n": 0})
    per_thread, threads = 25, 4
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(per_thread):
                store.update_state("alice", "s1", lambda st: {"n": st["n"] + 1}, retries=500)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    state, version = store.get_state_versioned("alice", "s1")
    assert state == {"n": per_thread * threads}
    assert version == 1 + per_thread * threads


@pytest.mark.parametrize("user_id", HOSTILE_IDS, ids=lambda u: repr(u)[:20])
def test_hostile_user_ids(
    scan: Any, store: RedisSessionStore, client: Any, prefix: str, user_id: str
) -> None:
    store.append(user_id, "s{1}*", turn(1, "hi"), device_id="dev {x} ")
    store.append("neighbour", "s{1}*", turn(2, "other"))
    assert [t.text for t in store.turns(user_id, "s{1}*")] == ["hi"]
    assert store.sessions(user_id) == ["s{1}*"]
    keys = [k for k in scan(prefix + "*") if store.keys.tag(user_id) in k]
    assert len(keys) == 2 and len({slot(client, k) for k in keys}) == 1
    if len(user_id) > 3:  # raw ids never appear in key names
        assert all(user_id not in k for k in keys)
    assert store.delete_user(user_id) == 1
    assert store.turns(user_id, "s{1}*") == []
    assert [t.text for t in store.turns("neighbour", "s{1}*")] == ["other"]


@pytest.mark.parametrize(
    "bad", ["", None, 42, "\ud800", "line\nbreak", "a\u2028b", "a\x0bb", "\u200b", "\ufeffa"]
)
def test_bad_ids_are_rejected(
    scan: Any, store: RedisSessionStore, client: Any, prefix: str, bad: Any
) -> None:
    with pytest.raises(InvalidIdError):
        store.append(bad, "s1", turn(1))
    with pytest.raises(InvalidIdError):
        store.append("alice", bad, turn(1))
    with pytest.raises(InvalidInputError):
        store.append("alice", "s1", "not a turn")  # type: ignore[arg-type]
    assert scan(prefix + "*") == []


def test_delete_user_removes_every_key(
    scan: Any, store: RedisSessionStore, client: Any, prefix: str
) -> None:
    for i in range(3):
        store.append("alice", f"s{i}", turn(i), device_id=f"d{i}")
    store.set_state("alice", "s0", {"a": 1})
    store.append("bob", "s0", turn(9))
    # an orphan session whose index entry is gone is still found by the SCAN
    client.hdel(store.keys.session_index("alice"), "s2")
    assert store.delete_user("alice") == 3
    tag = store.keys.tag("alice")
    assert [k for k in scan(prefix + "*") if tag in k] == []
    assert store.sessions("alice") == []
    assert [t.turn_id for t in store.turns("bob", "s0")] == ["t9"]
    assert store.delete_user("alice") == 0


def test_two_sessions_on_one_device_do_not_share_a_hash(
    store: RedisSessionStore, client: Any
) -> None:
    store.append("alice", "morning", turn(1), device_id="phone")
    store.append("alice", "evening", turn(2), device_id="phone")
    index = client.hgetall(store.keys.session_index("alice"))
    assert len(set(index.values())) == 2
    assert [t.turn_id for t in store.end("alice", "morning")] == ["t1"]
    assert [t.turn_id for t in store.turns("alice", "evening")] == ["t2"]
