"""Construction and store wiring shared by the read and write halves (persisting a batch
is the write path's last step, :mod:`shared_core.ingest.persist`)."""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Self

from . import _forksafe
from .clock import Clock, SystemClock
from .config import MemoryConfig
from .entities import (
    NON_ENTITY_KINDS,
    AuditEntry,
    MemoryRecord,
    Status,
)
from .errors import UserMemoryError
from .fencing import UserLocks
from .ingest import persist
from .ingest.extract import RuleExtractor
from .llm import Embedder, Extractor
from .metrics import Metrics
from .recall.inject import ContextTemplates
from .storage.fenced import FencedProfileCache, FencedSessionStore
from .storage.protocols import (
    FencedStore,
    RecordFilter,
    RecordStore,
    SessionStore,
    VectorIndex,
    WriteBatch,
    after_fork,
)
from .storage.registry import Backends, StorageSpec, open_backend

__all__ = ["MemoryBase", "default_url"]

log = logging.getLogger(__name__)


def default_url() -> str:
    """``USERMEMORY_URL`` or a SQLite file in the user's data directory."""
    env = os.environ.get("USERMEMORY_URL")
    if env:
        return env
    import platformdirs

    path = Path(platformdirs.user_data_dir("usermemory", appauthor=False)) / "memory.db"
    return f"sqlite:///{path}"


# instances not closed yet: their buffered read-audit entries are written at interpreter exit
_OPEN: weakref.WeakSet[MemoryBase] = weakref.WeakSet()


@atexit.register
def _flush_open_at_exit() -> None:
    """Write what open instances still buffer (a program need not call ``close``)."""
    for mem in list(_OPEN):
        try:
            mem._final_flush()
        except Exception as exc:  # at exit: log it and go on with the others
            log.warning("could not flush read-audit entries at exit: %s", exc)


def _reset_open_after_fork() -> None:
    """In a child process after ``os.fork()``: every open instance lets go of what the
    parent owns (locks, buffered reads, the flush thread, connections)."""
    for mem in list(_OPEN):
        try:
            mem._after_fork()
        except Exception as exc:  # in the child, before user code runs: log and go on
            log.warning("could not reset a memory instance after fork: %s", exc)


_forksafe.in_child(_reset_open_after_fork)  # the core's one fork hook (_forksafe.py)


class MemoryBase:
    """Stores, config and the commit path; see :class:`shared_core.UserMemory`."""

    def __init__(
        self,
        url: str | StorageSpec | Backends | None = None,
        *,
        config: MemoryConfig | None = None,
        clock: Clock | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        templates: ContextTemplates | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.config = config or MemoryConfig.from_env()
        self.clock: Clock = clock or SystemClock()
        if isinstance(url, Backends):
            backends = url
        else:
            backends = open_backend(
                url or default_url(), config=self.config, clock=self.clock, metrics=metrics
            )
        self.records: RecordStore = backends.records
        self.vectors: VectorIndex = backends.vectors
        self.sessions: SessionStore = backends.sessions
        self.cache = backends.profile_cache
        self.events = backends.events
        metrics = metrics or backends.metrics
        if isinstance(self.records, FencedStore):  # stale-proof short-term stores (fencing.py)
            self.sessions = FencedSessionStore(self.sessions, self.records.fence)
            if self.cache is not None:
                self.cache = FencedProfileCache(self.cache, self.records.fence)
        self._user_locks = UserLocks()
        self._erasures_checked = 0.0
        self._embedder = embedder
        self.extractor: Extractor = extractor or RuleExtractor()
        self._fallback_extractor = RuleExtractor()
        self.templates = templates or ContextTemplates()
        self.metrics = metrics or Metrics()
        for part in (self.records, self.vectors):  # e.g. PostgreSQL's breaker: count outages
            breaker = getattr(part, "breaker", None)
            if breaker is not None and getattr(breaker, "metrics", False) is None:
                breaker.metrics = self.metrics
        self._unindexed: set[str] = set()  # records whose vectors failed to write
        self._audit_overflow_logged = float("-inf")
        self._new_read_audit()
        _OPEN.add(self)

    def _new_read_audit(self) -> None:
        """An empty read-audit buffer, its flush lock and its (threadless) flusher."""
        self.read_audit = persist.ReadAuditBuffer(
            self.config.audit_read_max_pending, on_overflow=self._audit_overflow
        )
        # one flush at a time, from taking the entries to their commit: a flush on the
        # caller's thread (audit_log, close) waits for the one in the background
        self._audit_lock = threading.Lock()
        self._audit_flusher = persist.BackgroundFlush("read-audit flush")

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Self:
        """Open memory at ``url`` (``sqlite:///path.db``, ``sqlite:///:memory:``, ...)."""
        return cls(url, **kwargs)

    # -- lifecycle -------------------------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from .embed import default_embedder

            self._embedder = default_embedder(self.config)
        return self._embedder

    def close(self) -> None:
        """Flush buffered read-audit entries and close every store (idempotent)."""
        _OPEN.discard(self)
        self._final_flush()
        for part in (self.records, self.vectors, self.sessions, self.cache, self.events):
            if part is not None:
                part.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _after_fork(self) -> None:
        """The child's side of a fork (see :func:`_reset_open_after_fork`).

        Locks are replaced (a parent thread may have held one at the fork; it does not
        exist here), the read-audit buffer starts empty (its entries are the parent's,
        which writes them), the background flush starts with no thread (the parent's did
        not survive the fork), and every store is told (``ForkAware.after_fork``: new
        connections of this process, the parent's never used nor closed).
        """
        self._user_locks = UserLocks()
        self._new_read_audit()
        seen: set[int] = set()
        for part in (
            self.records,
            self.vectors,
            self.sessions,
            self.cache,
            self.events,
            self.metrics,
            self._embedder,
        ):
            if part is not None and id(part) not in seen:
                seen.add(id(part))
                after_fork(part)

    def _final_flush(self) -> None:
        """Wait for a background flush, then write what is still buffered (on ``close``
        and at interpreter exit); a store that fails is logged, not raised."""
        self._audit_flusher.wait()
        try:
            self.flush_audit()
        except UserMemoryError as exc:
            log.warning(
                "could not flush %d read-audit entries on close: %s", len(self.read_audit), exc
            )

    def flush_audit(self) -> None:
        """Write buffered read-audit entries now (they are also flushed by every write,
        by ``audit_log``/``export``, on ``close`` and, in the background, when the buffer
        is full or old)."""
        with self._audit_lock:
            pending = self.read_audit.take()
            if pending:
                try:
                    self.records.apply(WriteBatch(audit=pending))
                except BaseException:
                    self.read_audit.restore(pending)  # kept for the next flush
                    raise
                self.read_audit.done(pending)

    def _audit_overflow(self, dropped: int) -> None:
        """The read-audit buffer was full (the store kept failing): its oldest went."""
        self.metrics.inc("read_audit_dropped", dropped)
        now = time.monotonic()
        if now - self._audit_overflow_logged > 60.0:  # once a minute, not once per read
            self._audit_overflow_logged = now
            log.warning(
                "read-audit buffer full (%d entries) while the store fails: dropping the "
                "oldest read entries (usermemory_read_audit_dropped_total counts them)",
                self.config.audit_read_max_pending,
            )

    def _audit_read(self, entry: AuditEntry, since: int | None = None) -> None:
        """Buffer a read entry: a write per recall costs more than the recall itself.

        A full (or old) buffer is written by a background thread, so the recall that
        fills it does not wait for the write (at 1M memories that write was ~2 ms of the
        slowest 5 % of cold recalls); ``audit_read_batch=1`` writes each entry at once,
        on the caller's thread. ``since`` is ``read_audit.mark()`` taken when the read
        started: a user erased after it gets no entry (the read saw erased records).
        """
        batch = self.config.audit_read_batch
        if self.read_audit.add(entry, batch, since=since):
            if batch <= 1:
                self.flush_audit()
            else:
                self._audit_flusher.request(self.flush_audit)

    def _commit(self, batch: WriteBatch, user_id: str, *, invalidate: bool = True) -> None:
        """Persist ``batch`` (see :func:`shared_core.ingest.persist.commit`)."""
        persist.commit(self, batch, user_id, invalidate=invalidate)

    def _vector_parts(self, rec: MemoryRecord) -> list[str]:
        return persist.vector_parts(self.embedder, rec)

    def _index(self, records: Iterable[MemoryRecord]) -> None:
        persist.index_records(self, records)

    def _live_records(self, user_id: str, system_context: str) -> list[MemoryRecord]:
        """The user's active and pending memories in one context (what a write resolves
        against; episodes excluded)."""
        return self.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                statuses=(Status.ACTIVE, Status.PENDING),
                exclude_kinds=NON_ENTITY_KINDS,
            )
        )

    def _degraded(self, backend: str, exc: Exception) -> None:
        log.warning("%s unavailable, continuing degraded: %s", backend, exc)
        self.metrics.inc("backend_degraded", backend=backend)
