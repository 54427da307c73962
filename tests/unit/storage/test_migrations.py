"""The migration runner: ordered, named, transactional, recorded, idempotent."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from shared_core.clock import FakeClock
from shared_core.errors import BackendError, ConfigError
from shared_core.storage.migrations import (
    MIGRATIONS_TABLE,
    SQLITE_MIGRATIONS,
    Migration,
    applied_migrations,
    run_migrations,
)

T = datetime(2026, 7, 1, 8, 0, tzinfo=UTC)


@pytest.fixture
def conn() -> Iterator[sqlite3.Connection]:
    c = sqlite3.connect(":memory:", isolation_level=None)
    yield c
    c.close()


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


M1 = Migration(id=1, name="create_a", statements=("CREATE TABLE a (x INTEGER)",))
M2 = Migration(id=2, name="create_b", statements=("CREATE TABLE b (y TEXT)",))


def test_applies_in_order_and_records(conn: sqlite3.Connection) -> None:
    clock = FakeClock(T)
    assert run_migrations(conn, [M1, M2], clock=clock) == ["create_a", "create_b"]
    assert {"a", "b", MIGRATIONS_TABLE} <= tables(conn)
    recorded = applied_migrations(conn)
    assert [(m.id, m.name, m.applied_at) for m in recorded] == [
        (1, "create_a", T.isoformat()),
        (2, "create_b", T.isoformat()),
    ]
    assert recorded[0].checksum == M1.checksum


def test_second_run_is_a_no_op_and_new_ones_are_appended(conn: sqlite3.Connection) -> None:
    run_migrations(conn, [M1])
    assert run_migrations(conn, [M1]) == []
    assert run_migrations(conn, [M1, M2]) == ["create_b"]
    assert len(applied_migrations(conn)) == 2


def test_failed_migration_rolls_back_and_is_not_recorded(conn: sqlite3.Connection) -> None:
    bad = Migration(
        id=2,
        name="half_done",
        statements=("CREATE TABLE c (z INTEGER)", "INSERT INTO c VALUES (1)", "SELECT * FROM nope"),
    )
    with pytest.raises(BackendError, match="half_done"):
        run_migrations(conn, [M1, bad])
    assert "a" in tables(conn) and "c" not in tables(conn)
    assert [m.name for m in applied_migrations(conn)] == ["create_a"]
    assert not conn.in_transaction


def test_python_step_runs_inside_the_transaction(conn: sqlite3.Connection) -> None:
    def fill(c: Any) -> None:
        c.executemany("INSERT INTO a VALUES (?)", [(i,) for i in range(3)])

    def boom(c: Any) -> None:
        c.execute("INSERT INTO a VALUES (99)")
        raise RuntimeError("data fix failed")

    run_migrations(conn, [M1, Migration(id=2, name="fill", apply=fill)])
    assert conn.execute("SELECT COUNT(*) FROM a").fetchone()[0] == 3
    with pytest.raises(BackendError):
        run_migrations(
            conn,
            [
                M1,
                Migration(id=2, name="fill", apply=fill),
                Migration(id=3, name="boom", apply=boom),
            ],
        )
    assert conn.execute("SELECT COUNT(*) FROM a").fetchone()[0] == 3


def test_non_transactional_migration(conn: sqlite3.Connection) -> None:
    m = Migration(
        id=2, name="outside", statements=("CREATE TABLE IF NOT EXISTS d (q)",), transactional=False
    )
    assert run_migrations(conn, [M1, m]) == ["create_a", "outside"]
    assert run_migrations(conn, [M1, m]) == []
    assert "d" in tables(conn)


@pytest.mark.parametrize(
    "migs",
    [
        [M2, M1],
        [M1, Migration(id=1, name="again")],
        [M1, Migration(id=2, name="create_a")],
    ],
)
def test_malformed_lists_are_config_errors(conn: sqlite3.Connection, migs: list[Migration]) -> None:
    with pytest.raises(ConfigError):
        run_migrations(conn, migs)
    assert MIGRATIONS_TABLE not in tables(conn)


def test_database_from_a_newer_or_different_version(conn: sqlite3.Connection) -> None:
    run_migrations(conn, [M1, M2])
    with pytest.raises(ConfigError, match="upgrade"):
        run_migrations(conn, [M1])
    with pytest.raises(ConfigError, match="create_b"):
        run_migrations(conn, [M1, Migration(id=2, name="renamed")])


def test_edited_migration_is_logged(
    conn: sqlite3.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    run_migrations(conn, [M1])
    edited = Migration(id=1, name="create_a", statements=("CREATE TABLE a (x INTEGER, y)",))
    with caplog.at_level("WARNING"):
        assert run_migrations(conn, [edited]) == []
    assert "changed since it was applied" in caplog.text


def test_sqlite_schema_has_the_documented_tables_and_indexes(conn: sqlite3.Connection) -> None:
    run_migrations(conn, SQLITE_MIGRATIONS)
    assert {"records", "audit", "conflicts", "users", "tombstones", "vectors"} <= tables(conn)
    idx = {
        r[0]: r[1] for r in conn.execute("SELECT name, sql FROM sqlite_master WHERE type='index'")
    }
    assert "WHERE status = 'active'" in idx["records_one_active"]
    assert "UNIQUE" in idx["records_one_active"]
    assert {"records_lookup", "records_uid_key", "audit_uid_at", "vectors_uid"} <= set(idx)
