"""Ordered, named, transactional schema migrations.

A backend declares its schema as a list of :class:`Migration` and calls
:func:`run_migrations` when it opens. Each pending migration runs in its own
transaction together with the row that records it in ``_usermemory_migrations``, so a
migration is either fully applied and recorded, or not at all. Running again is a
no-op. The mechanism only needs a DB-API connection in autocommit mode with an
``execute`` method (stdlib ``sqlite3`` with ``isolation_level=None``, or a psycopg 3
connection with ``autocommit=True``); the SQL dialect differences live in
:class:`Dialect` (:data:`SQLITE` here; a PostgreSQL backend passes its own).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..clock import Clock, SystemClock
from ..errors import BackendError, ConfigError

__all__ = [
    "MIGRATIONS_TABLE",
    "SQLITE",
    "SQLITE_MIGRATIONS",
    "AppliedMigration",
    "Dialect",
    "Migration",
    "applied_migrations",
    "run_migrations",
]

logger = logging.getLogger(__name__)

MIGRATIONS_TABLE = "_usermemory_migrations"


class _Connection(Protocol):
    def execute(self, sql: str, params: Any = ..., /) -> Any: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Dialect:
    """How one database spells the few statements the runner needs.

    Attributes:
        name: for messages ("sqlite", "postgres").
        placeholder: the DB-API parameter marker (``?`` or ``%s``).
        begin: statements that open a write transaction and serialise concurrent
            migrators (e.g. ``BEGIN IMMEDIATE``; PostgreSQL: ``BEGIN`` plus an advisory lock).
        create_table: DDL of the bookkeeping table (``CREATE TABLE IF NOT EXISTS <table>``).
        table: the bookkeeping table. A component that keeps its own migration list in a
            database another list migrates (pgvector's table next to the records) records
            them in its own table, since each list rejects ids it does not know.
    """

    name: str
    placeholder: str
    begin: tuple[str, ...]
    create_table: str
    table: str = MIGRATIONS_TABLE


SQLITE = Dialect(
    name="sqlite",
    placeholder="?",
    begin=("BEGIN IMMEDIATE",),
    create_table=(
        f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} ("
        " id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
        " checksum TEXT NOT NULL, applied_at TEXT NOT NULL)"
    ),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Migration:
    """One schema step.

    Attributes:
        id: position in the order (strictly increasing, never reused).
        name: a stable, unique, human-readable name.
        statements: SQL run in order inside the migration's transaction.
        apply: optional callable run after ``statements`` with the connection (data fixes).
        transactional: ``False`` for statements a database refuses inside a transaction
            (e.g. PostgreSQL ``CREATE INDEX CONCURRENTLY``); they must be idempotent.
    """

    id: int
    name: str
    statements: tuple[str, ...] = ()
    apply: Callable[[Any], None] | None = field(default=None, compare=False)
    transactional: bool = True

    @property
    def checksum(self) -> str:
        """sha256 of the SQL, to detect a migration edited after it was applied."""
        return hashlib.sha256("\n;\n".join(self.statements).encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class AppliedMigration:
    """A row of ``_usermemory_migrations``."""

    id: int
    name: str
    checksum: str
    applied_at: str


def _validate(migrations: Sequence[Migration]) -> None:
    ids = [m.id for m in migrations]
    if ids != sorted(ids) or len(set(ids)) != len(ids):
        raise ConfigError(f"migration ids must be strictly increasing, got {ids}")
    names = [m.name for m in migrations]
    if len(set(names)) != len(names):
        raise ConfigError("migration names must be unique")


def applied_migrations(conn: _Connection, dialect: Dialect = SQLITE) -> list[AppliedMigration]:
    """The migrations recorded in the database, in order (creates the table if needed)."""
    conn.execute(dialect.create_table)
    rows = conn.execute(
        f"SELECT id, name, checksum, applied_at FROM {dialect.table} ORDER BY id"
    ).fetchall()
    return [AppliedMigration(int(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in rows]


def run_migrations(
    conn: _Connection,
    migrations: Sequence[Migration],
    *,
    dialect: Dialect = SQLITE,
    clock: Clock | None = None,
) -> list[str]:
    """Apply every pending migration, each in its own transaction.

    Args:
        conn: a DB-API connection in autocommit mode.
        migrations: the backend's full, ordered list.
        dialect: SQL spelling of the database.
        clock: time source for ``applied_at``.

    Returns:
        Names of the migrations applied by this call (empty when up to date).

    Raises:
        ConfigError: the list is malformed, or the database was migrated by a different
            list (a recorded id with another name) or by a newer library version.
        BackendError: a migration failed; it was rolled back and nothing was recorded.
    """
    _validate(migrations)
    clk = clock or SystemClock()
    ph = dialect.placeholder
    known = {m.id: m for m in migrations}
    done: list[str] = []
    for applied in applied_migrations(conn, dialect):
        mig = known.get(applied.id)
        if mig is None:
            raise ConfigError(
                f"{dialect.name} database has migration {applied.id} ({applied.name!r}) "
                "unknown to this version of usermemory; upgrade the library"
            )
        if mig.name != applied.name:
            raise ConfigError(
                f"migration {applied.id} is {applied.name!r} in the database "
                f"but {mig.name!r} in code"
            )
        if mig.checksum != applied.checksum:
            logger.warning("migration %s (%s) changed since it was applied", mig.id, mig.name)
    for mig in migrations:
        if not mig.transactional:
            if _run_outside_transaction(conn, mig, dialect, clk):
                done.append(mig.name)
            continue
        for stmt in dialect.begin:
            conn.execute(stmt)
        try:
            row = conn.execute(
                f"SELECT 1 FROM {dialect.table} WHERE id = {ph}", (mig.id,)
            ).fetchone()
            if row is not None:  # applied earlier or by a concurrent process
                conn.execute("COMMIT")
                continue
            _apply(conn, mig, dialect, clk)
            conn.execute("COMMIT")
        except Exception as exc:
            conn.execute("ROLLBACK")
            raise BackendError(
                f"{dialect.name} migration {mig.id} ({mig.name}) failed and was rolled back: {exc}"
            ) from exc
        logger.info("applied %s migration %s (%s)", dialect.name, mig.id, mig.name)
        done.append(mig.name)
    return done


def _apply(conn: _Connection, mig: Migration, dialect: Dialect, clk: Clock) -> None:
    """Run one migration's statements and hook, then record it as applied."""
    ph = dialect.placeholder
    for stmt in mig.statements:
        conn.execute(stmt)
    if mig.apply is not None:
        mig.apply(conn)
    conn.execute(
        f"INSERT INTO {dialect.table} (id, name, checksum, applied_at) "
        f"VALUES ({ph}, {ph}, {ph}, {ph})",
        (mig.id, mig.name, mig.checksum, clk.now().isoformat()),
    )


def _run_outside_transaction(
    conn: _Connection, mig: Migration, dialect: Dialect, clk: Clock
) -> bool:
    ph = dialect.placeholder
    row = conn.execute(f"SELECT 1 FROM {dialect.table} WHERE id = {ph}", (mig.id,)).fetchone()
    if row is not None:
        return False
    try:
        _apply(conn, mig, dialect, clk)
    except Exception as exc:
        raise BackendError(f"{dialect.name} migration {mig.id} ({mig.name}) failed: {exc}") from exc
    return True


# --------------------------------------------------------------------------- SQLite schema
# Indexes key users by ``uid`` (first 16 bytes of sha256(user_id)), never by the raw id:
# b-tree interior pages keep copies of index keys after the rows are gone, so a raw id in
# an index could survive ``erase_user``. Table rows (which do hold the raw id) live only in
# leaf cells, which ``PRAGMA secure_delete`` zeroes on delete.
SQLITE_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        id=1,
        name="initial_schema",
        statements=(
            """CREATE TABLE records (
                id TEXT PRIMARY KEY,
                uid BLOB NOT NULL,
                user_id TEXT NOT NULL,
                system_context TEXT NOT NULL,
                kind TEXT NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                normalized TEXT NOT NULL,
                source TEXT NOT NULL,
                confidence REAL NOT NULL,
                version INTEGER NOT NULL,
                status TEXT NOT NULL,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                valid_until TEXT,
                permanent INTEGER NOT NULL,
                hard INTEGER NOT NULL,
                explicit INTEGER NOT NULL,
                scope TEXT NOT NULL,
                scope_ref TEXT NOT NULL,
                provenance TEXT NOT NULL,
                evidence INTEGER NOT NULL,
                supersedes TEXT,
                metadata TEXT NOT NULL,
                lex TEXT NOT NULL DEFAULT ''
            )""",
            "CREATE INDEX records_lookup ON records (uid, system_context, status, kind, key)",
            "CREATE INDEX records_uid_key ON records (uid, key)",
            "CREATE UNIQUE INDEX records_one_active ON records "
            "(uid, system_context, kind, key, scope_ref) WHERE status = 'active'",
            """CREATE TABLE audit (
                id TEXT PRIMARY KEY,
                uid BLOB NOT NULL,
                user_id TEXT NOT NULL,
                action TEXT NOT NULL,
                record_id TEXT,
                key TEXT,
                actor TEXT NOT NULL,
                at TEXT NOT NULL,
                session_id TEXT,
                turn_id TEXT,
                detail TEXT NOT NULL
            )""",
            "CREATE INDEX audit_uid_at ON audit (uid, at)",
            """CREATE TABLE conflicts (
                id TEXT PRIMARY KEY,
                uid BLOB NOT NULL,
                user_id TEXT NOT NULL,
                system_context TEXT NOT NULL,
                key TEXT NOT NULL,
                record_ids TEXT NOT NULL,
                reason TEXT NOT NULL,
                question TEXT NOT NULL,
                detected_at TEXT NOT NULL,
                resolved_at TEXT
            )""",
            "CREATE INDEX conflicts_uid ON conflicts (uid, system_context)",
            """CREATE TABLE users (
                uid BLOB PRIMARY KEY,
                user_id TEXT NOT NULL,
                has_state INTEGER NOT NULL DEFAULT 0,
                memory_enabled INTEGER NOT NULL DEFAULT 1,
                sessions INTEGER NOT NULL DEFAULT 0,
                turns INTEGER NOT NULL DEFAULT 0,
                first_seen TEXT,
                last_seen TEXT,
                last_session_id TEXT
            )""",
            """CREATE TABLE tombstones (
                id INTEGER PRIMARY KEY,
                subject TEXT NOT NULL,
                erased_at TEXT NOT NULL
            )""",
            "CREATE INDEX tombstones_subject ON tombstones (subject)",
            """CREATE TABLE vectors (
                record_id TEXT PRIMARY KEY,
                uid BLOB NOT NULL,
                user_id TEXT NOT NULL,
                system_context TEXT NOT NULL,
                kind TEXT NOT NULL,
                key TEXT NOT NULL,
                dim INTEGER NOT NULL,
                vector BLOB NOT NULL
            )""",
            "CREATE INDEX vectors_uid ON vectors (uid)",
            "CREATE TABLE _usermemory_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ),
    ),
    # The write fence (erasure epoch + write generation, keyed by the id hash only: it
    # outlives an erase like the tombstone) and the queue of erasures other stores owe.
    Migration(
        id=2,
        name="write_fence_and_erase_queue",
        statements=(
            """CREATE TABLE user_fence (
                uid BLOB PRIMARY KEY,
                epoch INTEGER NOT NULL DEFAULT 0,
                gen INTEGER NOT NULL DEFAULT 0,
                erased_at TEXT
            )""",
            """CREATE TABLE erase_queue (
                uid BLOB NOT NULL,
                store TEXT NOT NULL,
                subject TEXT NOT NULL,
                queued_at TEXT NOT NULL,
                PRIMARY KEY (uid, store)
            )""",
        ),
    ),
)
