"""Dense vectors in the SQLite file, searched in process one user at a time.

Vectors are stored as float32 BLOBs in the ``vectors`` table of the same SQLite file as
the records (or of a file/``:memory:`` database of their own). A search loads only the
rows of that user (through the ``uid`` index) into per-context numpy matrices, cached in
an LRU bounded by users and by total vectors, so a query costs one small matrix-vector
product however many users the file holds. Writes invalidate the user's cache entry.
"""

from __future__ import annotations

import bisect
import logging
import operator
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from ..clock import Clock
from ..entities import Kind
from ..errors import InvalidInputError
from .protocols import VectorHit, VectorItem
from .sqlite_base import SqliteDatabase, user_hash

__all__ = ["NumpyVectorIndex", "SqliteVectorIndex"]

logger = logging.getLogger(__name__)

Vector = npt.NDArray[np.float32]


@dataclass(slots=True)
class _Block:
    """The vectors of one user in one system context."""

    ids: list[str]
    kinds: tuple[str, ...]  # the kind of each row (a mask is built only when filtering)
    matrix: Vector  # (n, dim), rows L2-normalised


# A vector row (system_context, record_id, kind, vector) is ordered by (context, id) with
# two stable sorts on single strings (by id, then by context): string keys compare on
# CPython's fast path for all-str keys, tuple keys do not (~3x the sort's cost).
_CTX = operator.itemgetter(0)
_ID = operator.itemgetter(1)


def _rows(blocks: dict[str, _Block]) -> int:
    """How many vectors a cached user holds (the LRU's size measure)."""
    return sum(len(b.ids) for b in blocks.values())


def _normalise(vector: npt.ArrayLike, dimension: int | None) -> Vector:
    arr = np.asarray(vector, dtype=np.float32)
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidInputError(f"a vector must be 1-D and non-empty, got shape {arr.shape}")
    if dimension is not None and arr.shape[0] != dimension:
        raise InvalidInputError(f"vector dimension {arr.shape[0]} != index dimension {dimension}")
    if not np.all(np.isfinite(arr)):
        raise InvalidInputError("vector has NaN or infinite values")
    norm = float(np.linalg.norm(arr))
    if norm == 0.0:
        raise InvalidInputError("cannot index a zero vector (no direction)")
    out: Vector = (arr / norm).astype(np.float32, copy=False)
    return out


class SqliteVectorIndex:
    """:class:`~shared_core.storage.protocols.VectorIndex` persisted in SQLite.

    Args:
        path: database file or ``":memory:"`` (ignored when ``database`` is given).
        database: an open :class:`SqliteDatabase` to share with the record store.
        clock: time source for migrations when opening ``path``.
        max_cached_users: users whose matrices stay in memory (LRU).
        max_cached_vectors: bound on vectors held in memory across users (LRU).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = ":memory:",
        *,
        database: SqliteDatabase | None = None,
        clock: Clock | None = None,
        max_cached_users: int = 1024,
        max_cached_vectors: int = 250_000,
    ) -> None:
        self.db = (database or SqliteDatabase(path, clock=clock)).acquire()
        # LRU bounded by vectors held (a user bigger than the whole bound is read, not kept)
        self._cache: LRUCache[str, dict[str, _Block]] = LRUCache(
            maxsize=max(1, max_cached_vectors), getsizeof=_rows
        )
        self._max_users = max(1, max_cached_users)
        self._closed = False
        self.db.attach(self)
        with self.db.read() as conn:
            row = conn.execute("SELECT dim FROM vectors LIMIT 1").fetchone()
        self.dimension: int | None = int(row[0]) if row else None

    # ------------------------------------------------------------------ writes
    def upsert(self, items: Sequence[VectorItem]) -> None:
        """Insert or replace vectors by record id (normalised to unit length).

        Raises:
            InvalidInputError: a vector is malformed or of another dimension (nothing written).
        """
        if not items:
            return
        dim = self.dimension
        rows = []
        for it in items:
            vec = _normalise(it.vector, dim)
            dim = int(vec.shape[0])
            try:
                kind = Kind(it.kind).value
            except ValueError as exc:
                raise InvalidInputError(f"invalid kind {it.kind!r}") from exc
            rows.append(
                (
                    it.record_id,
                    user_hash(it.user_id),
                    it.user_id,
                    it.system_context,
                    kind,
                    it.key,
                    dim,
                    vec.tobytes(),
                )
            )
        ids = [it.record_id for it in items]
        with self.db.transaction() as conn:
            moved = self._owners(ids)
            conn.executemany(
                "INSERT OR REPLACE INTO vectors (record_id, uid, user_id, system_context, kind,"
                " key, dim, vector) VALUES (?,?,?,?,?,?,?,?)",
                rows,
            )
        self.dimension = dim
        for user in moved | {it.user_id for it in items}:
            self.forget_user(user)

    def delete(self, record_ids: Iterable[str]) -> int:
        """Remove these records' vectors; return how many existed."""
        ids = list(dict.fromkeys(record_ids))
        if not ids:
            return 0
        total = 0
        with self.db.transaction() as conn:
            owners = self._owners(ids)
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                cur = conn.execute(
                    f"DELETE FROM vectors WHERE record_id IN ({','.join('?' * len(chunk))})", chunk
                )
                total += cur.rowcount
        for user in owners:
            self.forget_user(user)
        return total

    def delete_user(self, user_id: str) -> int:
        """Remove every vector of the user; return how many."""
        with self.db.transaction() as conn:
            cur = conn.execute(
                "DELETE FROM vectors WHERE uid = ? AND user_id = ?", (user_hash(user_id), user_id)
            )
            count = cur.rowcount
        self.forget_user(user_id)
        return count

    def _owners(self, ids: Sequence[str]) -> set[str]:
        out: set[str] = set()
        with self.db.read() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                q = f"SELECT DISTINCT user_id FROM vectors WHERE record_id IN ({marks})"
                out.update(r[0] for r in conn.execute(q, chunk))
        return out

    # ------------------------------------------------------------------ reads
    def ids_for_user(self, user_id: str) -> set[str]:
        """Record ids that have a vector for this user (all contexts)."""
        with self.db.read() as conn:
            return {
                r[0]
                for r in conn.execute(
                    "SELECT record_id FROM vectors WHERE uid = ? AND user_id = ?",
                    (user_hash(user_id), user_id),
                )
            }

    def search(
        self,
        user_id: str,
        system_context: str,
        vector: Vector,
        *,
        k: int,
        kinds: tuple[Kind, ...] | None = None,
    ) -> list[VectorHit]:
        """Top ``k`` of the user's vectors in ``system_context`` by cosine similarity.

        Raises:
            InvalidInputError: the query vector is malformed or of another dimension.
        """
        if k <= 0:
            return []
        query = _normalise(vector, self.dimension)
        block = self._blocks(user_id).get(system_context)
        if block is None:
            return []
        matrix, ids = block.matrix, block.ids
        index = np.arange(len(ids))
        if kinds is not None:
            wanted = {Kind(x).value for x in kinds}
            mask = np.fromiter((kd in wanted for kd in block.kinds), bool, len(block.kinds))
            index = index[mask]
            if index.size == 0:
                return []
            matrix = matrix[mask]
        sims = matrix @ query
        if k < sims.shape[0]:
            top = np.argpartition(-sims, k - 1)[:k]
            top = top[np.argsort(-sims[top], kind="stable")]
        else:
            top = np.argsort(-sims, kind="stable")
        return [VectorHit(ids[int(index[i])], float(sims[i])) for i in top]

    def warm(self, user_id: str) -> int:
        """Load the user's vectors into memory now (e.g. at session start).

        Returns:
            How many vectors the user has (all contexts).
        """
        return sum(len(b.ids) for b in self._blocks(user_id).values())

    def _blocks(self, user_id: str) -> dict[str, _Block]:
        with self.db.lock:
            self.db.check_external_changes()  # another connection wrote: drop the cache
            blocks = self._cache.get(user_id)
            if blocks is not None:
                return blocks
            with self.db.read() as conn:
                # no ORDER BY: sorting ~100 rows here is cheaper than SQLite's temp b-tree
                rows = conn.execute(
                    "SELECT system_context, record_id, kind, vector FROM vectors"
                    " WHERE uid = ? AND user_id = ?",
                    (user_hash(user_id), user_id),
                ).fetchall()
            rows.sort(key=_ID)
            rows.sort(key=_CTX)  # stable: (context, id) order, one pass for one context
            blocks = {}
            if rows:
                ctxs, ids, kinds, blobs = zip(*rows, strict=True)  # columns, at C speed
                start, n = 0, len(rows)
                while start < n:  # one block per context (rows are sorted by context)
                    ctx = ctxs[start]
                    end = n if ctxs[-1] == ctx else bisect.bisect_right(ctxs, ctx, lo=start)
                    mat = np.frombuffer(b"".join(blobs[start:end]), dtype=np.float32)
                    blocks[ctx] = _Block(
                        ids=list(ids[start:end]),
                        kinds=kinds[start:end],
                        matrix=mat.reshape(end - start, -1),
                    )
                    start = end
            if len(rows) <= self._cache.maxsize:
                self._cache[user_id] = blocks
                while len(self._cache) > self._max_users:
                    self._cache.popitem()
            return blocks

    def records_written(self, rows: Sequence[Any]) -> None:
        """Record rows carry no vectors: nothing to do."""

    def forget_all(self) -> None:
        """Drop every cached matrix (another connection wrote the file)."""
        with self.db.lock:
            self._cache.clear()

    def forget_user(self, user_id: str) -> None:
        """Drop the user's cached matrix."""
        with self.db.lock:
            self._cache.pop(user_id, None)

    @property
    def cached_users(self) -> int:
        """How many users' matrices are in memory now."""
        return len(self._cache)

    def after_fork(self) -> None:
        """In a forked child: see :meth:`SqliteDatabase.after_fork`."""
        self.db.after_fork()

    def close(self) -> None:
        """Drop the cache and release the shared database."""
        if self._closed:
            return
        self._closed = True
        with self.db.lock:
            self._cache.clear()
        self.db.detach(self)
        self.db.release()

    def __enter__(self) -> SqliteVectorIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: The in-process vector index is the SQLite-backed one (vectors live in numpy matrices).
NumpyVectorIndex = SqliteVectorIndex
