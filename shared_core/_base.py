"""Construction and store wiring shared by the read and write halves (persisting a batch
is the write path's last step, :mod:`shared_core.ingest.persist`)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Self

from .clock import Clock, SystemClock
from .config import MemoryConfig
from .entities import (
    AuditEntry,
    MemoryRecord,
)
from .errors import UserMemoryError
from .ingest import persist
from .ingest.extract import RuleExtractor
from .llm import Embedder, Extractor
from .metrics import Metrics
from .recall.fuse import FusionWeights
from .recall.inject import ContextTemplates
from .storage.protocols import (
    EventBus,
    ProfileCache,
    RecordStore,
    SessionStore,
    VectorIndex,
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
        self._unindexed: set[str] = set()  # records whose vectors failed to write
        self.read_audit = persist.ReadAuditBuffer()

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
                "could not flush %d read-audit entries on close: %s", len(self.read_audit), exc
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
        pending = self.read_audit.take()
        if pending:
            try:
                self.records.apply(WriteBatch(audit=pending))
            except UserMemoryError:
                self.read_audit.restore(pending)  # kept for the next flush
                raise

    def _audit_read(self, entry: AuditEntry) -> None:
        """Buffer a read entry: a write per recall costs more than the recall itself."""
        if self.read_audit.add(entry, self.config.audit_read_batch):
            self.flush_audit()

    def _drop_pending_reads(self, user_id: str) -> None:
        self.read_audit.drop_user(user_id)

    def _commit(self, batch: WriteBatch, user_id: str, *, invalidate: bool = True) -> None:
        """Persist ``batch`` (see :func:`shared_core.ingest.persist.commit`)."""
        persist.commit(self, batch, user_id, invalidate=invalidate)

    def _vector_parts(self, rec: MemoryRecord) -> list[str]:
        return persist.vector_parts(self.embedder, rec)

    def _index(self, records: Iterable[MemoryRecord]) -> None:
        persist.index_records(self, records)

    def _degraded(self, backend: str, exc: Exception) -> None:
        log.warning("%s unavailable, continuing degraded: %s", backend, exc)
        self.metrics.inc("backend_degraded", backend=backend)
