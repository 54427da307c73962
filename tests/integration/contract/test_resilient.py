"""The resilient wrappers on in-process stores with injected outages (no server needed)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shared_core import FakeClock
from shared_core.entities import Kind, SessionTurn
from shared_core.errors import BackendUnavailableError, InvalidInputError
from shared_core.metrics import Metrics
from shared_core.storage.outbox import OutboxVectorIndex
from shared_core.storage.protocols import VectorItem
from shared_core.storage.redis_events import LocalProfileCache
from shared_core.storage.resilient import (
    Breaker,
    ResilientProfileCache,
    ResilientSessionStore,
)
from shared_core.storage.session import InMemorySessionStore
from shared_core.storage.vectors import SqliteVectorIndex

NOW = datetime(2026, 4, 1, tzinfo=UTC)


class Outage:
    """Wraps a real store; every call raises BackendUnavailableError while ``down``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.down = False
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr) or name == "close":
            return attr

        def call(*a: Any, **kw: Any) -> Any:
            self.calls += 1
            if self.down:
                raise BackendUnavailableError("injected outage")
            return attr(*a, **kw)

        return call


def _item(rid: str, user: str = "u", seed: int = 0) -> VectorItem:
    v = np.random.default_rng(seed).standard_normal(16).astype(np.float32)
    return VectorItem(
        record_id=rid, user_id=user, system_context="default", kind=Kind.FACT, key="k", vector=v
    )


def test_breaker_probes_at_most_every_interval() -> None:
    t = [0.0]
    metrics = Metrics()
    b = Breaker("x", probe_interval=5, metrics=metrics, monotonic=lambda: t[0])
    b.failed(RuntimeError("down"))
    b.failed(RuntimeError("still down"))
    assert not b.should_try()
    t[0] = 4.9
    assert not b.should_try()
    t[0] = 5.0
    assert b.should_try()
    assert b.succeeded() and not b.succeeded()
    assert metrics.value("backend_degraded_total", backend="x") == 1  # once per outage
    assert metrics.value("backend_recovered_total", backend="x") == 1
    with pytest.raises(Exception, match="probe_interval"):
        Breaker("x", probe_interval=-1)


def test_session_store_falls_back_and_copies_back() -> None:
    clock = FakeClock(NOW)
    primary = Outage(InMemorySessionStore(1800, clock=clock))
    store = ResilientSessionStore(
        primary,
        InMemorySessionStore(1800, clock=clock),
        probe_interval=0,
    )
    store.append("u", "s", SessionTurn(role="user", text="before", turn_id="t1", at=NOW))
    primary.down = True
    store.append(
        "u", "s", SessionTurn(role="user", text="during", turn_id="t2", at=NOW, written=("r1",))
    )
    store.set_state("u", "s", {"turn_index": 2})
    assert [t.text for t in store.turns("u", "s")] == ["during"]
    assert store.degraded
    primary.down = False
    turns = store.turns("u", "s")
    assert [t.text for t in turns] == ["before", "during"]
    assert turns[1].written == ("r1",)
    assert store.get_state("u", "s") == {"turn_index": 2}
    assert not store.degraded and store.fallback.turns("u", "s") == []


def test_session_erase_during_outage_is_applied_on_return() -> None:
    clock = FakeClock(NOW)
    primary = Outage(InMemorySessionStore(1800, clock=clock))
    store = ResilientSessionStore(
        primary,
        InMemorySessionStore(1800, clock=clock),
        probe_interval=0,
    )
    store.append("u", "s", SessionTurn(role="user", text="secret", turn_id="t1", at=NOW))
    primary.down = True
    with pytest.raises(BackendUnavailableError, match="pending"):
        store.delete_user("u")  # reported, not claimed: UserMemory.forget queues it durably
    primary.down = False
    assert store.sessions("u") == []
    assert primary.inner.turns("u", "s") == []


def test_profile_cache_delivers_missed_invalidations_first() -> None:
    inner = Outage(LocalProfileCache())
    cache = ResilientProfileCache(inner, probe_interval=0)
    cache.set("u", "default", {"k": "old"})
    inner.down = True
    assert cache.get("u", "default") is None
    cache.invalidate("u")  # cannot be delivered
    inner.down = False
    assert inner.inner.get("u", "default") == {"k": "old"}  # still in the backend ...
    assert cache.get("u", "default") is None  # ... but dropped before the first read


def test_outbox_queues_coalesces_and_replays_in_order(tmp_path: Path) -> None:
    inner = Outage(SqliteVectorIndex(":memory:"))
    path = tmp_path / "outbox.db"
    idx = OutboxVectorIndex(inner, path, probe_interval=0)
    idx.upsert([_item("a"), _item("b", seed=1)])
    inner.down = True
    idx.upsert([_item("c", seed=2)])
    idx.delete(["a"])
    idx.upsert([_item("d", seed=3)])
    assert idx.pending() == 3
    assert idx.search("u", "default", _item("c", seed=2).vector, k=1) == []  # degraded
    with pytest.raises(InvalidInputError):
        idx.upsert([dataclasses.replace(_item("e"), vector=np.zeros(16, np.float32))])
    inner.down = False
    hits = idx.search("u", "default", _item("c", seed=2).vector, k=1)
    assert [h.record_id for h in hits] == ["c"]
    assert idx.pending() == 0
    assert inner.inner.ids_for_user("u") == {"b", "c", "d"}
    idx.close()


def test_outbox_survives_a_restart_and_erases(tmp_path: Path) -> None:
    path = tmp_path / "outbox.db"
    inner = Outage(SqliteVectorIndex(":memory:"))
    inner.down = True
    idx = OutboxVectorIndex(inner, path, probe_interval=0)
    idx.upsert([_item("a", user="zq-user-31"), _item("b", user="other")])
    idx.delete_user("zq-user-31")  # drops the queued upsert and queues the erase
    assert idx.pending() == 2
    idx.close()
    again = Outage(SqliteVectorIndex(":memory:"))
    idx2 = OutboxVectorIndex(again, path, probe_interval=0)
    assert idx2.replay() == 2
    assert again.inner.ids_for_user("other") == {"b"}
    idx2.close()
    assert b"zq-user-31" not in path.read_bytes()
