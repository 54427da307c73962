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
