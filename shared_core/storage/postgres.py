"""PostgreSQL record store (psycopg 3 + psycopg_pool), the production ``RecordStore``.

URL: ``postgresql://user:pass@host:5432/db?schema=usermemory&pool_max=10`` (``postgres://``
works too; ``schema``/``pool_min``/``pool_max`` are ours, every other parameter goes to
libpq). All tables live in one schema (default ``usermemory``), created by versioned
migrations recorded in ``<schema>._usermemory_migrations``:

- ``records``: every version of every memory. A partial unique index keeps at most one
  ``active`` row per slot (user_id, system_context, kind, key, scope_ref); a second active
  writer gets :class:`~shared_core.errors.ConflictError`. Rows are upserted with
  ``ON CONFLICT (id)``; an update only applies when the stored ``version`` equals the
  incoming one (optimistic locking), else ``ConflictError``. A ``search`` tsvector
  (GIN-indexed) holds the :func:`shared_core.storage.lexical.tokenize` tokens of key
  (weight A), value/normalized (B) and the provenance span (C).
- No profile table: ``UserMemory.profile()`` reads the records (it filters by expiry, decay
  and recallability, which a stored key -> value document cannot), and a profile cache
  (``StorageSpec(cache="redis://...")``) is its fast path. Migration 3 drops the JSONB
  ``profiles`` document earlier versions kept on every write (``benchmarks/pg_profile.py``
  at commit 00ff6aa measured it; numbers in the README, "PostgreSQL profile document").
- ``audit``, ``conflicts``, ``users`` (memory_enabled and session counters),
  ``tombstones`` (sha256 of an erased user id, time and counts) and ``records_archive``.

PostgreSQL text and jsonb cannot hold NUL characters; the store writes them through a
reversible escape (U+E000 prefix, see :func:`shared_core.storage.postgres_sql.enc`) so any
Unicode string round-trips, and lone surrogates raise InvalidInputError.

Archive (:meth:`PostgresRecordStore.archive_older_than`): a row moves when it was last
updated before ``now - days`` and is neither ``permanent`` nor ``hard``, and it is stale:
not active (superseded / revoked / pending), or an episode, or implicit (inferred; its
decay has long reached zero), or expired (``valid_until <= now``). Active explicit
memories never move: they are the user's current truth. Reads opt in with
``include_archive=True``; writing an archived id moves it back.

Erase (:meth:`PostgresRecordStore.erase_user`) deletes the user's rows from every table of
the schema that has a ``user_id`` column (so also a pgvector ``embeddings`` table in the same
schema) and leaves only a tombstone. Deleted tuples stay in the heap files until VACUUM
and in WAL/backups until they rotate; run ``VACUUM`` on a schedule where that matters.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..clock import Clock, SystemClock, as_utc
from ..config import MemoryConfig
from ..entities import AuditEntry, Conflict, MemoryRecord, Status, UserState, new_id
from ..errors import ConfigError, ConflictError, InvalidInputError
from ..metrics import Metrics
from . import postgres_sql as q
from .migrations import applied_migrations, run_migrations
from .postgres_pool import DEFAULT_READ_TIMEOUT, PgPool, pool_options
from .postgres_sql import (
    COLS,
    POSTGRES_MIGRATIONS,
    dec,
    driver,
    enc,
    pg_errors,
    record_params,
    row_to_record,
    split_postgres_url,
)
from .postgres_users import PostgresUserTables
from .protocols import (
    LexicalHit,
    RecordFilter,
    WriteBatch,
    unerased_audit,
)

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresRecordStore", "migrate_schema", "open_postgres"]

log = logging.getLogger(__name__)


def open_postgres(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> PostgresRecordStore:
    """Registry factory: a :class:`PostgresRecordStore` for a ``postgresql://`` URL.

    Args:
        url: ``postgresql://user@host:5432/db?schema=usermemory&pool_min=1&pool_max=10``;
            also ``read_timeout``, ``connect_timeout`` and ``probe_interval`` (seconds, see
            :mod:`shared_core.storage.postgres_pool`).
        config: the memory configuration (kept for the registry's uniform signature).
        clock: time source for migration bookkeeping.

    Raises:
        ConfigError: a malformed URL.
        BackendUnavailableError: the server cannot be reached.
        MissingDependencyError: psycopg is not installed (the [postgres] extra).
    """
    conninfo, ours = split_postgres_url(url)
    try:
        pool_min = int(ours.get("pool_min", "1"))
        pool_max = int(ours.get("pool_max", "10"))
    except ValueError as exc:
        raise ConfigError(f"pool_min/pool_max must be integers in {url!r}") from exc
    return PostgresRecordStore(
        conninfo,
        schema=ours.get("schema", "usermemory"),
        clock=clock,
        config=config,
        min_size=pool_min,
        max_size=pool_max,
        **pool_options(ours, url),
    )


def migrate_schema(
    conninfo: str, schema: str, *, kwargs: dict[str, Any], clock: Clock
) -> list[str]:
    """Create ``schema`` if needed and apply pending :data:`POSTGRES_MIGRATIONS`.

    Uses a dedicated autocommit connection and
    :func:`shared_core.storage.migrations.run_migrations` (one transaction per migration);
    a session advisory lock serialises concurrent migrators, including the
    ``IF NOT EXISTS`` DDL that otherwise races between processes.

    Returns:
        Names of the migrations applied (empty when up to date).
    """
    psycopg, _ = driver()
    from psycopg import sql

    with pg_errors(), psycopg.connect(conninfo, autocommit=True, **kwargs) as conn:
        ident = sql.Identifier(schema)
        lock_key = f"usermemory:{schema}"
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (lock_key,))
        try:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(ident))
            conn.execute(sql.SQL("SET search_path TO {}, public").format(ident))
            return run_migrations(
                conn, POSTGRES_MIGRATIONS, dialect=q.postgres_dialect(schema), clock=clock
            )
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (lock_key,))


class PostgresRecordStore(PostgresUserTables):
    """:class:`~shared_core.storage.protocols.RecordStore` on PostgreSQL.

    Args:
        conninfo: a libpq URL or ``key=value`` string (without our ``schema``/``pool_*``).
        schema: the schema holding every table (created if missing); ``[a-z_][a-z0-9_]*``.
        clock: time source for bookkeeping (migrations).
        config: memory configuration (kept for the registry's uniform signature).
        min_size: connections the pool keeps open.
        max_size: most connections the pool opens.
        timeout: seconds to wait for a pooled connection before BackendUnavailableError.
        connect_timeout: libpq connect timeout in seconds.
        read_timeout: seconds a statement may take; a server that stops answering is
            given up on after it (see :mod:`shared_core.storage.postgres_pool`).
        probe_interval: after the server failed to answer, calls fail at once
            (BackendUnavailableError) until a probe this many seconds later.
        application_name: shown in ``pg_stat_activity``.
        metrics: counts the server's outages (``backend_degraded{backend="postgresql"}``).

    Raises:
        BackendUnavailableError: the server cannot be reached.
        ConfigError: the schema name is invalid.
    """

    #: ``get``/``find``/``lexical_search`` accept ``include_archive=True`` (recall opts in).
    supports_archive = True

    def __init__(
        self,
        conninfo: str,
        *,
        schema: str = "usermemory",
        clock: Clock | None = None,
        config: MemoryConfig | None = None,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 10.0,
        connect_timeout: int = 5,
        read_timeout: float | None = DEFAULT_READ_TIMEOUT,
        probe_interval: float = 5.0,
        application_name: str = "usermemory",
        metrics: Metrics | None = None,
    ) -> None:
        if not q.SCHEMA_RE.match(schema):
            raise ConfigError(f"invalid schema name {schema!r}: use [a-z_][a-z0-9_]*")
        self.schema = schema
        self.clock: Clock = clock or SystemClock()
        self.config = config or MemoryConfig()
        self._conninfo = conninfo
        self._pool = PgPool(
            conninfo,
            options=f"-c search_path={schema},public -c timezone=UTC",
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            connect_timeout=connect_timeout,
            read_timeout=read_timeout,
            probe_interval=probe_interval,
            application_name=application_name,
            metrics=metrics,
        )
        self.breaker = self._pool.breaker
        try:
            self.applied = self.migrate()
        except BaseException:
            self._pool.close()
            raise

    # -- plumbing -------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection inside one transaction (committed on success)."""
        with self._pool.connection() as conn:
            yield conn

    @contextmanager
    def read(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection for ONE read statement: no transaction block (autocommit),
        so no ``BEGIN``/``COMMIT`` round trips; a single statement sees one snapshot
        either way. Reads of several statements that must agree use :meth:`transaction`."""
        with self._pool.connection(autocommit=True) as conn:
            yield conn

    def migrate(self) -> list[str]:
        """Apply pending :data:`POSTGRES_MIGRATIONS`, each in its own transaction.

        Runs on a dedicated autocommit connection through
        :func:`shared_core.storage.migrations.run_migrations`, serialised across processes
        by an advisory lock. Returns the names applied (empty when up to date).
        """
        kwargs = {k: v for k, v in self._pool.kwargs.items() if k != "options"}
        kwargs["options"] = f"-c search_path={self.schema},public -c timezone=UTC"
        return migrate_schema(self._conninfo, self.schema, kwargs=kwargs, clock=self.clock)

    def applied_migrations(self) -> list[tuple[int, str]]:
        """(id, name) of every migration recorded in the schema, in order."""
        with self.transaction() as conn:
            return [
                (m.id, m.name) for m in applied_migrations(conn, q.postgres_dialect(self.schema))
            ]

    def after_fork(self) -> None:
        """In a forked child: a pool of its own (see :meth:`PgPool.after_fork`)."""
        self._pool.after_fork()

    def close(self) -> None:
        """Close the connection pool (idempotent)."""
        self._pool.close()

    def __enter__(self) -> PostgresRecordStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writes ---------------------------------------------------------------------------

    def apply(self, batch: WriteBatch) -> None:
        """Commit the whole batch in one transaction, or nothing.

        Records are upserted by id; an existing row is only replaced when its stored
        ``version`` equals the record's (optimistic locking).

        Raises:
            ConflictError: the stored version differs (a concurrent writer), or a second
                active record for one slot; nothing was written.
            InvalidInputError: a value PostgreSQL cannot store (NUL characters).
            BackendError: the database failed; nothing was committed.
        """
        if not batch:
            return
        psycopg, _ = driver()
        # Non-active versions first, so a supersede frees the slot before the new version.
        records = sorted(batch.records, key=lambda r: r.status is Status.ACTIVE)
        params = [record_params(r) for r in records]
        audit = [q.audit_params(a) for a in batch.audit]
        conflicts = [q.conflict_params(c) for c in batch.conflicts]
        resolved = [(when, enc(cid)) for cid, when in batch.resolved_conflicts]
        state = None if batch.user_state is None else q.user_params(batch.user_state)
        touch = None if batch.touch is None else q.touch_params(batch.touch)
        written_users = batch.written_users()
        with self.transaction() as conn:
            self._move_fences(conn, written_users, batch.expected())
            if audit:
                audit = unerased_audit(
                    batch.audit,
                    audit,
                    written_users,
                    lambda u: self._erased_at(conn, u),
                    lambda entry, _: as_utc(entry.at),
                )
            if records:
                ids = [p["id"] for p in params]
                conn.execute("DELETE FROM records_archive WHERE id = ANY(%s)", (ids,))
            for rec, p in zip(records, params, strict=True):
                try:
                    row = conn.execute(q.UPSERT_RECORD, p).fetchone()
                except psycopg.errors.UniqueViolation as exc:
                    raise ConflictError(
                        f"another active record holds the slot of key {rec.key!r}"
                    ) from exc
                if row is None:
                    raise ConflictError(
                        f"record {rec.id} was changed concurrently (stored version is not "
                        f"{rec.version}); reload and retry"
                    )
            if audit:
                with conn.cursor() as cur:
                    cur.executemany(q.INSERT_AUDIT, audit)
            with conn.cursor() as cur:
                if conflicts:
                    cur.executemany(q.UPSERT_CONFLICT, conflicts)
                if resolved:
                    cur.executemany("UPDATE conflicts SET resolved_at = %s WHERE id = %s", resolved)
            if state is not None:
                conn.execute(q.UPSERT_USER, state)
            if touch is not None:
                conn.execute(q.TOUCH_USER, touch)

    # -- reads ----------------------------------------------------------------------------

    def _records(self, sql_text: str, params: dict[str, Any]) -> list[MemoryRecord]:
        with self.read() as conn:
            return [row_to_record(r) for r in conn.execute(sql_text.encode(), params)]

    def get(
        self, record_ids: Sequence[str], *, include_archive: bool = False
    ) -> list[MemoryRecord]:
        """The records with these ids (any status), in no particular order.

        Args:
            record_ids: ids to fetch (unknown ids are skipped).
            include_archive: also return archived records.
        """
        ids = [enc(i) for i in dict.fromkeys(record_ids)]
        if not ids:
            return []
        sql_text = f"SELECT {COLS} FROM records WHERE id = ANY(%(ids)s)"
        if include_archive:
            sql_text += f" UNION ALL SELECT {COLS} FROM records_archive WHERE id = ANY(%(ids)s)"
        return self._records(sql_text, {"ids": ids})

    def archived_ids(self, record_ids: Sequence[str]) -> set[str]:
        """Which of ``record_ids`` are in ``records_archive`` (moved by the archive job).

        Args:
            record_ids: ids to check (unknown ids are ignored).

        Returns:
            The subset of the ids that is archived.
        """
        ids = [enc(i) for i in dict.fromkeys(record_ids)]
        if not ids:
            return set()
        with self.read() as conn:
            rows = conn.execute("SELECT id FROM records_archive WHERE id = ANY(%s)", (ids,))
            return {dec(r[0]) for r in rows}

    def find(self, flt: RecordFilter, *, include_archive: bool = False) -> list[MemoryRecord]:
        """Records of one user matching the filter, newest ``updated_at`` first.

        Args:
            flt: the filter.
            include_archive: also search ``records_archive``.
        """
        sql_text, params = q.find_query(flt, include_archive=include_archive)
        return self._records(sql_text, params)

    def history(
        self, user_id: str, key: str, *, system_context: str | None = None
    ) -> list[MemoryRecord]:
        """Every version of ``key`` (all kinds and scopes, archived ones too), oldest first."""
        cond = "user_id = %(u)s AND key = %(k)s"
        if system_context is not None:
            cond += " AND system_context = %(ctx)s"
        sql_text = (
            f"SELECT {COLS} FROM records WHERE {cond} UNION ALL SELECT {COLS} FROM "
            f"records_archive WHERE {cond} ORDER BY created_at, version, updated_at, id"
        )
        ctx = None if system_context is None else enc(system_context)
        return self._records(sql_text, {"u": enc(user_id), "k": enc(key), "ctx": ctx})

    def lexical_search(
        self,
        user_id: str,
        system_context: str,
        query: str,
        *,
        limit: int,
        statuses: tuple[Status, ...] = (Status.ACTIVE,),
        include_archive: bool = False,
    ) -> list[LexicalHit]:
        """Full-text search of one user's records ranked by ``ts_rank_cd`` (higher = better).

        The query is tokenized like the records (``lexical.tokenize``) and the tokens are
        OR-ed as quoted lexemes, so ``' & | ! : * ( ) \\`` are plain text, never syntax.

        Args:
            user_id: the user.
            system_context: the context searched.
            query: free text (English, Chinese or mixed).
            limit: most hits returned.
            statuses: record statuses searched.
            include_archive: also search ``records_archive``.
        """
        tsq = q.to_tsquery_literal(query)
        if not tsq or limit <= 0:
            return []
        tables = ("records", "records_archive") if include_archive else ("records",)
        sql_text = " UNION ALL ".join(q.LEXICAL_PART.format(table=t) for t in tables)
        sql_text += " ORDER BY score DESC, updated_at DESC, id LIMIT %(lim)s"
        p = {"q": tsq, "u": enc(user_id), "ctx": enc(system_context), "lim": int(limit),
             "st": [Status(s).value for s in statuses]}  # fmt: skip
        with self.read() as conn:
            return [LexicalHit(dec(r[0]), float(r[1])) for r in conn.execute(sql_text.encode(), p)]

    def conflicts(
        self, user_id: str, system_context: str | None = "default", *, open_only: bool = True
    ) -> list[Conflict]:
        """The user's conflicts (only unresolved ones by default), oldest first."""
        sql_text = f"SELECT {q.CONFLICT_COLS} FROM conflicts WHERE user_id = %(u)s"
        if system_context is not None:
            sql_text += " AND system_context = %(ctx)s"
        if open_only:
            sql_text += " AND resolved_at IS NULL"
        sql_text += " ORDER BY detected_at, id"
        with self.read() as conn:
            ctx = None if system_context is None else enc(system_context)
            rows = conn.execute(sql_text.encode(), {"u": enc(user_id), "ctx": ctx}).fetchall()
        return [q.row_to_conflict(r) for r in rows]

    def audit_log(self, user_id: str, *, limit: int | None = None) -> list[AuditEntry]:
        """The user's audit entries, oldest first (the newest ``limit`` if given)."""
        sql_text = (
            f"SELECT {q.AUDIT_COLS} FROM audit WHERE user_id = %(u)s ORDER BY at DESC, seq DESC"
        )
        if limit is not None:
            sql_text += " LIMIT %(lim)s"
        with self.read() as conn:
            rows = conn.execute(sql_text.encode(), {"u": enc(user_id), "lim": limit}).fetchall()
        return [q.row_to_audit(r) for r in reversed(rows)]

    def user_state(self, user_id: str) -> UserState | None:
        """The user's bookkeeping row (memory switch, counters), or ``None``."""
        with self.read() as conn:
            r = conn.execute(
                f"SELECT {q.USER_COLS} FROM users WHERE user_id = %s".encode(), (enc(user_id),)
            ).fetchone()
        return None if r is None else q.row_to_user(r)

    def users(self) -> list[str]:
        """Every user id with anything stored, sorted."""
        with self.read() as conn:
            return [dec(r[0]) for r in conn.execute(q.USERS)]

    # -- archive, erase, export -----------------------------------------------------------

    def archive_older_than(
        self, days: float = 180, *, now: datetime, user_id: str | None = None
    ) -> int:
        """Move stale rows last updated before ``now - days`` to ``records_archive``.

        One transaction moves the rows and writes one ``archive`` audit entry per affected
        user. Which rows move is documented in the module docstring (never permanent, hard
        or active explicit memories).

        Args:
            days: age threshold (default 180).
            now: the current time (from the caller's clock).
            user_id: only this user's rows (default: everyone).

        Returns:
            The number of rows moved.
        """
        if days < 0:
            raise InvalidInputError("days must be >= 0")
        now = as_utc(now)
        u = None if user_id is None else enc(user_id)
        p: dict[str, Any] = {"cutoff": now - timedelta(days=days), "now": now, "u": u}
        only_user = " AND user_id = %(u)s" if user_id is not None else ""
        sql_text = (
            f"WITH moved AS (DELETE FROM records WHERE {q.ARCHIVABLE}{only_user} RETURNING *) "
            f"INSERT INTO records_archive ({COLS}, search, archived_at) "
            f"SELECT {COLS}, search, %(now)s FROM moved "
            "RETURNING user_id"
        )
        with self.transaction() as conn:
            rows = conn.execute(sql_text.encode(), p).fetchall()
            per_user: dict[str, int] = {}
            for r in rows:
                per_user[r[0]] = per_user.get(r[0], 0) + 1
            entries = [
                AuditEntry(id=new_id(), user_id=dec(uid), action="archive", actor="system",
                           at=now, detail={"count": n, "older_than_days": days})
                for uid, n in sorted(per_user.items())
            ]  # fmt: skip
            if entries:
                with conn.cursor() as cur:
                    cur.executemany(q.INSERT_AUDIT, [q.audit_params(a) for a in entries])
        return len(rows)

    def export_user(self, user_id: str) -> dict[str, Any]:
        """Everything held about the user, JSON-friendly (archived records included)."""
        records = self.find(
            RecordFilter(user_id=user_id, system_context=None, statuses=None),
            include_archive=True,
        )
        with self.transaction() as conn:
            archived = [
                dec(r[0])
                for r in conn.execute(
                    "SELECT id FROM records_archive WHERE user_id = %s ORDER BY id", (enc(user_id),)
                )
            ]
        state = self.user_state(user_id)
        return {
            "user_id": user_id,
            "records": [r.to_dict() for r in reversed(records)],
            "archived_ids": archived,
            "audit": [a.to_dict() for a in self.audit_log(user_id)],
            "conflicts": [c.to_dict() for c in self.conflicts(user_id, None, open_only=False)],
            "user_state": None if state is None else {
                "memory_enabled": state.memory_enabled, "sessions": state.sessions,
                "turns": state.turns, "last_session_id": state.last_session_id,
                "first_seen": state.first_seen.isoformat() if state.first_seen else None,
                "last_seen": state.last_seen.isoformat() if state.last_seen else None,
            },
        }  # fmt: skip
