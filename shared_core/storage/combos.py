"""Production backend combinations: PostgreSQL records + Redis + a vector index.

:func:`open_production` assembles a :class:`~shared_core.storage.registry.Backends` for
the usual deployment, with the failure behaviour of :mod:`shared_core.storage.resilient`
switched on::

    from shared_core import UserMemory
    from shared_core.storage.combos import open_production

    backends = open_production(
        "postgresql://app@db/app?schema=usermemory",
        redis_url="redis://cache:6379/0",        # or redis+cluster://node1:7000/0
        vectors="pgvector",                       # or "pinecone://INDEX?namespace=prod"
        outbox_path="/var/lib/usermemory/vector-outbox.db",
    )
    mem = UserMemory(**backends.memory_kwargs())

``vectors="pgvector"`` keeps the embeddings in the records' database and schema (so
``forget`` erases them in the same transaction); when the server has no ``vector``
extension it says so in one log line and falls back to an embedded index
(``embedded_vectors_path``, in memory by default: run ``UserMemory.reindex()`` at
start-up to rebuild it).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from ..clock import Clock, SystemClock
from ..config import MemoryConfig
from ..errors import ConfigError
from ..metrics import Metrics
from .protocols import EventBus, ProfileCache, RecordStore, SessionStore, VectorIndex
from .registry import Backends, open_component

__all__ = ["ProductionBackends", "open_production", "open_vectors"]

log = logging.getLogger(__name__)


class ProductionBackends(Backends):
    """:class:`Backends` plus the :class:`Metrics` its resilient wrappers count into."""

    __slots__ = ("metrics",)

    def __init__(
        self,
        *,
        records: RecordStore,
        vectors: VectorIndex,
        sessions: SessionStore,
        profile_cache: ProfileCache | None,
        events: EventBus | None,
        metrics: Metrics,
    ) -> None:
        super().__init__(records, vectors, sessions, profile_cache, events)
        self.metrics = metrics

    def memory_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for :class:`~shared_core.pipeline.UserMemory`."""
        return {
            "record_store": self.records,
            "vector_index": self.vectors,
            "session_store": self.sessions,
            "profile_cache": self.profile_cache,
            "event_bus": self.events,
            "metrics": self.metrics,
        }


def open_vectors(
    spec: str,
    records: RecordStore,
    pg_url: str,
    *,
    config: MemoryConfig,
    clock: Clock,
    embedded_vectors_path: str | Path = ":memory:",
) -> VectorIndex:
    """Open the vector index named by ``spec``.

    Args:
        spec: ``"pgvector"``, ``"embedded"``, or a vector URL (``"pinecone://..."``,
            ``"sqlite:///vectors.db"``).
        records: the record store (its schema is reused by pgvector).
        pg_url: the records' PostgreSQL URL (pgvector connects to the same database).
        config: memory configuration.
        clock: time source.
        embedded_vectors_path: SQLite file of the embedded index (fallback or chosen).

    Raises:
        ConfigError: an unknown spec.
        BackendUnavailableError: the chosen server cannot be reached.
    """
    from .vectors import SqliteVectorIndex

    if spec == "embedded":
        return SqliteVectorIndex(str(embedded_vectors_path), clock=clock)
    if spec == "pgvector":
        from .pgvector import PgVectorIndex
        from .postgres_sql import split_postgres_url

        conninfo, ours = split_postgres_url(pg_url)
        schema = str(getattr(records, "schema", ours.get("schema", "usermemory")))
        index = PgVectorIndex.try_open(conninfo, schema=schema, max_size=4)
        if index is not None:
            return index
        log.warning(
            "PostgreSQL has no pgvector extension: vectors go to an embedded index at %s",
            embedded_vectors_path,
        )
        return SqliteVectorIndex(str(embedded_vectors_path), clock=clock)
    if "://" in spec:
        return open_component(spec, "vectors", config=config, clock=clock)  # type: ignore[no-any-return]
    raise ConfigError(f"vectors must be 'pgvector', 'embedded' or a URL, got {spec!r}")


def open_production(
    pg_url: str,
    *,
    redis_url: str | None = None,
    vectors: str = "pgvector",
    outbox_path: str | Path | None = None,
    embedded_vectors_path: str | Path = ":memory:",
    probe_interval: float = 5.0,
    config: MemoryConfig | None = None,
    clock: Clock | None = None,
    metrics: Metrics | None = None,
) -> ProductionBackends:
    """PostgreSQL records, Redis sessions/cache/events, and a vector index, made resilient.

    Args:
        pg_url: ``postgresql://user@host/db?schema=usermemory&pool_max=10``.
        redis_url: ``redis://``, ``rediss://`` or ``redis+cluster://`` URL; ``None`` keeps
            sessions in process and runs without cache and change feed.
        vectors: ``"pgvector"`` (default; falls back to embedded when the extension is
            missing), ``"embedded"`` or a vector URL such as ``"pinecone://INDEX?..."``.
        outbox_path: SQLite file where failed vector writes wait for replay; ``None``
            keeps the outbox in memory (lost on restart: run ``reindex()`` at start-up).
        embedded_vectors_path: SQLite file of an embedded vector index.
        probe_interval: seconds between attempts on a backend that is down.
        config: memory configuration.
        clock: time source.
        metrics: counters for outages/recoveries (pass the same to ``UserMemory``).

    Returns:
        The assembled stores; ``UserMemory(**backends.memory_kwargs())`` uses them.

    Raises:
        ConfigError: a malformed URL or vector spec.
        BackendUnavailableError: PostgreSQL cannot be reached (Redis may be down: its
            stores start degraded).
        MissingDependencyError: a driver is missing (names the extra).
    """
    from .outbox import OutboxVectorIndex
    from .resilient import (
        ResilientEventBus,
        ResilientProfileCache,
        ResilientSessionStore,
    )
    from .session import InMemorySessionStore

    cfg = config or MemoryConfig()
    clk = clock or SystemClock()
    mets = metrics or Metrics()
    opened: list[Any] = []
    try:
        records: RecordStore = open_component(pg_url, "records", config=cfg, clock=clk)
        opened.append(records)
        inner = open_vectors(
            vectors,
            records,
            pg_url,
            config=cfg,
            clock=clk,
            embedded_vectors_path=embedded_vectors_path,
        )
        opened.append(inner)
        if outbox_path is None:
            log.info("vector outbox kept in memory; pass outbox_path= to make it durable")
        vec = OutboxVectorIndex(
            inner, outbox_path or ":memory:", probe_interval=probe_interval, metrics=mets
        )
        opened[-1] = vec
        local = InMemorySessionStore(cfg.session_ttl_seconds, clock=clk)
        sessions: SessionStore = local
        cache: ProfileCache | None = None
        events: EventBus | None = None
        if redis_url is not None:
            primary = open_component(redis_url, "sessions", config=cfg, clock=clk)
            opened.append(primary)
            sessions = ResilientSessionStore(
                primary, local, probe_interval=probe_interval, metrics=mets
            )
            opened[-1] = sessions
            raw_cache = open_component(redis_url, "cache", config=cfg, clock=clk)
            opened.append(raw_cache)
            cache = ResilientProfileCache(raw_cache, probe_interval=probe_interval, metrics=mets)
            raw_events = open_component(redis_url, "events", config=cfg, clock=clk)
            opened.append(raw_events)
            events = ResilientEventBus(raw_events, probe_interval=probe_interval, metrics=mets)
    except BaseException:
        for obj in reversed(opened):
            obj.close()
        raise
    return ProductionBackends(
        records=records,
        vectors=vec,
        sessions=sessions,
        profile_cache=cache,
        events=events,
        metrics=mets,
    )
