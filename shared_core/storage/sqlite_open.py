"""``sqlite://`` URLs: their path and options, and the registry factories that open the
SQLite stores (:data:`shared_core.storage.registry.BUILTIN_BACKENDS` names them)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlsplit

from ..clock import Clock, SystemClock
from ..config import MemoryConfig
from ..errors import ConfigError

if TYPE_CHECKING:
    from .registry import Backends

__all__ = ["open_sqlite", "open_sqlite_records", "open_sqlite_vectors", "sqlite_path_from_url"]

_SQLITE_OPTIONS = {
    "lexical_cache_size",
    "max_cached_records",
    "max_cached_users",
    "max_cached_vectors",
    "timeout",
}


def sqlite_path_from_url(url: str) -> tuple[str, dict[str, int | float]]:
    """The file path (or ``":memory:"``) and options of a ``sqlite://`` URL.

    ``sqlite:///relative.db``, ``sqlite:////absolute/path.db``, ``sqlite:///~/memory.db``,
    ``sqlite:///:memory:`` and ``sqlite://`` (in memory) are accepted; percent-escapes are
    decoded. Options: ``?timeout=30&lexical_cache_size=1024&max_cached_records=100000``
    ``&max_cached_users=1024&max_cached_vectors=250000``.

    Raises:
        ConfigError: not a sqlite URL, a host is given, or an unknown option.
    """
    parts = urlsplit(url)
    if parts.scheme.lower() != "sqlite":
        raise ConfigError(f"not a sqlite URL: {url!r}")
    if parts.netloc:
        raise ConfigError(f"sqlite URLs have no host; use sqlite:///path.db, got {url!r}")
    raw = unquote(parts.path)
    path = raw[1:] if raw.startswith("/") else raw
    path = ":memory:" if path in ("", ":memory:") else os.path.expanduser(path)
    opts: dict[str, int | float] = {}
    for k, v in parse_qsl(parts.query, keep_blank_values=True):
        if k not in _SQLITE_OPTIONS:
            raise ConfigError(f"unknown sqlite URL option {k!r}; known: {sorted(_SQLITE_OPTIONS)}")
        try:
            opts[k] = float(v) if k == "timeout" else int(v)
        except ValueError as exc:
            raise ConfigError(f"sqlite URL option {k}={v!r} is not a number") from exc
    return path, opts


def open_sqlite(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> Backends:
    """Registry factory: one SQLite file for records and vectors, sessions in process.

    Args:
        url: a ``sqlite://`` URL (see :func:`sqlite_path_from_url`).
        config: memory configuration (the session TTL).
        clock: time source for every store.

    Returns:
        :class:`Backends` whose record store and vector index share one connection.
    """
    from .registry import Backends
    from .session import InMemorySessionStore
    from .sqlite import SqliteRecordStore
    from .sqlite_base import SqliteDatabase
    from .vectors import SqliteVectorIndex

    cfg = config or MemoryConfig()
    clk = clock or SystemClock()
    path, opts = sqlite_path_from_url(url)
    db = SqliteDatabase(path, clock=clk, timeout=float(opts.get("timeout", 30.0)))
    try:
        records = SqliteRecordStore(
            database=db,
            lexical_cache_size=int(opts.get("lexical_cache_size", 1024)),
            max_cached_records=int(opts.get("max_cached_records", 100_000)),
        )
        vectors = SqliteVectorIndex(
            database=db,
            max_cached_users=int(opts.get("max_cached_users", 1024)),
            max_cached_vectors=int(opts.get("max_cached_vectors", 250_000)),
        )
    except BaseException:
        db.close()
        raise
    sessions = InMemorySessionStore(cfg.session_ttl_seconds, clock=clk)
    return Backends(records=records, vectors=vectors, sessions=sessions)


def open_sqlite_records(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> Any:
    """Registry factory: the record store of a ``sqlite://`` URL alone."""
    from .sqlite import SqliteRecordStore

    path, opts = sqlite_path_from_url(url)
    return SqliteRecordStore(
        path,
        clock=clock,
        lexical_cache_size=int(opts.get("lexical_cache_size", 1024)),
        max_cached_records=int(opts.get("max_cached_records", 100_000)),
    )


def open_sqlite_vectors(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> Any:
    """Registry factory: the vector index of a ``sqlite://`` URL alone."""
    from .vectors import SqliteVectorIndex

    path, opts = sqlite_path_from_url(url)
    return SqliteVectorIndex(
        path,
        clock=clock,
        max_cached_users=int(opts.get("max_cached_users", 1024)),
        max_cached_vectors=int(opts.get("max_cached_vectors", 250_000)),
    )
