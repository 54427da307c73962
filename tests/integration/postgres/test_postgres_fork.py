"""A forked child gets a psycopg pool of its own; the parent's connections (sockets the
child inherited) are never used or closed by it, so they outlive the child."""

from __future__ import annotations

import gc
import os
import uuid

import psycopg
import pytest

from shared_core import MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.storage import StorageSpec
from shared_core.storage.postgres import PostgresRecordStore
from tests.forking import PASSED, in_child

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)"),
]


def backends(pg_url: str, app: str) -> set[int]:
    """Server pids of the connections named ``app`` (both processes' pools)."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (app,)
        ).fetchall()
    return {int(r[0]) for r in rows}


def test_child_uses_its_own_pool_and_the_parents_connections_survive_it(
    pg_url: str, pg_schema: str
) -> None:
    app = f"um-fork-{uuid.uuid4().hex[:8]}"
    store = PostgresRecordStore(
        pg_url, schema=pg_schema, max_size=2, application_name=app, timeout=5
    )
    mem = UserMemory(
        StorageSpec(records=store),
        embedder=HashingEmbedder(),
        config=MemoryConfig(audit_read_batch=64),
    )
    try:
        mem.observe("u", "I live in Berlin.")
        mem.recall("u", "where do I live")  # a read entry buffered at the fork
        parents = backends(pg_url, app)
        assert parents

        def child() -> None:
            assert len(mem.read_audit) == 0
            mem.observe("u", "My budget is 5000.")
            assert mem.profile("u") == {"location.city": "Berlin", "budget.max": "5000"}
            assert {s.record.key for s in mem.recall("u", "budget and city")} >= {
                "location.city",
                "budget.max",
            }
            mine = backends(pg_url, app) - parents
            assert mine  # served by connections of the child's own pool
            mem.close()  # closes the child's pool only
            gc.collect()  # the inherited pool is never finalised either

        assert in_child(child, timeout=30) == PASSED
        assert backends(pg_url, app) == parents  # the child's are gone, the parent's not
        mem.observe("u", "I work at Acme.")
        assert mem.profile("u") == {
            "location.city": "Berlin",
            "budget.max": "5000",
            "job.employer": "Acme",
        }
        assert backends(pg_url, app) == parents  # the same sessions answered: none dropped
        mem.flush_audit()
        reads = [e for e in mem.audit_log("u") if e.action == "read"]
        assert len(reads) == 2  # the parent's buffered read once, the child's once
    finally:
        mem.close()
