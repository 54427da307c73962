"""Round trips of the PostgreSQL record store, counted on the wire (libpq's protocol trace
of the pooled connection): a one-statement read is the connection check plus the
statement, with no ``BEGIN``/``COMMIT`` around it; writes stay in one transaction."""

from __future__ import annotations

import re
import tempfile
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from psycopg import sql

from shared_core.clock import FakeClock
from shared_core.entities import Kind, MemoryRecord, Source
from shared_core.storage.postgres import PostgresRecordStore
from shared_core.storage.protocols import RecordFilter, WriteBatch

T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def one_conn_store(pg_url: str) -> Iterator[PostgresRecordStore]:
    """A store whose pool holds exactly one connection (the one traced)."""
    schema = f"rt_{uuid.uuid4().hex[:12]}"
    store = PostgresRecordStore(pg_url, schema=schema, clock=FakeClock(T0), min_size=1, max_size=1)
    yield store
    store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def _wire(store: PostgresRecordStore, fn: Callable[[], Any]) -> list[str]:
    """The statements the client sent while ``fn`` ran (one per round trip)."""
    pool = store._pool._pool
    conn = pool.getconn()
    pool.putconn(conn)
    with tempfile.TemporaryFile("w+") as f:
        conn.pgconn.trace(f.fileno())
        try:
            fn()
        finally:
            conn.pgconn.untrace()
        f.seek(0)
        trace = f.read()
    # simple protocol: Query "<sql>"; extended protocol: Parse "" "<sql>" ... Sync
    return [
        m.group(2) if m.group(1) is None else m.group(1)
        for m in re.finditer(r'\tF\t\d+\t(?:Query\t "(.*)"|Parse\t "[^"]*" "(.*?)" )', trace)
    ]


def _record(value: str, key: str = "location.address") -> MemoryRecord:
    return MemoryRecord(
        user_id="u1",
        kind=Kind.FACT,
        key=key,
        value=value,
        normalized=value.lower(),
        source=Source.USER_DECLARE,
        confidence=0.9,
        created_at=T0,
        updated_at=T0,
    )


@pytest.mark.parametrize(
    "read",
    [
        lambda s: s.user_state("u1"),
        lambda s: s.conflicts("u1"),
        lambda s: s.fence("u1"),
        lambda s: s.find(RecordFilter(user_id="u1", system_context="default")),
        lambda s: s.lexical_search("u1", "default", "Oslo", limit=5),
        lambda s: s.history("u1", "location.address"),
        lambda s: s.audit_log("u1"),
        lambda s: s.erased_at("u1"),
    ],
    ids=["user_state", "conflicts", "fence", "find", "lexical", "history", "audit", "erased"],
)
def test_a_read_is_the_check_and_one_statement(
    one_conn_store: PostgresRecordStore, read: Callable[[PostgresRecordStore], Any]
) -> None:
    one_conn_store.apply(WriteBatch(records=[_record("Oslo")]))
    sent = _wire(one_conn_store, lambda: read(one_conn_store))
    assert sent[0] == ""  # the pool's connection check
    assert len(sent) == 2, sent  # and the statement: no BEGIN / COMMIT round trips
    assert not any(s.upper() in ("BEGIN", "COMMIT") for s in sent)


def test_a_write_is_still_one_transaction(one_conn_store: PostgresRecordStore) -> None:
    sent = _wire(
        one_conn_store, lambda: one_conn_store.apply(WriteBatch(records=[_record("Oslo")]))
    )
    assert sent[1] == "BEGIN" and sent[-1] == "COMMIT", sent
    # the connection went back to the pool out of autocommit: a write after a read is atomic
    one_conn_store.user_state("u1")
    sent = _wire(
        one_conn_store,
        lambda: one_conn_store.apply(WriteBatch(records=[_record("Bergen", "work.city")])),
    )
    assert sent[1] == "BEGIN" and sent[-1] == "COMMIT", sent
