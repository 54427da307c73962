"""Backend assembly: a frozen StorageSpec, opened by open_backend, used by UserMemory."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared_core import UserMemory
from shared_core.clock import FakeClock
from shared_core.embed import HashingEmbedder
from shared_core.errors import ConfigError, UnknownBackendError
from shared_core.metrics import Metrics
from shared_core.storage import registry
from shared_core.storage.outbox import OutboxVectorIndex
from shared_core.storage.registry import Backends, StorageSpec, open_backend, register_backend
from shared_core.storage.resilient import (
    ResilientProfileCache,
    ResilientSessionStore,
)
from shared_core.storage.session import InMemorySessionStore
from shared_core.storage.sqlite import SqliteRecordStore
from shared_core.storage.vectors import SqliteVectorIndex


@pytest.fixture(autouse=True)
def _clean_registry() -> Iterator[None]:
    saved = dict(registry._registered)
    yield
    registry._registered.clear()
    registry._registered.update(saved)


class Tracked(InMemorySessionStore):
    """A real in-process store that counts its closes."""

    closes = 0

    def close(self) -> None:
        type(self).closes += 1
        super().close()


class Cache:
    """A minimal real ProfileCache (dict-backed) for wiring checks."""

    def __init__(self) -> None:
        self.data: dict[tuple[str, str, str], dict[str, str]] = {}

    def get(self, user_id: str, system_context: str, scope_key: str = "") -> Any:
        return self.data.get((user_id, system_context, scope_key))

    def set(self, user_id: str, system_context: str, profile: Any, scope_key: str = "") -> None:
        self.data[(user_id, system_context, scope_key)] = dict(profile)

    def invalidate(self, user_id: str) -> None:
        self.data = {k: v for k, v in self.data.items() if k[0] != user_id}

    def delete_user(self, user_id: str) -> int:
        self.invalidate(user_id)
        return 0

    def close(self) -> None:
        self.data.clear()


def test_spec_is_frozen_and_a_url_is_the_records_only_spec(tmp_path: Path) -> None:
    spec = StorageSpec(records=f"sqlite:///{tmp_path / 'm.db'}")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.records = "sqlite://"  # type: ignore[misc]
    a = open_backend(spec.records)  # type: ignore[arg-type]
    assert isinstance(a.records, SqliteRecordStore) and isinstance(a.vectors, SqliteVectorIndex)
    assert isinstance(a.sessions, InMemorySessionStore) and a.metrics is None
    a.close()


def test_roles_named_in_the_spec_replace_the_schemes_own(tmp_path: Path) -> None:
    sessions, cache = InMemorySessionStore(60), Cache()
    vec_url = f"sqlite:///{tmp_path / 'vectors.db'}"
    spec = StorageSpec(
        records=f"sqlite:///{tmp_path / 'records.db'}",
        vectors=vec_url,
        sessions=sessions,
        cache=cache,  # type: ignore[arg-type]
    )
    with UserMemory(spec, embedder=HashingEmbedder()) as mem:
        # the named stores are used, behind the erase fence (shared_core.fencing)
        assert mem.sessions.inner is sessions and mem.cache.inner is cache  # type: ignore[union-attr]
        mem.observe("u1", "I'm allergic to penicillin.", system_context="health")
        ids = mem.vectors.ids_for_user("u1")
        assert ids
    reopened = SqliteVectorIndex(str(tmp_path / "vectors.db"))
    assert reopened.ids_for_user("u1") == ids  # the vectors went to the named file
    reopened.close()


def test_a_replaced_part_of_a_full_set_is_closed() -> None:
    Tracked.closes = 0

    def factory(url: str, **kw: Any) -> Backends:
        full = registry.open_sqlite("sqlite://", **kw)
        return dataclasses.replace(full, sessions=Tracked(60))

    register_backend("bundle", factory)
    mine = InMemorySessionStore(60)
    b = open_backend(StorageSpec(records="bundle://x", sessions=mine))
    assert b.sessions is mine and Tracked.closes == 1
    b.close()


def test_store_objects_are_completed_in_process() -> None:
    records = SqliteRecordStore(":memory:")
    b = open_backend(StorageSpec(records=records), clock=FakeClock())
    assert b.records is records
    assert isinstance(b.vectors, SqliteVectorIndex) and isinstance(b.sessions, InMemorySessionStore)
    b.close()


def test_a_failing_role_closes_what_was_opened() -> None:
    Tracked.closes = 0
    register_backend("tracked", lambda url, **kw: Tracked(60), role="sessions")
    with pytest.raises(UnknownBackendError):
        open_backend(StorageSpec(records="sqlite://", sessions="tracked://x", events="nosuch://y"))
    assert Tracked.closes == 1


def test_resilient_spec_wraps_every_server_store_and_shares_metrics(tmp_path: Path) -> None:
    register_backend("tracked", lambda url, **kw: Tracked(60), role="sessions")
    register_backend("tracked", lambda url, **kw: Cache(), role="cache")
    metrics = Metrics()
    spec = StorageSpec(
        records="sqlite://",
        sessions="tracked://a",
        cache="tracked://a",
        events=None,
        resilient=True,
        outbox=str(tmp_path / "outbox.db"),
        probe_interval=0,
    )
    b = open_backend(spec, metrics=metrics)
    assert isinstance(b.vectors, OutboxVectorIndex)
    assert isinstance(b.sessions, ResilientSessionStore)
    assert isinstance(b.profile_cache, ResilientProfileCache)
    assert b.events is None and b.metrics is metrics
    mem = UserMemory(b, embedder=HashingEmbedder())
    assert mem.metrics is metrics
    mem.close()


def test_bad_specs_are_config_errors() -> None:
    with pytest.raises(ConfigError):
        open_backend(42)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        open_backend(StorageSpec(records=object()))  # type: ignore[arg-type]
    register_backend("sessonly", lambda url, **kw: InMemorySessionStore(5), role="sessions")
    with pytest.raises(ConfigError):
        open_backend(StorageSpec(records="sessonly://x"))
