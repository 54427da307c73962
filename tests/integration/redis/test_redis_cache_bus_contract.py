"""The ProfileCache, EventBus and SessionStore contracts on Redis and Redis Cluster, bare
and inside the failure-handling wrappers that production assembly puts around them."""

from __future__ import annotations

from typing import Any

import pytest
from contract.event_bus_contract import EventBusContract
from contract.profile_cache_contract import ProfileCacheContract
from contract.session_store_contract import TTL, SessionStoreContract

from shared_core.clock import FakeClock
from shared_core.storage.redis import RedisSessionStore
from shared_core.storage.redis_events import RedisEventBus, RedisProfileCache
from shared_core.storage.resilient import (
    ResilientEventBus,
    ResilientProfileCache,
    ResilientSessionStore,
)
from shared_core.storage.session import InMemorySessionStore

pytestmark = pytest.mark.integration


class TestRedisProfileCacheContract(ProfileCacheContract):
    @pytest.fixture
    def profile_cache(self, client: Any, prefix: str) -> RedisProfileCache:
        return RedisProfileCache(client, prefix=prefix, ttl_seconds=60)


class TestResilientRedisProfileCacheContract(ProfileCacheContract):
    @pytest.fixture
    def profile_cache(self, client: Any, prefix: str) -> ResilientProfileCache:
        return ResilientProfileCache(
            RedisProfileCache(client, prefix=prefix, ttl_seconds=60), probe_interval=0
        )


class TestRedisEventBusContract(EventBusContract):
    @pytest.fixture
    def bus(self, client: Any, prefix: str) -> RedisEventBus:
        return RedisEventBus(client, prefix=prefix, clock=FakeClock())


class TestResilientRedisEventBusContract(EventBusContract):
    @pytest.fixture
    def bus(self, client: Any, prefix: str) -> ResilientEventBus:
        return ResilientEventBus(
            RedisEventBus(client, prefix=prefix, clock=FakeClock()), probe_interval=0
        )


class TestResilientRedisSessionStoreContract(SessionStoreContract):  # type: ignore[misc]
    """Expiry runs on the Redis server clock; it is tested with real time elsewhere."""

    controls_time = False

    @pytest.fixture
    def sessions(self, client: Any, prefix: str, clock: FakeClock) -> ResilientSessionStore:
        return ResilientSessionStore(
            RedisSessionStore(client, prefix=prefix, ttl_seconds=TTL),
            InMemorySessionStore(TTL, clock=clock),
            probe_interval=0,
        )
