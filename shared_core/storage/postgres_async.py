"""Async PostgreSQL record store (psycopg 3 ``AsyncConnectionPool``).

Same schema, SQL and semantics as :class:`shared_core.storage.postgres.PostgresRecordStore`
(the statements and row mapping come from :mod:`shared_core.storage.postgres_sql`), with
every method a coroutine. Open it with ``await AsyncPostgresRecordStore.connect(...)`` or
``async with AsyncPostgresRecordStore(...) as store``; migrations run once on open (on a
worker thread, through the same runner as the sync store).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..clock import Clock, SystemClock, as_utc
from ..config import MemoryConfig
from ..entities import AuditEntry, Conflict, MemoryRecord, Status, UserState, new_id
from ..errors import ConfigError, ConflictError, InvalidInputError
from . import postgres_sql as q
from .postgres import connection_kwargs, migrate_schema
from .postgres_sql import (
    COLS,
    dec,
    dec_json,
    driver,
    enc,
    pg_errors,
    record_params,
    row_to_record,
    scope_label,
    split_postgres_url,
    user_hash,
)
from .protocols import LexicalHit, RecordFilter, WriteBatch

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import AsyncConnectionPool

__all__ = ["AsyncPostgresRecordStore", "open_postgres_async"]


async def open_postgres_async(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> AsyncPostgresRecordStore:
    """Registry factory: an opened :class:`AsyncPostgresRecordStore` for a URL.

    Args:
        url: ``postgresql://user@host/db?schema=usermemory&pool_min=1&pool_max=10``.
        config: the memory configuration.
        clock: time source for bookkeeping.
    """
    conninfo, ours = split_postgres_url(url)
    try:
        pool_min = int(ours.get("pool_min", "1"))
        pool_max = int(ours.get("pool_max", "10"))
    except ValueError as exc:
        raise ConfigError(f"pool_min/pool_max must be integers in {url!r}") from exc
    store = AsyncPostgresRecordStore(
        conninfo,
        schema=ours.get("schema", "usermemory"),
        clock=clock,
        config=config,
        min_size=pool_min,
        max_size=pool_max,
    )
    return await store.open()


class AsyncPostgresRecordStore:
    """The async twin of :class:`~shared_core.storage.postgres.PostgresRecordStore`.

    Args:
        conninfo: a libpq URL or ``key=value`` string.
        schema: the schema holding every table (created if missing).
        clock: time source for bookkeeping.
        config: memory configuration (kept for the registry's uniform signature).
        min_size: connections the pool keeps open.
        max_size: most connections the pool opens.
        timeout: seconds to wait for a pooled connection.
        connect_timeout: libpq connect timeout in seconds.
        application_name: shown in ``pg_stat_activity``.
    """

    #: ``get``/``find``/``lexical_search`` accept ``include_archive=True``.
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
        application_name: str = "usermemory",
    ) -> None:
        if not q.SCHEMA_RE.match(schema):
            raise ConfigError(f"invalid schema name {schema!r}: use [a-z_][a-z0-9_]*")
        _, psycopg_pool = driver()
        self.schema = schema
        self.clock: Clock = clock or SystemClock()
        self.config = config or MemoryConfig()
        self.applied: list[str] = []
        self._conninfo = conninfo
        self._timeout = timeout
        self._kwargs = connection_kwargs(schema, connect_timeout, application_name)
        pool_cls = psycopg_pool.AsyncConnectionPool
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = pool_cls(
            conninfo,
            kwargs=self._kwargs,
            min_size=min_size,
            max_size=max(max_size, min_size),
            open=False,
            check=pool_cls.check_connection,
            timeout=timeout,
            name=f"usermemory-async-{schema}",
        )

    @classmethod
    async def connect(cls, conninfo: str, **kwargs: Any) -> AsyncPostgresRecordStore:
        """Construct and :meth:`open` a store."""
        return await cls(conninfo, **kwargs).open()

    async def open(self) -> AsyncPostgresRecordStore:
        """Apply migrations and open the pool.

        Raises:
            BackendUnavailableError: the server cannot be reached.
        """
        self.applied = await asyncio.to_thread(
            migrate_schema, self._conninfo, self.schema, kwargs=self._kwargs, clock=self.clock
        )
        try:
            with pg_errors():
                await self._pool.open(wait=True, timeout=self._timeout)
        except BaseException:
            await self._pool.close()
            raise
        return self

    async def close(self) -> None:
        """Close the pool (idempotent)."""
        await self._pool.close()

    async def __aenter__(self) -> AsyncPostgresRecordStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A pooled connection inside one transaction (committed on success)."""
        with pg_errors():
            async with self._pool.connection() as conn:
                yield conn

    # -- writes ---------------------------------------------------------------------------

    async def apply(self, batch: WriteBatch) -> None:
        """Commit the whole batch in one transaction, or nothing (see the sync store)."""
        if not batch:
            return
        psycopg, _ = driver()
        records = sorted(batch.records, key=lambda r: r.status is Status.ACTIVE)
        params = [record_params(r) for r in records]
        audit = [q.audit_params(a) for a in batch.audit]
        conflicts = [q.conflict_params(c) for c in batch.conflicts]
        resolved = [(when, enc(cid)) for cid, when in batch.resolved_conflicts]
        state = None if batch.user_state is None else q.user_params(batch.user_state)
        old_slots: set[tuple[str, str, str, str]] = set()
        async with self.transaction() as conn:
            if params:
                ids = [p["id"] for p in params]
                await conn.execute("DELETE FROM records_archive WHERE id = ANY(%s)", (ids,))
                cur = await conn.execute(q.SLOTS_OF_IDS, (ids,))
                old_slots = set(await cur.fetchall())
            for rec, p in zip(records, params, strict=True):
                try:
                    cur = await conn.execute(q.UPSERT_RECORD, p)
                    row = await cur.fetchone()
                except psycopg.errors.UniqueViolation as exc:
                    raise ConflictError(
                        f"another active record holds the slot of key {rec.key!r}"
                    ) from exc
                if row is None:
                    raise ConflictError(
                        f"record {rec.id} was changed concurrently (stored version is not "
                        f"{rec.version}); reload and retry"
                    )
            async with conn.cursor() as c:
                if audit:
                    await c.executemany(q.INSERT_AUDIT, audit)
                if conflicts:
                    await c.executemany(q.UPSERT_CONFLICT, conflicts)
                if resolved:
                    await c.executemany(
                        "UPDATE conflicts SET resolved_at = %s WHERE id = %s", resolved
                    )
            if state is not None:
                await conn.execute(q.UPSERT_USER, state)
            slots = {(p["user_id"], p["system_context"], p["scope_ref"], p["key"]) for p in params}
            await self._refresh_profile(conn, slots | old_slots)

    async def _refresh_profile(
        self, conn: psycopg.AsyncConnection[Any], slots: Iterable[tuple[str, str, str, str]]
    ) -> None:
        at = self.clock.now()
        for user_id, ctx, ref, key in sorted(set(slots)):
            cur = await conn.execute(q.PROFILE_CURRENT, (user_id, ctx, ref, key))
            row = await cur.fetchone()
            p = {"u": user_id, "p": [ctx, scope_label(ref), key], "at": at}
            if row is None:
                await conn.execute(q.PROFILE_UNSET, p)
            else:
                await conn.execute(q.PROFILE_SET, {**p, "v": row[0]})

    # -- reads ----------------------------------------------------------------------------

    async def _rows(self, sql_text: str, params: Any) -> list[Any]:
        async with self.transaction() as conn:
            cur = await conn.execute(sql_text.encode(), params)
            return await cur.fetchall()

    async def get(
        self, record_ids: Sequence[str], *, include_archive: bool = False
    ) -> list[MemoryRecord]:
        """The records with these ids (any status), in no particular order."""
        ids = [enc(i) for i in dict.fromkeys(record_ids)]
        if not ids:
            return []
        sql_text = f"SELECT {COLS} FROM records WHERE id = ANY(%(ids)s)"
        if include_archive:
            sql_text += f" UNION ALL SELECT {COLS} FROM records_archive WHERE id = ANY(%(ids)s)"
        return [row_to_record(r) for r in await self._rows(sql_text, {"ids": ids})]

    async def archived_ids(self, record_ids: Sequence[str]) -> set[str]:
        """Which of ``record_ids`` are in ``records_archive`` (see the sync store)."""
        ids = [enc(i) for i in dict.fromkeys(record_ids)]
        if not ids:
            return set()
        rows = await self._rows("SELECT id FROM records_archive WHERE id = ANY(%s)", (ids,))
        return {dec(r[0]) for r in rows}

    async def find(self, flt: RecordFilter, *, include_archive: bool = False) -> list[MemoryRecord]:
        """Records of one user matching the filter, newest ``updated_at`` first."""
        sql_text, params = q.find_query(flt, include_archive=include_archive)
        return [row_to_record(r) for r in await self._rows(sql_text, params)]

    async def history(
        self, user_id: str, key: str, *, system_context: str | None = None
    ) -> list[MemoryRecord]:
        """Every version of ``key`` (archived ones too), oldest first."""
        cond = "user_id = %(u)s AND key = %(k)s"
        if system_context is not None:
            cond += " AND system_context = %(ctx)s"
        sql_text = (
            f"SELECT {COLS} FROM records WHERE {cond} UNION ALL SELECT {COLS} FROM "
            f"records_archive WHERE {cond} ORDER BY created_at, version, updated_at, id"
        )
        ctx = None if system_context is None else enc(system_context)
        rows = await self._rows(sql_text, {"u": enc(user_id), "k": enc(key), "ctx": ctx})
        return [row_to_record(r) for r in rows]

    async def lexical_search(
        self,
        user_id: str,
        system_context: str,
        query: str,
        *,
        limit: int,
        statuses: tuple[Status, ...] = (Status.ACTIVE,),
        include_archive: bool = False,
    ) -> list[LexicalHit]:
        """Full-text search of one user's records (see the sync store)."""
        tsq = q.to_tsquery_literal(query)
        if not tsq or limit <= 0:
            return []
        tables = ("records", "records_archive") if include_archive else ("records",)
        sql_text = " UNION ALL ".join(q.LEXICAL_PART.format(table=t) for t in tables)
        sql_text += " ORDER BY score DESC, updated_at DESC, id LIMIT %(lim)s"
        p = {"q": tsq, "u": enc(user_id), "ctx": enc(system_context), "lim": int(limit),
             "st": [Status(s).value for s in statuses]}  # fmt: skip
        return [LexicalHit(dec(r[0]), float(r[1])) for r in await self._rows(sql_text, p)]

    async def conflicts(
        self, user_id: str, system_context: str | None = "default", *, open_only: bool = True
    ) -> list[Conflict]:
        """The user's conflicts (only unresolved ones by default), oldest first."""
        sql_text = f"SELECT {q.CONFLICT_COLS} FROM conflicts WHERE user_id = %(u)s"
        if system_context is not None:
            sql_text += " AND system_context = %(ctx)s"
        if open_only:
            sql_text += " AND resolved_at IS NULL"
        sql_text += " ORDER BY detected_at, id"
        ctx = None if system_context is None else enc(system_context)
        rows = await self._rows(sql_text, {"u": enc(user_id), "ctx": ctx})
        return [q.row_to_conflict(r) for r in rows]

    async def audit_log(self, user_id: str, *, limit: int | None = None) -> list[AuditEntry]:
        """The user's audit entries, oldest first (the newest ``limit`` if given)."""
        sql_text = (
            f"SELECT {q.AUDIT_COLS} FROM audit WHERE user_id = %(u)s ORDER BY at DESC, seq DESC"
        )
        if limit is not None:
            sql_text += " LIMIT %(lim)s"
        rows = await self._rows(sql_text, {"u": enc(user_id), "lim": limit})
        return [q.row_to_audit(r) for r in reversed(rows)]

    async def user_state(self, user_id: str) -> UserState | None:
        """The user's bookkeeping row, or ``None``."""
        rows = await self._rows(
            f"SELECT {q.USER_COLS} FROM users WHERE user_id = %s", (enc(user_id),)
        )
        return q.row_to_user(rows[0]) if rows else None

    async def users(self) -> list[str]:
        """Every user id with anything stored, sorted."""
        return [dec(r[0]) for r in await self._rows(q.USERS, ())]

    async def profile_document(self, user_id: str) -> dict[str, Any]:
        """The raw JSONB profile ``{context: {scope: {key: value}}}``."""
        rows = await self._rows("SELECT profile FROM profiles WHERE user_id = %s", (enc(user_id),))
        return dict(dec_json(rows[0][0])) if rows else {}

    async def profile(
        self, user_id: str, system_context: str = "default", scope_refs: Sequence[str] = ("",)
    ) -> dict[str, str]:
        """The user's profile (scopes merged in order, later wins)."""
        doc = (await self.profile_document(user_id)).get(system_context, {})
        out: dict[str, str] = {}
        for ref in scope_refs:
            out.update(doc.get(scope_label(ref), {}))
        return out

    # -- archive, erase -------------------------------------------------------------------

    async def archive_older_than(
        self, days: float = 180, *, now: datetime, user_id: str | None = None
    ) -> int:
        """Move stale rows to ``records_archive`` in one transaction (see the sync store)."""
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
            "RETURNING user_id, system_context, scope_ref, key, status"
        )
        async with self.transaction() as conn:
            cur = await conn.execute(sql_text.encode(), p)
            rows = await cur.fetchall()
            per_user: dict[str, int] = {}
            for r in rows:
                per_user[r[0]] = per_user.get(r[0], 0) + 1
            await self._refresh_profile(
                conn, {(r[0], r[1], r[2], r[3]) for r in rows if r[4] == "active"}
            )
            entries = [
                q.audit_params(
                    AuditEntry(id=new_id(), user_id=dec(uid), action="archive", actor="system",
                               at=now, detail={"count": n, "older_than_days": days})
                )
                for uid, n in sorted(per_user.items())
            ]  # fmt: skip
            if entries:
                async with conn.cursor() as c:
                    await c.executemany(q.INSERT_AUDIT, entries)
        return len(rows)

    async def erase_user(self, user_id: str, *, at: datetime) -> dict[str, int]:
        """Delete every row of the user in every table of the schema; keep a tombstone."""
        from psycopg import sql
        from psycopg.types.json import Jsonb

        counts: dict[str, int] = {}
        async with self.transaction() as conn:
            cur = await conn.execute(q.USER_TABLES, (self.schema,))
            for (table,) in await cur.fetchall():
                deleted = await conn.execute(
                    sql.SQL("DELETE FROM {}.{} WHERE user_id = %s").format(
                        sql.Identifier(self.schema), sql.Identifier(table)
                    ),
                    (enc(user_id),),
                )
                counts[table] = max(deleted.rowcount, 0)
            await conn.execute(
                "INSERT INTO tombstones (user_hash, erased_at, counts) VALUES (%s, %s, %s)"
                " ON CONFLICT (user_hash) DO UPDATE SET erased_at = EXCLUDED.erased_at,"
                " counts = EXCLUDED.counts",
                (user_hash(user_id), as_utc(at), Jsonb(counts)),
            )
        return counts
