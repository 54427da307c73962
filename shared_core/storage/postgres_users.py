"""The PostgreSQL record store's per-user fence, durable erase queue and erase
(:class:`PostgresUserTables`, mixed into
:class:`~shared_core.storage.postgres.PostgresRecordStore`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..clock import as_utc
from . import postgres_sql as q
from .postgres_sql import dec, enc, user_hash
from .protocols import Fence, check_fence

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresUserTables"]

log = logging.getLogger("shared_core.storage.postgres")


class PostgresUserTables:
    """Fence, erase queue and erase of one user, through ``self.transaction()``."""

    schema: str

    def transaction(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        raise NotImplementedError

    def read(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        raise NotImplementedError

    @staticmethod
    def _move_fences(
        conn: psycopg.Connection[Any], users: set[str], expected: Mapping[str, Fence]
    ) -> None:
        """Bump every written user's generation (row-locked to the end of the transaction)
        and check the expected fences against the value before the bump."""
        for user in sorted(users):  # one order everywhere: no deadlock between batches
            check_fence(expected, user, conn.execute(q.BUMP_FENCE, (user_hash(user),)).fetchone())

    @staticmethod
    def _erased_at(conn: psycopg.Connection[Any], user_id: str) -> datetime | None:
        row = conn.execute(
            "SELECT erased_at FROM user_fence WHERE user_hash = %s", (user_hash(user_id),)
        ).fetchone()
        return None if row is None else as_utc(row[0]) if row[0] is not None else None

    def fence(self, user_id: str) -> Fence:
        """The user's write fence (erasure epoch, write generation)."""
        with self.read() as conn:
            row = conn.execute(
                "SELECT epoch, gen FROM user_fence WHERE user_hash = %s", (user_hash(user_id),)
            ).fetchone()
        return Fence(user_id) if row is None else Fence(user_id, int(row[0]), int(row[1]))

    def queue_erasure(self, user_id: str, stores: Sequence[str], *, at: datetime) -> None:
        """Durably note that ``stores`` still owe the erasure of ``user_id`` (the raw id is
        kept only until :meth:`confirm_erasure`)."""
        with self.transaction() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO erase_queue (user_hash, store, subject, queued_at)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (user_hash, store) DO UPDATE"
                " SET subject = EXCLUDED.subject, queued_at = EXCLUDED.queued_at",
                [(user_hash(user_id), st, enc(user_id), as_utc(at)) for st in stores],
            )

    def pending_erasures(self, *, limit: int = 100) -> list[tuple[str, str]]:
        """Queued ``(user_id, store)`` erasures, oldest first."""
        with self.read() as conn:
            rows = conn.execute(
                "SELECT subject, store FROM erase_queue ORDER BY queued_at, store LIMIT %s",
                (max(0, int(limit)),),
            ).fetchall()
        return [(dec(r[0]), str(r[1])) for r in rows]

    def confirm_erasure(self, user_id: str, store: str) -> None:
        """Drop one queued erasure."""
        with self.transaction() as conn:
            conn.execute(
                "DELETE FROM erase_queue WHERE user_hash = %s AND store = %s",
                (user_hash(user_id), store),
            )

    def erase_user(self, user_id: str, *, at: datetime) -> dict[str, int]:
        """Delete every row of the user in every table of the schema; keep a tombstone.

        Every base table of the schema with a ``user_id`` column is cleared for the user
        (also an ``embeddings`` table of a pgvector index sharing the schema), in one
        transaction; the tombstone holds only sha256(user_id), the time and the counts.

        Returns:
            Deleted row counts per table.
        """
        from psycopg import sql
        from psycopg.types.json import Jsonb

        counts: dict[str, int] = {}
        with self.transaction() as conn:
            # the fence first (row lock, same order as apply): a write that read the user
            # before this erase cannot commit after it
            conn.execute(q.ERASE_FENCE, (user_hash(user_id), as_utc(at)))
            tables = [r[0] for r in conn.execute(q.USER_TABLES, (self.schema,))]
            for table in tables:
                cur = conn.execute(
                    sql.SQL("DELETE FROM {}.{} WHERE user_id = %s").format(
                        sql.Identifier(self.schema), sql.Identifier(table)
                    ),
                    (enc(user_id),),
                )
                counts[table] = max(cur.rowcount, 0)
            conn.execute(
                "INSERT INTO tombstones (user_hash, erased_at, counts) VALUES (%s, %s, %s)"
                " ON CONFLICT (user_hash) DO UPDATE SET erased_at = EXCLUDED.erased_at,"
                " counts = EXCLUDED.counts",
                (user_hash(user_id), as_utc(at), Jsonb(counts)),
            )

        log.info("postgresql: erased one user (%d rows)", sum(counts.values()))
        return counts

    def erased_at(self, user_id: str) -> datetime | None:
        """When the user was erased (from the tombstone), or ``None``."""
        with self.read() as conn:
            r = conn.execute(
                "SELECT erased_at FROM tombstones WHERE user_hash = %s", (user_hash(user_id),)
            ).fetchone()
        return as_utc(r[0]) if r else None
