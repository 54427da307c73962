"""Buffered read-audit entries and erasure across two instances on one PostgreSQL schema."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from shared_core import FakeClock, MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.storage import StorageSpec
from shared_core.storage.postgres import PostgresRecordStore

pytestmark = pytest.mark.integration


def _instance(pg_url: str, schema: str, clock: FakeClock) -> UserMemory:
    return UserMemory(
        StorageSpec(records=PostgresRecordStore(pg_url, schema=schema, clock=clock, max_size=2)),
        clock=clock,
        embedder=HashingEmbedder(),
        config=MemoryConfig(audit_read_batch=64),
    )


def test_another_instances_buffered_reads_do_not_ride_a_write_past_an_erase(
    pg_url: str, pg_schema: str
) -> None:
    """Instance A buffered a read of ``u``; instance B erases ``u``; A then writes ``u``
    again. The stale read (it names the erased records) must not ride that write in."""
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    a = _instance(pg_url, pg_schema, clock)
    b = _instance(pg_url, pg_schema, clock)
    try:
        a.observe("u", "My budget is 5000.")
        erased = {s.record.id for s in a.recall("u", "budget")}
        assert erased and len(a.read_audit) == 1
        clock.advance(timedelta(seconds=1))
        b.forget("u")
        clock.advance(timedelta(seconds=1))
        a.observe("u", "I live in Berlin.")
        log = b.audit_log("u")
        assert [e for e in log if e.action == "read"] == []
        assert not any(erased & set(e.detail.get("record_ids", ())) for e in log)
        assert any(e.action == "create" for e in log)
    finally:
        a.close()
        b.close()
