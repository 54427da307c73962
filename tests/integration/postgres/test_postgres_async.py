"""AsyncPostgresRecordStore: native async tests plus the full RecordStore contract.

The contract mixin is synchronous, so it runs through a thin facade that submits every
coroutine to one event loop running in a background thread (the pool lives on that loop).
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from contract.record_store_contract import RecordStoreContract
from psycopg import sql

from shared_core.clock import FakeClock
from shared_core.entities import Kind, MemoryRecord, Status
from shared_core.errors import BackendUnavailableError, ConflictError
from shared_core.storage.postgres_async import AsyncPostgresRecordStore, open_postgres_async
from shared_core.storage.protocols import RecordFilter, WriteBatch

pytestmark = pytest.mark.integration

T0 = datetime(2026, 2, 1, tzinfo=UTC)


def _drop(url: str, schema: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


class SyncFacade:
    """Calls an async store's coroutine methods from sync code, on one loop thread."""

    def __init__(self, store: AsyncPostgresRecordStore, loop: asyncio.AbstractEventLoop) -> None:
        self._store = store
        self._loop = loop

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            result = attr(*args, **kwargs)
            if inspect.isawaitable(result):
                return asyncio.run_coroutine_threadsafe(_await(result), self._loop).result(30)
            return result

        return call


async def _await(aw: Any) -> Any:
    return await aw


@pytest.fixture(scope="module")
def loop_thread() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    t = threading.Thread(target=loop.run_forever, daemon=True)
    t.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    t.join(5)
    loop.close()


@pytest.fixture(scope="module")
def facade(pg_url: str, loop_thread: asyncio.AbstractEventLoop) -> Iterator[SyncFacade]:
    schema = f"a_{uuid.uuid4().hex[:12]}"

    def run(coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, loop_thread).result(60)

    store = run(AsyncPostgresRecordStore.connect(pg_url, schema=schema, max_size=4))
    yield SyncFacade(store, loop_thread)
    run(store.close())
    _drop(pg_url, schema)


class TestAsyncPostgresRecordStoreContract(RecordStoreContract):
    @pytest.fixture
    def store(self, facade: SyncFacade) -> SyncFacade:
        return facade


def _rec(user: str, key: str, value: str, **kw: Any) -> MemoryRecord:
    return MemoryRecord(user_id=user, kind=Kind.PREFERENCE, key=key, value=value,
                        normalized=value, created_at=T0, updated_at=T0, **kw)  # fmt: skip


async def test_async_store_end_to_end(pg_url: str, pg_schema: str) -> None:
    clock = FakeClock(T0)
    async with AsyncPostgresRecordStore(pg_url, schema=pg_schema, clock=clock) as store:
        assert store.applied == ["initial_schema", "profile_functions"]
        v1 = _rec("u", "contact.call", "sms")
        await store.apply(WriteBatch(records=[v1]))
        v2 = _rec("u", "contact.call", "email", version=2, supersedes=v1.id)
        await store.apply(WriteBatch(records=[v2, v1.replace(status=Status.SUPERSEDED)]))
        with pytest.raises(ConflictError):
            await store.apply(WriteBatch(records=[_rec("u", "contact.call", "call")]))
        assert [r.value for r in await store.history("u", "contact.call")] == ["sms", "email"]
        assert await store.profile("u") == {"contact.call": "email"}
        hits = await store.lexical_search("u", "default", "email? 'x' & | !", limit=3)
        assert [h.record_id for h in hits] == [v2.id]
        # concurrent readers share the pool
        results = await asyncio.gather(*(store.find(RecordFilter(user_id="u")) for _ in range(8)))
        assert all([r.id for r in res] == [v2.id] for res in results)
        moved = await store.archive_older_than(180, now=T0 + timedelta(days=365))
        assert moved == 1  # the superseded v1
        assert await store.find(RecordFilter(user_id="u", statuses=None)) == [v2]
        found = await store.find(RecordFilter(user_id="u", statuses=None), include_archive=True)
        assert {r.id for r in found} == {v1.id, v2.id}
        counts = await store.erase_user("u", at=T0)
        assert counts["records"] == 1 and counts["records_archive"] == 1
        assert await store.users() == []


async def test_open_postgres_async_from_url(pg_url: str, pg_schema: str) -> None:
    store = await open_postgres_async(f"{pg_url}?schema={pg_schema}&pool_max=2")
    try:
        await store.apply(WriteBatch(records=[_rec("x", "k", "v")]))
        assert await store.users() == ["x"]
    finally:
        await store.close()


async def test_async_unreachable_server() -> None:
    with pytest.raises(BackendUnavailableError):
        await AsyncPostgresRecordStore.connect(
            "postgresql://postgres@127.0.0.1:1/x", timeout=1.5, connect_timeout=1
        )
