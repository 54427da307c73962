"""PgVectorIndex on PostgreSQL 16 + pgvector (pgserver), and its absence on PostgreSQL 15."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql

from shared_core.clock import FakeClock
from shared_core.config import MemoryConfig
from shared_core.entities import Kind, MemoryRecord
from shared_core.errors import BackendUnavailableError, ConfigError
from shared_core.storage import pgvector as pgvector_module
from shared_core.storage.pgvector import UNAVAILABLE_MESSAGE, PgVectorIndex, open_pgvector
from shared_core.storage.postgres import PostgresRecordStore
from shared_core.storage.protocols import RecordFilter, VectorItem, WriteBatch

pytestmark = pytest.mark.integration

DIM = 64


@pytest.fixture
def vindex(pgvector_url: str, pgvector_schema: str) -> Iterator[PgVectorIndex]:
    index = PgVectorIndex(pgvector_url, schema=pgvector_schema, dimension=DIM, max_size=2)
    yield index
    index.close()


def _items(
    rng: np.random.Generator, users: list[str], per: int
) -> tuple[list[VectorItem], dict[tuple[str, str], dict[str, np.ndarray]]]:
    items: list[VectorItem] = []
    truth: dict[tuple[str, str], dict[str, np.ndarray]] = {}
    kinds = list(Kind)
    for u in users:
        for i in range(per):
            ctx = "default" if i % 3 else "work"
            v = rng.standard_normal(DIM).astype(np.float32)
            rid = f"{u}-r{i}"
            items.append(
                VectorItem(
                    record_id=rid,
                    user_id=u,
                    system_context=ctx,
                    kind=kinds[i % len(kinds)],
                    key=f"k{i}",
                    vector=v,
                )
            )
            truth.setdefault((u, ctx), {})[rid] = v
    return items, truth


def test_exact_search_matches_numpy_brute_force(vindex: PgVectorIndex) -> None:
    rng = np.random.default_rng(7)
    users = ["alice", "bob", "carol"]
    items, truth = _items(rng, users, per=240)
    vindex.upsert(items)
    for _ in range(15):
        u = users[int(rng.integers(len(users)))]
        ctx = "default" if rng.random() < 0.7 else "work"
        qv = rng.standard_normal(DIM).astype(np.float32)
        ids = list(truth[(u, ctx)])
        m = np.stack([truth[(u, ctx)][i] for i in ids]).astype(np.float64)
        sims = (m @ qv.astype(np.float64)) / (np.linalg.norm(m, axis=1) * np.linalg.norm(qv))
        order = np.argsort(-sims)[:10]
        hits = vindex.search(u, ctx, qv, k=10)
        assert [h.record_id for h in hits] == [ids[j] for j in order]
        assert np.allclose([h.similarity for h in hits], sims[order], atol=1e-5)
        assert all(h.record_id.startswith(f"{u}-") for h in hits)  # isolation


def test_kind_filter_matches_brute_force(vindex: PgVectorIndex) -> None:
    rng = np.random.default_rng(3)
    items, _ = _items(rng, ["u"], per=60)
    vindex.upsert(items)
    qv = rng.standard_normal(DIM).astype(np.float32)
    wanted = (Kind.FACT, Kind.CONSTRAINT)
    pool = [it for it in items if it.system_context == "default" and it.kind in wanted]
    sims = {
        it.record_id: float(
            np.dot(it.vector, qv) / (np.linalg.norm(it.vector) * np.linalg.norm(qv))
        )
        for it in pool
    }
    expected = sorted(sims, key=lambda r: -sims[r])[:5]
    assert [h.record_id for h in vindex.search("u", "default", qv, k=5, kinds=wanted)] == expected


def test_search_uses_the_per_user_btree(vindex: PgVectorIndex, pgvector_url: str) -> None:
    rng = np.random.default_rng(1)
    items, _ = _items(rng, [f"user{i}" for i in range(40)], per=50)
    vindex.upsert(items)
    lit = "[" + ",".join(["0.1"] * DIM) + "]"
    with psycopg.connect(pgvector_url) as conn:
        conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(vindex.schema)))
        conn.execute("ANALYZE embeddings")
        plan = "\n".join(
            r[0]
            for r in conn.execute(
                "EXPLAIN SELECT record_id FROM embeddings WHERE user_id = 'user3' "
                "AND system_context = 'default' ORDER BY embedding <=> %s::vector LIMIT 5",
                (lit,),
            )
        )
    assert "embeddings_user" in plan
    assert "Seq Scan" not in plan


def test_dimension_is_checked_and_remembered(pgvector_url: str, pgvector_schema: str) -> None:
    first = PgVectorIndex(pgvector_url, schema=pgvector_schema)  # no dimension yet: lazy
    try:
        assert first.dimension is None
        assert first.search("u", "default", np.ones(5, dtype=np.float32), k=3) == []
        first.upsert(
            [
                VectorItem(
                    record_id="r",
                    user_id="u",
                    system_context="default",
                    kind=Kind.FACT,
                    key="k",
                    vector=np.ones(5, dtype=np.float32),
                )
            ]
        )
        assert first.dimension == 5
    finally:
        first.close()
    again = open_pgvector(f"{pgvector_url}&schema={pgvector_schema}")
    try:
        assert again.dimension == 5
        assert again.ids_for_user("u") == {"r"}
    finally:
        again.close()
    with pytest.raises(ConfigError):
        PgVectorIndex(pgvector_url, schema=pgvector_schema, dimension=7)
    with pytest.raises(ConfigError):  # the registry's call shape, dimension in the URL
        open_pgvector(
            f"{pgvector_url}&schema={pgvector_schema}&dimension=7",
            config=MemoryConfig(),
            clock=FakeClock(),
        )


def _bookkeeping(url: str, schema: str, table: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            sql.SQL("SELECT id, name FROM {}.{} ORDER BY id").format(
                sql.Identifier(schema), sql.Identifier(table)
            )
        ).fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]


def test_the_table_goes_through_its_own_migration_list(
    pgvector_url: str, pgvector_schema: str
) -> None:
    # records and vectors share a schema, each list in its own bookkeeping table: reopening
    # either one (in either order) must not reject the other's migrations as unknown
    store = PostgresRecordStore(pgvector_url, schema=pgvector_schema, max_size=2)
    index = PgVectorIndex(pgvector_url, schema=pgvector_schema, dimension=DIM, max_size=2)
    index.close()
    store.close()
    index = PgVectorIndex(pgvector_url, schema=pgvector_schema, max_size=2)
    store = PostgresRecordStore(pgvector_url, schema=pgvector_schema, max_size=2)
    try:
        assert index.dimension == DIM
        vector_list = [(m.id, m.name) for m in pgvector_module.pgvector_migrations(DIM)]
        assert (
            _bookkeeping(pgvector_url, pgvector_schema, pgvector_module.VECTOR_MIGRATIONS_TABLE)
            == vector_list
        )
        records = _bookkeeping(pgvector_url, pgvector_schema, "_usermemory_migrations")
        assert records and not set(records) & set(vector_list)
    finally:
        index.close()
        store.close()


def test_a_table_made_by_the_old_ddl_keeps_working(pgvector_url: str, pgvector_schema: str) -> None:
    # what versions before the migration runner created, with a vector already in it
    ident = sql.Identifier(pgvector_schema)
    with psycopg.connect(pgvector_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(ident))
        conn.execute(
            sql.SQL(
                "CREATE TABLE {}.embeddings (record_id text PRIMARY KEY,"
                " user_id text NOT NULL, system_context text NOT NULL, kind text NOT NULL,"
                " key text NOT NULL, embedding vector({}) NOT NULL)"
            ).format(ident, sql.Literal(DIM))
        )
        conn.execute(
            sql.SQL(
                "CREATE INDEX embeddings_user ON {}.embeddings (user_id, system_context)"
            ).format(ident)
        )
        old = np.zeros(DIM, dtype=np.float32)
        old[0] = 1.0
        conn.execute(
            sql.SQL(
                "INSERT INTO {}.embeddings VALUES ('old', 'u', 'default', 'fact', 'k', %s)"
            ).format(ident),
            ("[" + ",".join(map(str, old.tolist())) + "]",),
        )
    index = PgVectorIndex(pgvector_url, schema=pgvector_schema, max_size=2)
    try:
        assert index.dimension == DIM
        assert _bookkeeping(
            pgvector_url, pgvector_schema, pgvector_module.VECTOR_MIGRATIONS_TABLE
        ) == [(1, "embeddings_table")]
        assert [h.record_id for h in index.search("u", "default", old, k=3)] == ["old"]
        new = np.zeros(DIM, dtype=np.float32)
        new[1] = 1.0
        index.upsert(
            [
                VectorItem(
                    record_id="new",
                    user_id="u",
                    system_context="default",
                    kind=Kind.FACT,
                    key="k2",
                    vector=new,
                )
            ]
        )
        assert [h.record_id for h in index.search("u", "default", new, k=1)] == ["new"]
    finally:
        index.close()
    with PgVectorIndex(pgvector_url, schema=pgvector_schema, max_size=2) as again:
        assert again.ids_for_user("u") == {"old", "new"}


def test_missing_extension_is_reported_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(pgvector_module, "_warned", False)
    caplog.set_level(logging.WARNING, logger="shared_core.storage.pgvector")
    with pytest.raises(BackendUnavailableError, match="pgvector not available"):
        PgVectorIndex(pg_url, dimension=8)
    assert PgVectorIndex.try_open(pg_url, dimension=8) is None
    assert PgVectorIndex.try_open(pg_url, dimension=8) is None
    messages = [r.getMessage() for r in caplog.records if UNAVAILABLE_MESSAGE in r.getMessage()]
    assert len(messages) == 1


def test_unreachable_server_is_not_mistaken_for_missing_extension() -> None:
    with pytest.raises(BackendUnavailableError) as err:
        PgVectorIndex.try_open(
            "postgresql://postgres@127.0.0.1:1/x", dimension=8, connect_timeout=1
        )
    assert UNAVAILABLE_MESSAGE not in str(err.value)


def test_erase_user_clears_embeddings_in_the_same_schema(
    pgvector_url: str, pgvector_schema: str
) -> None:
    clock = FakeClock()
    store = PostgresRecordStore(pgvector_url, schema=pgvector_schema, clock=clock, max_size=2)
    index = PgVectorIndex(pgvector_url, schema=pgvector_schema, dimension=DIM, max_size=2)
    try:
        now = clock.now()
        user = "vector-user-Ξ"
        r = MemoryRecord(
            user_id=user,
            kind=Kind.FACT,
            key="home.city",
            value="Reykjavik-7",
            created_at=now,
            updated_at=now,
        )
        store.apply(WriteBatch(records=[r]))
        index.upsert(
            [
                VectorItem(
                    record_id=r.id,
                    user_id=user,
                    system_context="default",
                    kind=Kind.FACT,
                    key=r.key,
                    vector=np.ones(DIM, dtype=np.float32),
                )
            ]
        )
        index.upsert(
            [
                VectorItem(
                    record_id="other",
                    user_id="other",
                    system_context="default",
                    kind=Kind.FACT,
                    key="k",
                    vector=np.ones(DIM, dtype=np.float32),
                )
            ]
        )
        counts = store.erase_user(user, at=now)
        assert counts["embeddings"] == 1 and counts["records"] == 1
        assert index.ids_for_user(user) == set()
        assert index.ids_for_user("other") == {"other"}
        with psycopg.connect(pgvector_url) as conn:
            for table in ("embeddings", "records"):
                n = conn.execute(
                    sql.SQL(
                        "SELECT count(*) FROM {}.{} t WHERE row_to_json(t)::text ILIKE %s"
                    ).format(sql.Identifier(pgvector_schema), sql.Identifier(table)),
                    (f"%{user}%",),
                ).fetchone()
                assert n == (0,), table
    finally:
        index.close()
        store.close()


def test_pools_reconnect_after_a_server_restart(
    pgserver_instance: Any, pgvector_url: str, pgvector_schema: str
) -> None:
    """A real `pg_ctl restart` (fast mode): both pools serve the next calls."""
    import pgserver

    clock = FakeClock()
    store = PostgresRecordStore(pgvector_url, schema=pgvector_schema, clock=clock, min_size=2)
    index = PgVectorIndex(pgvector_url, schema=pgvector_schema, dimension=DIM, min_size=2)
    try:
        now = clock.now()
        r = MemoryRecord(
            user_id="u",
            kind=Kind.FACT,
            key="k",
            value="before restart",
            created_at=now,
            updated_at=now,
        )
        store.apply(WriteBatch(records=[r]))
        vec = np.ones(DIM, dtype=np.float32)
        index.upsert(
            [
                VectorItem(
                    record_id=r.id,
                    user_id="u",
                    system_context="default",
                    kind=Kind.FACT,
                    key="k",
                    vector=vec,
                )
            ]
        )
        pgserver.pg_ctl(
            ["-w", "-m", "fast", "-l", str(pgserver_instance.log), "restart"],
            pgdata=pgserver_instance.pgdata,
            user=pgserver_instance.system_user,
            timeout=60,
        )
        assert store.get([r.id]) == [r]
        assert [h.record_id for h in index.search("u", "default", vec, k=1)] == [r.id]
        r2 = MemoryRecord(
            user_id="u",
            kind=Kind.FACT,
            key="k2",
            value="after restart",
            created_at=now,
            updated_at=now,
        )
        store.apply(WriteBatch(records=[r2]))
        assert {x.value for x in store.find(RecordFilter(user_id="u"))} == {
            "before restart",
            "after restart",
        }
    finally:
        index.close()
        store.close()
