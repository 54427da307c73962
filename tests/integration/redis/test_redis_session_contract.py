"""The shared SessionStore contract, run on Redis and on a Redis Cluster."""

from __future__ import annotations

from typing import Any

import pytest
from contract.session_store_contract import TTL, SessionStoreContract

from shared_core.storage.redis import RedisSessionStore

pytestmark = pytest.mark.integration


class TestRedisSessionStoreContract(SessionStoreContract):  # type: ignore[misc]
    """Expiry runs on the Redis server clock; it is tested with real time elsewhere."""

    controls_time = False

    @pytest.fixture
    def sessions(self, client: Any, prefix: str) -> RedisSessionStore:
        return RedisSessionStore(client, prefix=prefix, ttl_seconds=TTL)
