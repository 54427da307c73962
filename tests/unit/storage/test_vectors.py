"""SqliteVectorIndex: the VectorIndex contract plus persistence, per-user caching and LRU."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from contract.vector_index_contract import DIM, VectorIndexContract, item, uid, vec

from shared_core.entities import Kind
from shared_core.storage.sqlite import SqliteRecordStore
from shared_core.storage.sqlite_base import SqliteDatabase
from shared_core.storage.vectors import NumpyVectorIndex, SqliteVectorIndex


class TestSqliteVectorContract(VectorIndexContract):
    @pytest.fixture
    def index(self) -> Iterator[SqliteVectorIndex]:
        ix = SqliteVectorIndex(":memory:")
        yield ix
        ix.close()


class TestSqliteVectorFileContract(VectorIndexContract):
    @pytest.fixture
    def index(self, tmp_path: Path) -> Iterator[SqliteVectorIndex]:
        ix = SqliteVectorIndex(tmp_path / "v.db", max_cached_users=2)
        yield ix
        ix.close()


def test_numpy_alias_is_the_same_index() -> None:
    assert NumpyVectorIndex is SqliteVectorIndex


def test_vectors_persist_as_float32_blobs(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    u = uid()
    with SqliteVectorIndex(path) as ix:
        ix.upsert([item(u, "r1", vec(3, 4)), item(u, "r2", vec(0, 0, 1))])
    with SqliteVectorIndex(path) as ix:
        assert ix.dimension == DIM
        assert ix.ids_for_user(u) == {"r1", "r2"}
        hits = ix.search(u, "default", vec(3, 4), k=2)
        assert [h.record_id for h in hits] == ["r1", "r2"]
        assert hits[0].similarity == pytest.approx(1.0, abs=1e-6)
        blob, dim = ix.db.conn.execute(
            "SELECT vector, dim FROM vectors WHERE record_id='r1'"
        ).fetchone()
        stored = np.frombuffer(blob, dtype=np.float32)
        assert dim == DIM and len(blob) == DIM * 4
        assert np.allclose(stored, vec(0.6, 0.8))  # normalised on upsert


def test_search_loads_only_that_users_rows() -> None:
    with SqliteVectorIndex(":memory:") as ix:
        users = [uid() for _ in range(20)]
        for u in users:
            ix.upsert([item(u, f"{u}-{i}", vec(1, i)) for i in range(10)])
        statements: list[str] = []
        ix.db.conn.set_trace_callback(statements.append)
        ix.search(users[3], "default", vec(1, 0), k=3)
        ix.search(users[3], "default", vec(0, 1), k=3)  # served from the cache
        ix.db.conn.set_trace_callback(None)
        loads = [s for s in statements if "FROM vectors" in s]
        assert len(loads) == 1 and "WHERE uid =" in loads[0]
        assert ix.cached_users == 1
        plan = " ".join(
            str(r[-1])
            for r in ix.db.conn.execute(
                "EXPLAIN QUERY PLAN SELECT system_context, record_id, kind, vector FROM vectors"
                " WHERE uid = ? AND user_id = ? ORDER BY system_context, record_id",
                (b"x" * 16, "u"),
            )
        )
        assert "USING INDEX vectors_uid" in plan, plan


def test_cache_is_lru_bounded_by_users_and_vectors() -> None:
    with SqliteVectorIndex(":memory:", max_cached_users=3, max_cached_vectors=25) as ix:
        users = [uid() for _ in range(5)]
        for u in users:
            ix.upsert([item(u, f"{u}-{i}", vec(1, i)) for i in range(10)])
        for u in users:
            assert len(ix.search(u, "default", vec(1, 0), k=20)) == 10
        assert ix.cached_users == 2  # 3 users would hold 30 > 25 vectors
        assert set(ix._cache) == set(users[-2:])
        # evicted users are reloaded transparently
        assert ix.search(users[0], "default", vec(1, 0), k=1)[0].record_id == f"{users[0]}-0"


def test_writes_invalidate_the_cached_matrix() -> None:
    with SqliteVectorIndex(":memory:") as ix:
        u = uid()
        ix.upsert([item(u, "a", vec(1, 0))])
        assert [h.record_id for h in ix.search(u, "default", vec(0, 1), k=5)] == ["a"]
        ix.upsert([item(u, "b", vec(0, 1), kind=Kind.FACT)])
        assert [h.record_id for h in ix.search(u, "default", vec(0, 1), k=5)] == ["b", "a"]
        ix.delete(["b"])
        assert [h.record_id for h in ix.search(u, "default", vec(0, 1), k=5)] == ["a"]
        # moving a record id to another user refreshes both users
        other = uid()
        ix.upsert([item(other, "a", vec(1, 0))])
        assert ix.search(u, "default", vec(1, 0), k=5) == []
        assert [h.record_id for h in ix.search(other, "default", vec(1, 0), k=5)] == ["a"]


def test_shared_database_with_record_store_and_erase(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "m.db")
    records = SqliteRecordStore(database=db)
    ix = SqliteVectorIndex(database=db)
    u = uid()
    ix.upsert([item(u, "r", vec(1))])
    assert ix.search(u, "default", vec(1), k=1)
    from datetime import UTC, datetime

    counts = records.erase_user(u, at=datetime(2026, 1, 2, tzinfo=UTC))
    assert counts["vectors"] == 1
    assert ix.search(u, "default", vec(1), k=1) == []  # cache dropped by the erase hook
    records.close()
    assert not db.closed  # still used by the vector index
    ix.close()
    assert db.closed


def test_large_user_top_k_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    with SqliteVectorIndex(":memory:") as ix:
        u = uid()
        mat = rng.standard_normal((500, DIM)).astype(np.float32)
        kinds = [Kind.FACT, Kind.EPISODE]
        ix.upsert([item(u, f"r{i}", mat[i], kind=kinds[i % 2]) for i in range(500)])
        q = rng.standard_normal(DIM).astype(np.float32)
        normed = mat / np.linalg.norm(mat, axis=1, keepdims=True)
        sims = normed @ (q / np.linalg.norm(q))
        want = [f"r{i}" for i in np.argsort(-sims)[:10]]
        hits = ix.search(u, "default", q, k=10)
        assert [h.record_id for h in hits] == want
        odd = [i for i in np.argsort(-sims) if i % 2 == 1][:4]
        got: Any = ix.search(u, "default", q, k=4, kinds=(Kind.EPISODE,))
        assert [h.record_id for h in got] == [f"r{i}" for i in odd]
        assert got[0].similarity == pytest.approx(float(sims[odd[0]]), abs=1e-5)


def test_a_user_with_several_contexts_searches_each_alone(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    u = uid()
    mat = rng.standard_normal((60, DIM)).astype(np.float32)
    ctxs = ["b", "a", "c"]
    items = [
        item(u, f"r{i:02d}", mat[i], ctx=ctxs[i % 3], kind=(Kind.FACT, Kind.EPISODE)[i % 2])
        for i in range(60)
    ]
    with SqliteVectorIndex(tmp_path / "v.db") as ix:
        ix.upsert(items[::-1])  # stored out of order
    with SqliteVectorIndex(tmp_path / "v.db") as ix:  # a cold read of every context
        q = rng.standard_normal(DIM).astype(np.float32)
        sims = (mat / np.linalg.norm(mat, axis=1, keepdims=True)) @ (q / np.linalg.norm(q))
        for n, ctx in enumerate(ctxs):
            mine = [i for i in np.argsort(-sims) if i % 3 == n]
            got = ix.search(u, ctx, q, k=5)
            assert [h.record_id for h in got] == [f"r{i:02d}" for i in mine[:5]]
            facts = ix.search(u, ctx, q, k=3, kinds=(Kind.FACT,))
            assert [h.record_id for h in facts] == [f"r{i:02d}" for i in mine if i % 2 == 0][:3]
        assert ix.search(u, "missing", q, k=5) == []
        assert ix.warm(u) == 60
