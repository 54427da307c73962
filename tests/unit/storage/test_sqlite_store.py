"""SqliteRecordStore: the RecordStore contract plus SQLite specifics (WAL, migrations,
atomic batches, thread safety, query plans, erasure from the file bytes)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from contract.record_store_contract import T0, RecordStoreContract, rec, uid

from shared_core.clock import FakeClock
from shared_core.entities import AuditEntry, Conflict, Kind, Provenance, Status, UserState
from shared_core.errors import BackendError, BackendUnavailableError, ConflictError
from shared_core.storage.migrations import MIGRATIONS_TABLE
from shared_core.storage.protocols import RecordFilter, VectorItem, WriteBatch
from shared_core.storage.sqlite import SqliteRecordStore
from shared_core.storage.sqlite_base import SqliteDatabase
from shared_core.storage.vectors import SqliteVectorIndex


class TestSqliteMemoryContract(RecordStoreContract):
    @pytest.fixture
    def store(self) -> Iterator[SqliteRecordStore]:
        s = SqliteRecordStore(":memory:", clock=FakeClock(T0))
        yield s
        s.close()


class TestSqliteFileContract(RecordStoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[SqliteRecordStore]:
        s = SqliteRecordStore(tmp_path / "nested" / "dir" / "memory.db", clock=FakeClock(T0))
        yield s
        s.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


def pragma(store: SqliteRecordStore, name: str) -> Any:
    return store.db.conn.execute(f"PRAGMA {name}").fetchone()[0]


def test_file_db_uses_wal_and_safe_pragmas(db_path: Path) -> None:
    with SqliteRecordStore(db_path) as s:
        assert pragma(s, "journal_mode") == "wal"
        assert pragma(s, "synchronous") == 1  # NORMAL
        assert pragma(s, "foreign_keys") == 1
        assert pragma(s, "secure_delete") == 1
    assert db_path.exists()


def test_migrations_are_recorded_and_idempotent(db_path: Path) -> None:
    clock = FakeClock(T0)
    db = SqliteDatabase(db_path, clock=clock)
    assert db.applied == ["initial_schema", "write_fence_and_erase_queue"]
    rows = db.conn.execute(f"SELECT id, name, applied_at FROM {MIGRATIONS_TABLE}").fetchall()
    assert rows == [
        (1, "initial_schema", T0.isoformat()),
        (2, "write_fence_and_erase_queue", T0.isoformat()),
    ]
    db.close()
    db2 = SqliteDatabase(db_path, clock=clock)
    assert db2.applied == []
    assert db2.conn.execute(f"SELECT COUNT(*) FROM {MIGRATIONS_TABLE}").fetchone()[0] == 2
    db2.close()


def test_reopen_keeps_data(db_path: Path) -> None:
    u = uid()
    r = rec(u, "drink", "oolong", provenance=Provenance(span="I drink oolong"))
    with SqliteRecordStore(db_path) as s:
        s.apply(WriteBatch(records=[r], user_state=UserState(user_id=u, turns=1)))
    with SqliteRecordStore(db_path) as s:
        assert s.get([r.id]) == [r]
        assert s.user_state(u) == UserState(user_id=u, turns=1)
        assert s.lexical_search(u, "default", "oolong", limit=1)[0].record_id == r.id


def test_conflict_mid_batch_rolls_back_everything(db_path: Path) -> None:
    with SqliteRecordStore(db_path) as s:
        u = uid()
        s.apply(WriteBatch(records=[rec(u, "name", "Ann")]))
        ok = [rec(u, f"k{i}", f"v{i}") for i in range(20)]
        clash = rec(u, "name", "Bob", minutes=1)
        batch = WriteBatch(
            records=[*ok, clash],
            audit=[AuditEntry(user_id=u, action="create", at=T0)],
            conflicts=[
                Conflict(
                    user_id=u,
                    system_context="default",
                    key="name",
                    record_ids=("x",),
                    reason="r",
                    question="q",
                    detected_at=T0,
                )
            ],
            user_state=UserState(user_id=u, turns=99),
        )
        with pytest.raises(ConflictError):
            s.apply(batch)
        assert s.get([r.id for r in ok]) == []
        assert s.audit_log(u) == [] and s.conflicts(u) == [] and s.user_state(u) is None
        assert len(s.find(RecordFilter(user_id=u))) == 1
        assert not s.db.conn.in_transaction


class _FailingConnection:
    """Delegates to a real connection but fails one statement, like a disk error would."""

    def __init__(self, conn: sqlite3.Connection, marker: str) -> None:
        self._conn, self._marker = conn, marker

    def executemany(self, sql: str, rows: Any) -> Any:
        if self._marker in sql:
            raise sqlite3.OperationalError("disk I/O error (injected)")
        return self._conn.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def test_driver_failure_mid_batch_is_backend_error_and_rolls_back(db_path: Path) -> None:
    with SqliteRecordStore(db_path) as s:
        u = uid()
        real = s.db.conn
        s.db.conn = _FailingConnection(real, "INTO conflicts")  # type: ignore[assignment]
        r = rec(u, "k", "v")
        try:
            with pytest.raises(BackendError, match="injected"):
                s.apply(
                    WriteBatch(
                        records=[r],
                        audit=[AuditEntry(user_id=u, action="create", at=T0)],
                        conflicts=[
                            Conflict(
                                user_id=u,
                                system_context="default",
                                key="k",
                                record_ids=(r.id,),
                                reason="r",
                                question="q",
                                detected_at=T0,
                            )
                        ],
                    )
                )
        finally:
            s.db.conn = real
        assert s.get([r.id]) == [] and s.audit_log(u) == [] and u not in s.users()
        s.apply(WriteBatch(records=[r]))  # the store is still usable
        assert s.get([r.id]) == [r]


def test_nul_bytes_round_trip(db_path: Path) -> None:
    with SqliteRecordStore(db_path) as s:
        u = "user\x00with\x00nuls"
        r = rec(u, "k\x00ey", "va\x00lue")
        s.apply(WriteBatch(records=[r]))
        assert s.find(RecordFilter(user_id=u)) == [r]
        assert s.find(RecordFilter(user_id="user")) == []


def test_lexical_cache_follows_writes_across_contexts() -> None:
    with SqliteRecordStore(":memory:") as s:
        u = uid()
        r = rec(u, "drink", "kombucha")
        s.apply(WriteBatch(records=[r]))
        assert s.lexical_search(u, "default", "kombucha", limit=1)
        # the same id moved to another context: both cached corpora must refresh
        s.apply(WriteBatch(records=[r.replace(system_context="work")]))
        assert s.lexical_search(u, "default", "kombucha", limit=1) == []
        assert s.lexical_search(u, "work", "kombucha", limit=1)[0].record_id == r.id


def test_plural_and_singular_match() -> None:
    with SqliteRecordStore(":memory:") as s:
        u = uid()
        r = rec(u, "allergy.food", "strawberries and peanuts")
        s.apply(WriteBatch(records=[r]))
        assert s.lexical_search(u, "default", "strawberry allergy?", limit=1)[0].record_id == r.id
        assert s.lexical_search(u, "default", "peanut", limit=1)[0].record_id == r.id


def test_stale_lexical_tokens_are_rebuilt_on_open(db_path: Path) -> None:
    u = uid()
    r = rec(u, "drink", "sencha")
    with SqliteRecordStore(db_path) as s:
        s.apply(WriteBatch(records=[r]))
        s.db.conn.execute("UPDATE records SET lex = ''")
        s.db.conn.execute("UPDATE _usermemory_meta SET value = '0' WHERE name='lexical_version'")
    with SqliteRecordStore(db_path) as s:
        assert s.lexical_search(u, "default", "sencha", limit=1)[0].record_id == r.id


def test_per_user_queries_use_the_uid_indexes() -> None:
    with SqliteRecordStore(":memory:") as s:
        conn = s.db.conn

        def plan(sql: str, params: tuple[Any, ...]) -> str:
            return " | ".join(str(r[-1]) for r in conn.execute("EXPLAIN QUERY PLAN " + sql, params))

        uid_b = b"0" * 16
        lex = plan(
            "SELECT id, status, lex FROM records WHERE uid = ? AND system_context = ?"
            " AND user_id = ?",
            (uid_b, "default", "u"),
        )
        assert "USING INDEX records_lookup" in lex, lex
        find = plan(
            "SELECT id FROM records WHERE uid = ? AND user_id = ? AND system_context = ?"
            " AND status IN (?) ORDER BY updated_at DESC",
            (uid_b, "u", "default", "active"),
        )
        assert "USING INDEX records_lookup" in find, find
        hist = plan(
            "SELECT id FROM records WHERE uid = ? AND user_id = ? AND key = ?", (uid_b, "u", "k")
        )
        assert "USING INDEX records_uid_key" in hist, hist
        audit = plan(
            "SELECT id FROM audit WHERE uid = ? AND user_id = ? ORDER BY at DESC", (uid_b, "u")
        )
        assert "USING INDEX audit_uid_at" in audit, audit


def test_concurrent_writers_from_threads(db_path: Path) -> None:
    with SqliteRecordStore(db_path) as s:
        errors: list[BaseException] = []

        def work(n: int) -> None:
            try:
                u = f"thread-{n}"
                for i in range(25):
                    s.apply(WriteBatch(records=[rec(u, f"k{i}", f"value {i}")]))
                    s.lexical_search(u, "default", "value", limit=3)
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        for n in range(8):
            assert len(s.find(RecordFilter(user_id=f"thread-{n}"))) == 25


def test_closed_store_is_unavailable() -> None:
    s = SqliteRecordStore(":memory:")
    s.close()
    s.close()  # idempotent
    with pytest.raises(BackendUnavailableError):
        s.find(RecordFilter(user_id="u"))


def test_erase_leaves_no_trace_in_the_files(db_path: Path) -> None:
    victim = "victim-aa7f3@example.org"
    secrets = ["zyxw-penicillin-4711", "qqmx-harbour-street-9", "密钥青霉素七七七"]
    clock = FakeClock(T0)
    db = SqliteDatabase(db_path, clock=clock)
    store = SqliteRecordStore(database=db)
    vectors = SqliteVectorIndex(database=db)
    rng = np.random.default_rng(7)
    # Enough other users that every table and index has interior b-tree pages.
    for n in range(150):
        other = f"other-{n:04d}"
        rows = [rec(other, f"k{i}", f"filler value {n} {i} " * 4) for i in range(20)]
        store.apply(WriteBatch(records=rows, audit=[AuditEntry(user_id=other, action="c", at=T0)]))
        vectors.upsert(
            [
                VectorItem(
                    record_id=r.id,
                    user_id=other,
                    system_context="default",
                    kind=Kind.FACT,
                    key=r.key,
                    vector=rng.standard_normal(16).astype(np.float32),
                )
                for r in rows[:5]
            ]
        )
    mine = [
        rec(
            victim,
            f"secret.{i}",
            s,
            provenance=Provenance(span=f"I said {s}"),
            metadata={"note": s},
            kind=Kind.CONSTRAINT,
        )
        for i, s in enumerate(secrets)
    ]
    old = mine[0].replace(id="old-version-id", status=Status.SUPERSEDED, version=0)
    store.apply(
        WriteBatch(
            records=[old, *mine],
            audit=[
                AuditEntry(
                    user_id=victim, action="create", key=f"secret.{i}", at=T0, detail={"value": s}
                )
                for i, s in enumerate(secrets)
            ],
            conflicts=[
                Conflict(
                    user_id=victim,
                    system_context="default",
                    key="secret.0",
                    record_ids=(mine[0].id,),
                    reason=secrets[1],
                    question=f"Is it {secrets[2]}?",
                    detected_at=T0,
                )
            ],
            user_state=UserState(user_id=victim, turns=3, last_session_id="sess-" + victim),
        )
    )
    vectors.upsert(
        [
            VectorItem(
                record_id=r.id,
                user_id=victim,
                system_context="default",
                kind=Kind.FACT,
                key=r.key,
                vector=rng.standard_normal(16).astype(np.float32),
            )
            for r in mine
        ]
    )
    assert vectors.search(victim, "default", np.ones(16, dtype=np.float32), k=5)
    counts = store.erase_user(victim, at=T0 + timedelta(days=1))
    assert counts == {"records": 4, "audit": 3, "conflicts": 1, "vectors": 3, "users": 1}
    assert vectors.search(victim, "default", np.ones(16, dtype=np.float32), k=5) == []
    assert store.audit_log(victim) == []
    assert store.erased_at(victim) == [T0 + timedelta(days=1)]
    needles = [victim, *secrets]
    live = {p.name: p.read_bytes() for p in db_path.parent.iterdir() if p.is_file()}
    assert {db_path.name, db_path.name + "-wal", db_path.name + "-shm"} <= set(live)
    for name, data in live.items():  # while the database is still open
        for needle in needles:
            assert needle.encode() not in data, f"{needle!r} in open {name}"
    store.close()
    vectors.close()
    assert db.closed

    blobs = {p.name: p.read_bytes() for p in db_path.parent.iterdir() if p.is_file()}
    assert db_path.name in blobs
    for name, data in blobs.items():
        for needle in needles:
            assert needle.encode() not in data, f"{needle!r} still in {name}"
    # the check can see data that is still there
    assert b"filler value 149" in blobs[db_path.name]
    assert b"other-0149" in blobs[db_path.name]
    with SqliteRecordStore(db_path) as again:
        assert victim not in again.users()
        assert again.erased_at(victim) == [T0 + timedelta(days=1)]
        tomb = again.db.conn.execute("SELECT subject FROM tombstones").fetchall()
        assert len(tomb) == 1 and len(tomb[0][0]) == 64


def test_a_file_that_is_not_a_database_is_a_backend_error(tmp_path: Path) -> None:
    bogus = tmp_path / "not-a.db"
    bogus.write_bytes(b"this is definitely not an sqlite file" * 200)
    with pytest.raises(BackendError):
        SqliteRecordStore(bogus)
    assert bogus.read_bytes().startswith(b"this is definitely")  # left untouched


def test_failed_commit_path_leaves_no_open_transaction() -> None:
    db = SqliteDatabase(":memory:")
    with pytest.raises(BackendError), db.transaction() as conn:
        conn.execute("INSERT INTO no_such_table VALUES (1)")
    assert not db.conn.in_transaction
    with pytest.raises(RuntimeError), db.transaction() as conn:
        conn.execute("INSERT INTO tombstones (subject, erased_at) VALUES ('s', 't')")
        raise RuntimeError("caller failed")
    assert db.conn.execute("SELECT COUNT(*) FROM tombstones").fetchone()[0] == 0
    db.close()
