"""Write-path last step: persist a batch, then index it, invalidate the cache, publish events.

:func:`commit` is the one way anything reaches the stores: ``observe``, ``remember``,
``forget_key``, ``import_user`` and the anonymous-visitor merge all build a
:class:`~shared_core.storage.protocols.WriteBatch` and hand it here. The record store
write is the durable step (records, audit, conflicts and user state in one
transaction); the vector index, the profile cache and the event stream follow it and
degrade (logged, counted) when their backend fails, since the durable write already
happened (``reindex()`` repairs the index).

Read-audit entries are buffered (:class:`ReadAuditBuffer`): a write per ``recall`` costs
more than the recall itself, so they ride along with the next write.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import privacy
from ..config import PiiMode
from ..embed import represents
from ..entities import AuditEntry, MemoryRecord, Provenance, Status
from ..errors import UserMemoryError
from ..llm import Embedder
from ..recall.retrieve import embedding_parts
from ..storage.protocols import VectorItem, WriteBatch

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from .._base import MemoryBase

__all__ = [
    "BackgroundFlush",
    "ReadAuditBuffer",
    "commit",
    "index_records",
    "mask_record",
    "memory_event",
    "vector_parts",
]


_DROPS_KEPT = 4096


class ReadAuditBuffer:
    """Read-audit entries waiting for the next write (thread-safe).

    Entries taken for a write (a flush, or another user's write they ride along with) are
    in flight until that write settles (:meth:`done` or :meth:`restore`); an erase
    (:meth:`erasing`) waits for that user's in-flight entries, so it cannot be overtaken
    by a write that took them before it.

    While the store keeps failing, the buffer stays bounded and quiet: it holds at most
    ``max_pending`` entries (the oldest go first, each one reported to ``on_overflow``),
    and after a failed write no flush is due again for a back-off that doubles with each
    failure in a row (0.5 s up to 30 s), so a recall-heavy process does not retry the
    store on every read (write-through, ``limit`` 1, never backs off: each read's write
    is attempted, and its failure raised).
    """

    def __init__(
        self,
        max_pending: int = 100_000,
        *,
        on_overflow: Callable[[int], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pending: list[AuditEntry] = []
        self._max = max(1, int(max_pending))
        self._on_overflow = on_overflow  # called (under the lock) with the entries dropped
        self._clock = clock
        self._failures = 0  # writes that failed in a row (restore() since the last done())
        self._retry_at = 0.0  # no flush is due before this (clock) time after a failure
        self._lock = threading.Lock()
        self._settled = threading.Condition(self._lock)
        self._inflight: dict[int, frozenset[str]] = {}  # id of a taken list -> its users
        self._erasing: dict[str, int] = {}  # users being erased (erasing() calls open)
        self._drops = 0  # erasing() calls ended so far
        # the latest erasures (user -> self._drops at its end): a read that started
        # before one of them may have read records that are gone
        self._dropped: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._pending)

    def mark(self) -> int:
        """Taken when a read starts; pass it to :meth:`add` with the read's entry."""
        return self._drops

    def add(self, entry: AuditEntry, limit: int, *, since: int | None = None) -> bool:
        """Buffer ``entry``; whether the buffer is now due for a flush (full or old).

        With ``since`` (a :meth:`mark` taken when the read started), the entry is not
        buffered if its user's erase ran at any time since then (see :meth:`erasing`):
        the read may have seen records the erase removed.
        """
        with self._lock:
            if since is not None and (
                entry.user_id in self._erasing or self._dropped.get(entry.user_id, -1) > since
            ):
                return False
            self._pending.append(entry)
            self._trim()
            if limit > 1 and self._failures and self._clock() < self._retry_at:
                return False  # backing off after a failed write: it stays buffered
            return (
                len(self._pending) >= limit
                or (entry.at - self._pending[0].at).total_seconds() > 2.0
                or limit <= 1
            )

    def _trim(self) -> None:
        """Drop the oldest entries beyond ``max_pending`` (under the lock)."""
        excess = len(self._pending) - self._max
        if excess > 0:
            del self._pending[:excess]
            if self._on_overflow is not None:
                self._on_overflow(excess)

    def take(self) -> list[AuditEntry]:
        """Remove and return every buffered entry; pass the list to :meth:`done` once
        written, or to :meth:`restore` if the write failed."""
        with self._lock:
            pending, self._pending = self._pending, []
            if pending:
                self._inflight[id(pending)] = frozenset(a.user_id for a in pending)
        return pending

    def done(self, taken: list[AuditEntry]) -> None:
        """The write that carried ``taken`` (from :meth:`take`) committed."""
        self._settle(taken, restore=False)

    def restore(self, taken: list[AuditEntry]) -> None:
        """Put entries whose write failed back in front (kept for the next flush)."""
        self._settle(taken, restore=True)

    def _settle(self, taken: list[AuditEntry], *, restore: bool) -> None:
        if not taken:
            return
        with self._lock:
            self._inflight.pop(id(taken), None)
            if restore:
                self._pending[:0] = taken
                self._trim()
                self._failures += 1
                self._retry_at = self._clock() + min(30.0, 0.5 * 2 ** (self._failures - 1))
            else:
                self._failures = 0
            self._settled.notify_all()

    @contextmanager
    def erasing(self, user_id: str) -> Iterator[None]:
        """Around an erase of ``user_id``: drops its buffered entries once any write that
        took some of them has settled, and refuses the entries of reads that overlap the
        erase (started before its end), so no read of the erased user is written after it.
        """
        with self._lock:
            self._settled.wait_for(
                lambda: not any(user_id in users for users in self._inflight.values())
            )
            self._pending = [a for a in self._pending if a.user_id != user_id]
            self._erasing[user_id] = self._erasing.get(user_id, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                self._erasing[user_id] -= 1
                if not self._erasing[user_id]:
                    del self._erasing[user_id]
                self._drops += 1
                self._dropped.pop(user_id, None)
                self._dropped[user_id] = self._drops
                if len(self._dropped) > _DROPS_KEPT:  # a read spanning 4096 erasures: none
                    del self._dropped[next(iter(self._dropped))]


class BackgroundFlush:
    """Runs a flush on a short-lived thread, one at a time (thread-safe).

    A request while a flush runs makes that thread flush once more before it exits, so
    nothing requested waits for a later request. The thread ends when there is nothing
    left to do: an instance that is never closed leaves no thread behind. It is not a
    daemon: the interpreter waits for a flush under way before it exits, so a program
    that never calls ``close`` still gets the entries it took (a daemon thread was
    stopped mid-write and they were lost).
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._again = False

    def request(self, flush: Callable[[], None]) -> None:
        """Run ``flush`` in the background (again after the running one, if one runs)."""
        with self._lock:
            if self._thread is not None:
                self._again = True
                return
            self._thread = threading.Thread(
                target=self._run, args=(flush,), name=self._name, daemon=False
            )
            self._thread.start()

    def _run(self, flush: Callable[[], None]) -> None:
        again = True
        try:
            while again:
                try:
                    flush()
                except UserMemoryError as exc:  # the entries stay buffered for the next flush
                    log.warning("background %s failed: %s", self._name, exc)
                with self._lock:
                    again, self._again = self._again, False
                    if not again:
                        self._thread = None
        finally:  # an unexpected error ended the loop: let the next request start a thread
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None

    def wait(self) -> None:
        """Return once no flush runs (call before a final flush on the caller's thread)."""
        with self._lock:
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()


def memory_event(user_id: str, rec: MemoryRecord) -> dict[str, Any]:
    """The ``memory.update`` event published for a written record (the event schema)."""
    return {
        "type": "memory.update",
        "user_id": user_id,
        "system_context": rec.system_context,
        "action": rec.status.value,
        "key": rec.key,
        "record_id": rec.id,
        "version": rec.version,
        "at": rec.updated_at.isoformat(),
    }


def commit(mem: MemoryBase, batch: WriteBatch, user_id: str, *, invalidate: bool = True) -> None:
    """Write ``batch`` durably, then index it, invalidate the cache and publish events.

    Args:
        mem: the memory whose stores receive the batch.
        batch: records, audit entries, conflicts and user state of one user.
        user_id: whose batch it is (the cache key and the events' user).
        invalidate: ``False`` skips everything after the durable write (a session-state
            only update that changes no record).
    """
    if mem.config.pii_mode is PiiMode.MASK_ALL and batch.records:
        batch.records = [mask_record(r) for r in batch.records]
    if not batch:
        return
    pending = mem.read_audit.take()  # buffered reads ride along with the next write
    if pending:
        batch.audit = [*pending, *batch.audit]
    try:
        mem.records.apply(batch)
    except BaseException:
        mem.read_audit.restore(pending)
        if pending:
            batch.audit = batch.audit[len(pending) :]
        raise
    mem.read_audit.done(pending)  # an erase of their users waited for this
    if not invalidate:
        return
    to_index = [r for r in batch.records if r.status in (Status.ACTIVE, Status.PENDING)]
    revoked = [r.id for r in batch.records if r.status is Status.REVOKED]
    if to_index:
        index_records(mem, to_index)
    if revoked:
        try:
            mem.vectors.delete(revoked)
        except UserMemoryError as exc:
            mem._degraded("vectors", exc)
    if mem.cache is not None:
        try:
            mem.cache.invalidate(user_id)
        except UserMemoryError as exc:
            mem._degraded("cache", exc)
    if mem.events is not None:
        for rec in batch.records:
            try:
                mem.events.publish(memory_event(user_id, rec))
            except UserMemoryError as exc:
                mem._degraded("events", exc)
                break


def vector_parts(embedder: Embedder, rec: MemoryRecord) -> list[str]:
    """The texts that index ``rec``, without those the embedder cannot represent
    (Chinese with an English-only model: recall never asks the dense channel about
    them, so their vectors would only cost observe time)."""
    return [t for t in embedding_parts(rec) if represents(embedder, t)]


def index_records(mem: MemoryBase, records: Iterable[MemoryRecord]) -> None:
    """Embed and upsert the vectors of ``records`` (pending ones are not indexed).

    A failing vector index is not an error: the durable write already happened, the ids
    are remembered in ``mem._unindexed`` and ``reindex()`` repairs them later.
    """
    embedder = mem.embedder
    todo = [
        (r, parts)
        for r in records
        if r.status is not Status.PENDING and (parts := vector_parts(embedder, r))
    ]
    if not todo:
        return
    try:
        flat = embedder.embed([t for _, parts in todo for t in parts])
        items = []
        row = 0
        for r, parts in todo:
            v = np.asarray(flat[row : row + len(parts)], dtype=np.float32).sum(axis=0)
            row += len(parts)
            items.append(
                VectorItem(
                    record_id=r.id,
                    user_id=r.user_id,
                    system_context=r.system_context,
                    kind=r.kind,
                    key=r.key,
                    vector=v / max(float(np.linalg.norm(v)), 1e-12),
                )
            )
        mem.vectors.upsert(items)
    except UserMemoryError as exc:
        mem._unindexed.update(r.id for r, _ in todo)
        mem._degraded("vectors", exc)


def mask_record(rec: MemoryRecord) -> MemoryRecord:
    """``rec`` with its value and source span PII-redacted (``PiiMode.MASK_ALL``)."""
    value = privacy.redact(rec.value).text
    span = rec.provenance.span
    prov = rec.provenance
    if span:
        prov = Provenance(**{**prov.to_dict(), "at": prov.at, "span": privacy.redact(span).text})
    return rec.replace(value=value, provenance=prov)
