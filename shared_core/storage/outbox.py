"""A durable outbox for vector writes that fail after the SQL write.

:class:`OutboxVectorIndex` wraps a real index (pgvector, Pinecone, ...). A write that
fails with :class:`~shared_core.errors.BackendError` is kept in a small SQLite file
(``secure_delete`` on, so erased users leave no bytes behind) and replayed, in order,
before the next call that reaches the index, or by :meth:`OutboxVectorIndex.replay`.
Searches while the index is down return no dense hits (recall keeps its key and lexical
channels). See :mod:`shared_core.storage.resilient` for the session/cache/event wrappers.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..entities import Kind
from ..errors import BackendError, InvalidInputError, map_backend_errors
from ..metrics import Metrics
from .migrations import SQLITE, Migration, run_migrations
from .protocols import Vector, VectorHit, VectorIndex, VectorItem, after_fork
from .resilient import Breaker
from .sqlite_base import leave_inherited

__all__ = ["OutboxVectorIndex"]

log = logging.getLogger(__name__)

#: The outbox file's schema, applied by the migration runner like every other table.
OUTBOX_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        id=1,
        name="vector_outbox",
        statements=(
            "CREATE TABLE IF NOT EXISTS vector_outbox ("
            " record_id TEXT PRIMARY KEY,"
            " seq INTEGER NOT NULL,"
            " op TEXT NOT NULL CHECK (op IN ('upsert', 'delete')),"
            " user_id TEXT, system_context TEXT, kind TEXT, key TEXT, vector BLOB)",
            "CREATE INDEX IF NOT EXISTS vector_outbox_user ON vector_outbox (user_id)",
            "CREATE TABLE IF NOT EXISTS vector_outbox_erase"
            " (user_id TEXT PRIMARY KEY, seq INTEGER NOT NULL)",
        ),
    ),
)


class OutboxVectorIndex:
    """A :class:`VectorIndex` whose failed writes are kept durably and replayed in order.

    Args:
        inner: the real index (pgvector, Pinecone, ...).
        outbox_path: SQLite file of the outbox (``":memory:"`` keeps it in this process
            only). Deleted rows are overwritten (``secure_delete``), so an erased user
            leaves nothing in the file.
        probe_interval: seconds between attempts while the index is down.
        metrics: counts outages, recoveries and ``vector_outbox_replayed``.
        monotonic: time source for the probe interval.

    A write that fails with :class:`~shared_core.errors.BackendError` is queued (the
    latest operation per record id wins) instead of raising, so the SQL write that
    preceded it stands; the queue is replayed before the next call that reaches the
    index. ``delete_user`` drops the user's queued operations; if the index is down the
    erasure itself is queued and replayed first.
    """

    def __init__(
        self,
        inner: VectorIndex,
        outbox_path: str | Path = ":memory:",
        *,
        probe_interval: float = 5.0,
        metrics: Metrics | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inner = inner
        self.metrics = metrics
        self.breaker = Breaker(
            "vectors", probe_interval=probe_interval, metrics=metrics, monotonic=monotonic
        )
        self.path = str(outbox_path)
        self._lock = threading.RLock()
        self._db = self._open(self.path)
        self._seq = self._max_seq()

    @staticmethod
    def _open(path: str) -> sqlite3.Connection:
        with map_backend_errors("vector outbox", unavailable=(), failed=(sqlite3.Error,)):
            db = sqlite3.connect(path, check_same_thread=False)
            db.execute("PRAGMA secure_delete = ON")
            if path != ":memory:":
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = FULL")
            run_migrations(db, OUTBOX_MIGRATIONS, dialect=SQLITE)
        return db

    def after_fork(self) -> None:
        """In a forked child: new locks, the wrapped index told, and an outbox connection
        of this process (see :func:`~shared_core.storage.sqlite_base.leave_inherited` for
        why the idle inherited one is closed). An in-memory outbox is the child's copy.
        If a thread was using the file at the fork, its handle is left alone and this
        process queues in memory."""
        busy = not self._lock.acquire(blocking=False)
        self._lock = threading.RLock()
        self.breaker.after_fork()
        after_fork(self.inner)
        if self.path == ":memory:" and not busy:
            return
        if leave_inherited(self._db, busy=busy, in_memory=False) == "stranded":
            log.warning("vector outbox %r was in use at the fork: queuing in memory", self.path)
            self.path = ":memory:"
        try:
            self._db = self._open(self.path)
        except BackendError as exc:
            log.warning("vector outbox %r: %s; queuing in memory", self.path, exc)
            self.path = ":memory:"
            self._db = self._open(self.path)
        self._seq = max(self._seq, self._max_seq())

    @property
    def dimension(self) -> int | None:
        """The wrapped index's dimension."""
        return self.inner.dimension

    @dimension.setter
    def dimension(self, value: int | None) -> None:
        self.inner.dimension = value

    def _max_seq(self) -> int:
        row = self._db.execute(
            "SELECT max(m) FROM (SELECT max(seq) AS m FROM vector_outbox"
            " UNION ALL SELECT max(seq) FROM vector_outbox_erase)"
        ).fetchone()
        return int(row[0] or 0)

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def pending(self) -> int:
        """Operations waiting in the outbox (upserts, deletes and erasures)."""
        with self._lock:
            a = self._db.execute("SELECT count(*) FROM vector_outbox").fetchone()[0]
            b = self._db.execute("SELECT count(*) FROM vector_outbox_erase").fetchone()[0]
        return int(a) + int(b)

    # -- queueing ------------------------------------------------------------------------
    def _check(self, items: Sequence[VectorItem]) -> None:
        """Refuse vectors the index would refuse, so none can poison the outbox."""
        dim = self.inner.dimension
        for it in items:
            arr = np.asarray(it.vector, dtype=np.float32)
            if arr.ndim != 1 or (dim is not None and arr.shape[0] != dim):
                raise InvalidInputError(f"vector of {it.record_id!r} does not have {dim} dims")
            if not np.all(np.isfinite(arr)) or not np.any(arr):
                raise InvalidInputError(f"vector of {it.record_id!r} is zero or not finite")

    def _queue_upserts(self, items: Sequence[VectorItem]) -> None:
        self._check(items)
        with self._lock, self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO vector_outbox VALUES (?, ?, 'upsert', ?, ?, ?, ?, ?)",
                [
                    (
                        it.record_id,
                        self._next(),
                        it.user_id,
                        it.system_context,
                        it.kind.value,
                        it.key,
                        np.asarray(it.vector, dtype=np.float32).tobytes(),
                    )
                    for it in items
                ],
            )

    def _queue_deletes(self, record_ids: Sequence[str]) -> None:
        with self._lock, self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO vector_outbox (record_id, seq, op) VALUES (?, ?, 'delete')",
                [(rid, self._next()) for rid in record_ids],
            )

    # -- replay --------------------------------------------------------------------------
    def replay(self) -> int:
        """Send every queued operation to the index, oldest first; return how many.

        Raises:
            BackendError: the index failed; what was not sent stays queued.
        """
        done = 0
        with self._lock:
            for (user_id,) in self._db.execute(
                "SELECT user_id FROM vector_outbox_erase ORDER BY seq"
            ).fetchall():
                self.inner.delete_user(user_id)
                with self._db:
                    self._db.execute(
                        "DELETE FROM vector_outbox_erase WHERE user_id = ?", (user_id,)
                    )
                done += 1
            rows = self._db.execute(
                "SELECT record_id, op, user_id, system_context, kind, key, vector"
                " FROM vector_outbox ORDER BY seq"
            ).fetchall()
            i = 0
            while i < len(rows):
                op = rows[i][1]
                j = i
                while j < len(rows) and rows[j][1] == op and j - i < 100:
                    j += 1
                chunk = rows[i:j]
                if op == "upsert":
                    self._replay_upserts(chunk)
                else:
                    self.inner.delete([r[0] for r in chunk])
                with self._db:
                    self._db.executemany(
                        "DELETE FROM vector_outbox WHERE record_id = ?", [(r[0],) for r in chunk]
                    )
                done += len(chunk)
                i = j
        if done:
            log.info("vector outbox: replayed %d operation(s)", done)
            if self.metrics is not None:
                self.metrics.inc("vector_outbox_replayed", done)
        return done

    def _replay_upserts(self, chunk: list[Any]) -> None:
        try:
            self.inner.upsert(
                [
                    VectorItem(
                        record_id=r[0],
                        user_id=r[2],
                        system_context=r[3],
                        kind=Kind(r[4]),
                        key=r[5],
                        vector=np.frombuffer(r[6], dtype=np.float32).copy(),
                    )
                    for r in chunk
                ]
            )
        except InvalidInputError as exc:  # never block the queue on one bad entry
            log.error("vector outbox: dropping %d entries the index refuses: %s", len(chunk), exc)

    def _reach(self) -> bool:
        """Replay the outbox if the index may be tried now; False when it is down."""
        if not self.breaker.should_try():
            return False
        try:
            if self.pending():
                self.replay()
        except BackendError as exc:
            self.breaker.failed(exc)
            return False
        return True

    # -- VectorIndex ---------------------------------------------------------------------
    def upsert(self, items: Sequence[VectorItem]) -> None:
        """Index vectors, or queue them durably when the index fails."""
        items = list(items)
        if not items:
            return
        if self._reach():
            try:
                self.inner.upsert(items)
            except BackendError as exc:
                self.breaker.failed(exc)
            else:
                self.breaker.succeeded()
                return
        self._queue_upserts(items)

    def search(
        self,
        user_id: str,
        system_context: str,
        vector: Vector,
        *,
        k: int,
        kinds: tuple[Kind, ...] | None = None,
    ) -> list[VectorHit]:
        """Dense search after replaying the outbox; no hits while the index is down."""
        if self._reach():
            try:
                hits = self.inner.search(user_id, system_context, vector, k=k, kinds=kinds)
            except BackendError as exc:
                self.breaker.failed(exc)
            else:
                self.breaker.succeeded()
                return hits
        return []

    def delete(self, record_ids: Iterable[str]) -> int:
        """Delete vectors, or queue the deletions when the index fails."""
        ids = list(record_ids)
        if not ids:
            return 0
        if self._reach():
            try:
                n = self.inner.delete(ids)
            except BackendError as exc:
                self.breaker.failed(exc)
            else:
                self.breaker.succeeded()
                with self._lock, self._db:
                    self._db.executemany(
                        "DELETE FROM vector_outbox WHERE record_id = ?", [(r,) for r in ids]
                    )
                return n
        self._queue_deletes(ids)
        return 0

    def delete_user(self, user_id: str) -> int:
        """Erase the user's vectors and queued operations (queued erase when down)."""
        with self._lock, self._db:
            queued = self._db.execute(
                "DELETE FROM vector_outbox WHERE user_id = ?", (user_id,)
            ).rowcount
        if self._reach():
            try:
                n = self.inner.delete_user(user_id)
            except BackendError as exc:
                self.breaker.failed(exc)
            else:
                self.breaker.succeeded()
                return n + max(queued, 0)
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO vector_outbox_erase VALUES (?, ?)", (user_id, self._next())
            )
        log.warning("vector index down: erasure of one user queued in the outbox")
        return max(queued, 0)

    def ids_for_user(self, user_id: str) -> set[str]:
        """Ids indexed or queued for indexing (queued deletions excluded).

        Raises:
            BackendError: the index cannot be read.
        """
        self._reach()
        have = set(self.inner.ids_for_user(user_id))
        with self._lock:
            rows = self._db.execute(
                "SELECT record_id, op FROM vector_outbox WHERE user_id = ? OR op = 'delete'",
                (user_id,),
            ).fetchall()
        for rid, op in rows:
            if op == "upsert":
                have.add(rid)
            else:
                have.discard(rid)
        return have

    def close(self) -> None:
        """Close the index and the outbox file."""
        try:
            self.inner.close()
        finally:
            with self._lock:
                self._db.close()
