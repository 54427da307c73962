"""The shared contracts, run on the in-process cache and on the failure-handling wrappers
(:mod:`shared_core.storage.resilient`, the vector outbox) over in-process stores. The same
contracts run on Redis in ``tests/integration/redis/test_redis_cache_bus_contract.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from contract.profile_cache_contract import ProfileCacheContract
from contract.session_store_contract import TTL, SessionStoreContract
from contract.vector_index_contract import VectorIndexContract

from shared_core.clock import FakeClock
from shared_core.storage.outbox import OutboxVectorIndex
from shared_core.storage.redis_events import LocalProfileCache
from shared_core.storage.resilient import ResilientProfileCache, ResilientSessionStore
from shared_core.storage.session import InMemorySessionStore
from shared_core.storage.vectors import SqliteVectorIndex


class TestLocalProfileCacheContract(ProfileCacheContract):
    @pytest.fixture
    def profile_cache(self) -> LocalProfileCache:
        return LocalProfileCache()


class TestResilientProfileCacheContract(ProfileCacheContract):
    @pytest.fixture
    def profile_cache(self) -> ResilientProfileCache:
        return ResilientProfileCache(LocalProfileCache(), probe_interval=0)


class TestResilientSessionStoreContract(SessionStoreContract):
    @pytest.fixture
    def sessions(self, clock: FakeClock) -> ResilientSessionStore:
        return ResilientSessionStore(
            InMemorySessionStore(TTL, clock=clock),
            InMemorySessionStore(TTL, clock=clock),
            probe_interval=0,
        )


class TestOutboxVectorIndexContract(VectorIndexContract):
    @pytest.fixture
    def index(self, tmp_path: Path) -> Iterator[OutboxVectorIndex]:
        ix = OutboxVectorIndex(SqliteVectorIndex(":memory:"), tmp_path / "outbox.db")
        yield ix
        ix.close()


def test_outbox_schema_goes_through_the_migration_runner(tmp_path: Path) -> None:
    import sqlite3

    from shared_core.storage.migrations import applied_migrations

    path = tmp_path / "outbox.db"
    OutboxVectorIndex(SqliteVectorIndex(":memory:"), path).close()
    OutboxVectorIndex(SqliteVectorIndex(":memory:"), path).close()  # reopening is a no-op
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert [m.name for m in applied_migrations(conn)] == ["vector_outbox"]
    finally:
        conn.close()


def test_an_outbox_file_made_before_the_runner_keeps_its_queue(tmp_path: Path) -> None:
    import sqlite3

    from shared_core.storage.outbox import OUTBOX_MIGRATIONS

    path = tmp_path / "old-outbox.db"
    conn = sqlite3.connect(path, isolation_level=None)
    for stmt in OUTBOX_MIGRATIONS[0].statements:  # the tables as the old DDL made them
        conn.execute(stmt)
    conn.execute("INSERT INTO vector_outbox (record_id, seq, op) VALUES ('r1', 7, 'delete')")
    conn.close()
    ix = OutboxVectorIndex(SqliteVectorIndex(":memory:"), path, probe_interval=3600)
    try:
        assert ix.pending() == 1
    finally:
        ix.close()
