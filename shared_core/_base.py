"""Construction, store wiring and the commit path shared by the read and write halves."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Self

import numpy as np

from . import privacy
from .clock import Clock, SystemClock
from .config import MemoryConfig, PiiMode
from .embed import represents
from .entities import (
    AuditEntry,
    MemoryRecord,
    Provenance,
    Status,
)
from .errors import UserMemoryError
from .ingest.extract import RuleExtractor
from .llm import Embedder, Extractor
from .metrics import Metrics
from .recall.fuse import FusionWeights
from .recall.inject import ContextTemplates
from .recall.retrieve import embedding_parts
from .storage.protocols import (
    EventBus,
    ProfileCache,
    RecordStore,
    SessionStore,
    VectorIndex,
    VectorItem,
    WriteBatch,
)

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


class MemoryBase:
    """Stores, config and the commit path; see :class:`shared_core.UserMemory`."""

    def __init__(
        self,
        url: str | None = None,
        *,
        config: MemoryConfig | None = None,
        clock: Clock | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        record_store: RecordStore | None = None,
        vector_index: VectorIndex | None = None,
        session_store: SessionStore | None = None,
        profile_cache: ProfileCache | None = None,
        event_bus: EventBus | None = None,
        templates: ContextTemplates | None = None,
        metrics: Metrics | None = None,
        vectors_url: str | None = None,
        sessions_url: str | None = None,
        cache_url: str | None = None,
        events_url: str | None = None,
    ) -> None:
        self.config = config or MemoryConfig.from_env()
        self.clock: Clock = clock or SystemClock()
        self.url = url or default_url()
        from .storage.registry import open_backend, open_component

        opened: list[Any] = []

        def component(u: str | None, role: Any) -> Any:
            if u is None:
                return None
            obj = open_component(u, role, config=self.config, clock=self.clock)
            opened.append(obj)
            return obj

        try:
            if vector_index is None:
                vector_index = component(vectors_url, "vectors")
            if session_store is None:
                session_store = component(sessions_url, "sessions")
            if profile_cache is None:
                profile_cache = component(cache_url, "cache")
            if event_bus is None:
                event_bus = component(events_url, "events")
            if record_store is None or vector_index is None or session_store is None:
                backends = open_backend(self.url, config=self.config, clock=self.clock)
                record_store = backends.records if record_store is None else record_store
                vector_index = backends.vectors if vector_index is None else vector_index
                session_store = backends.sessions if session_store is None else session_store
                profile_cache = backends.profile_cache if profile_cache is None else profile_cache
                event_bus = backends.events if event_bus is None else event_bus
                used = {
                    id(record_store),
                    id(vector_index),
                    id(session_store),
                    id(profile_cache),
                    id(event_bus),
                }
                for part in (
                    backends.records,
                    backends.vectors,
                    backends.sessions,
                    backends.profile_cache,
                    backends.events,
                ):
                    if part is not None and id(part) not in used:
                        part.close()  # opened by the URL but replaced by an explicit store
        except BaseException:
            for obj in opened:
                obj.close()
            raise
        self.records: RecordStore = record_store
        self.vectors: VectorIndex = vector_index
        self.sessions: SessionStore = session_store
        self.cache = profile_cache
        self.events = event_bus
        self._embedder = embedder
        self.extractor: Extractor = extractor or RuleExtractor()
        self._fallback_extractor = RuleExtractor()
        self.templates = templates or ContextTemplates()
        self.metrics = metrics or Metrics()
        self.fusion = FusionWeights()
        self._unindexed: set[str] = set()
        self._pending_reads: list[AuditEntry] = []
        self._reads_lock = threading.Lock()  # outbox: records whose vectors failed to write

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
        try:
            self.flush_audit()
        except UserMemoryError as exc:
            log.warning(
                "could not flush %d read-audit entries on close: %s", len(self._pending_reads), exc
            )
        for part in (self.records, self.vectors, self.sessions, self.cache, self.events):
            if part is not None:
                part.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def flush_audit(self) -> None:
        """Write buffered read-audit entries now (they are also flushed by every write,
        by ``audit_log``/``export``, on ``close`` and when the buffer is full or old)."""
        with self._reads_lock:
            pending, self._pending_reads = self._pending_reads, []
        if pending:
            try:
                self.records.apply(WriteBatch(audit=pending))
            except UserMemoryError:
                with self._reads_lock:  # keep them for the next flush
                    self._pending_reads[:0] = pending
                raise

    def _audit_read(self, entry: AuditEntry) -> None:
        """Buffer a read entry: a write per recall costs more than the recall itself."""
        limit = self.config.audit_read_batch
        with self._reads_lock:
            self._pending_reads.append(entry)
            due = (
                len(self._pending_reads) >= limit
                or (entry.at - self._pending_reads[0].at).total_seconds() > 2.0
                or limit <= 1
            )
        if due:
            self.flush_audit()

    def _drop_pending_reads(self, user_id: str) -> None:
        with self._reads_lock:
            self._pending_reads = [a for a in self._pending_reads if a.user_id != user_id]

    def _commit(self, batch: WriteBatch, user_id: str, *, invalidate: bool = True) -> None:
        if self.config.pii_mode is PiiMode.MASK_ALL and batch.records:
            batch.records = [_mask_record(r) for r in batch.records]
        if not batch:
            return
        with self._reads_lock:  # buffered reads ride along with the next write
            pending, self._pending_reads = self._pending_reads, []
        if pending:
            batch.audit = [*pending, *batch.audit]
        try:
            self.records.apply(batch)
        except BaseException:
            with self._reads_lock:
                self._pending_reads[:0] = pending
            if pending:
                batch.audit = batch.audit[len(pending) :]
            raise
        if not invalidate:
            return
        to_index = [r for r in batch.records if r.status in (Status.ACTIVE, Status.PENDING)]
        revoked = [r.id for r in batch.records if r.status is Status.REVOKED]
        if to_index:
            self._index(to_index)
        if revoked:
            try:
                self.vectors.delete(revoked)
            except UserMemoryError as exc:
                self._degraded("vectors", exc)
        if self.cache is not None:
            try:
                self.cache.invalidate(user_id)
            except UserMemoryError as exc:
                self._degraded("cache", exc)
        if self.events is not None:
            for rec in batch.records:
                try:
                    self.events.publish(
                        {
                            "type": "memory.update",
                            "user_id": user_id,
                            "system_context": rec.system_context,
                            "action": rec.status.value,
                            "key": rec.key,
                            "record_id": rec.id,
                            "version": rec.version,
                            "at": rec.updated_at.isoformat(),
                        }
                    )
                except UserMemoryError as exc:
                    self._degraded("events", exc)
                    break

    def _vector_parts(self, rec: MemoryRecord) -> list[str]:
        """The texts that index ``rec``, without those the embedder cannot represent
        (Chinese with an English-only model: recall never asks the dense channel about
        them, so their vectors would only cost observe time)."""
        return [t for t in embedding_parts(rec) if represents(self.embedder, t)]

    def _index(self, records: Iterable[MemoryRecord]) -> None:
        todo = [
            (r, parts)
            for r in records
            if r.status is not Status.PENDING and (parts := self._vector_parts(r))
        ]
        if not todo:
            return
        try:
            flat = self.embedder.embed([t for _, parts in todo for t in parts])
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
            self.vectors.upsert(items)
        except UserMemoryError as exc:
            # the durable write already happened: keep it, repair the index later (reindex())
            self._unindexed.update(r.id for r, _ in todo)
            self._degraded("vectors", exc)

    def _degraded(self, backend: str, exc: Exception) -> None:
        log.warning("%s unavailable, continuing degraded: %s", backend, exc)
        self.metrics.inc("backend_degraded", backend=backend)


def _mask_record(rec: MemoryRecord) -> MemoryRecord:
    value = privacy.redact(rec.value).text
    span = rec.provenance.span
    prov = rec.provenance
    if span:
        prov = Provenance(**{**prov.to_dict(), "at": prov.at, "span": privacy.redact(span).text})
    return rec.replace(value=value, provenance=prov)
