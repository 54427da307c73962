"""Backend assembly: a frozen :class:`StorageSpec` -> :func:`open_backend` -> :class:`Backends`.

Every store is named by the scheme of a URL and found in, in order: backends registered
at run time with :func:`register_backend`, the built-in table :data:`BUILTIN_BACKENDS`
(``"module:attr"`` strings, imported only when used), and the ``usermemory.backends``
entry-point group of installed packages (entry-point name = scheme, value =
``"module:factory"``).

A factory is called as ``factory(url, *, config=..., clock=...)`` and returns either a
complete :class:`Backends` or one component (a record store, vector index, session store,
profile cache or event bus). :func:`open_backend` opens a spec (or one URL, which is the
spec ``StorageSpec(records=url)``): each role comes from its own URL or store object in
the spec, else from the records URL's scheme when it provides that role (``sqlite://``
records + vectors, ``postgresql://`` records + pgvector), else in process (sessions; a
vector index with a warning that it is not persisted)::

    backends = open_backend("sqlite:///~/.local/share/usermemory/memory.db")
    backends = open_backend(
        StorageSpec(records="postgresql://db/app", sessions="redis://cache:6379/0")
    )
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any, Literal, cast

from .. import _forksafe
from ..clock import Clock, SystemClock
from ..config import MemoryConfig
from ..errors import ConfigError, MissingDependencyError, UnknownBackendError, UserMemoryError
from ..metrics import Metrics
from .protocols import EventBus, ProfileCache, RecordStore, SessionStore, VectorIndex
from .sqlite_open import open_sqlite, sqlite_path_from_url

__all__ = [
    "BUILTIN_BACKENDS",
    "ENTRY_POINT_GROUP",
    "BackendFactory",
    "BackendSpec",
    "Backends",
    "Role",
    "StorageSpec",
    "known_schemes",
    "open_backend",
    "open_component",
    "open_sqlite",
    "register_backend",
    "sqlite_path_from_url",
]

logger = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "usermemory.backends"
Role = Literal["backends", "records", "vectors", "sessions", "cache", "events"]
BackendFactory = Callable[..., Any]
_PROTOCOLS: dict[str, type] = {
    "records": RecordStore,
    "vectors": VectorIndex,
    "sessions": SessionStore,
    "cache": ProfileCache,
    "events": EventBus,
}


@dataclass(slots=True)
class Backends:
    """The stores one memory instance runs on.

    Attributes:
        records: durable records, audit log, conflicts, user state, lexical search.
        vectors: dense vectors of the records.
        sessions: short-term session memory.
        profile_cache: optional hot cache of profiles (e.g. Redis).
        events: optional change feed (e.g. a Redis Stream).
        metrics: the counters the failure-handling wrappers count into (``None``: no
            wrappers); ``UserMemory`` uses them unless it is given its own.
    """

    records: RecordStore
    vectors: VectorIndex
    sessions: SessionStore
    profile_cache: ProfileCache | None = None
    events: EventBus | None = None
    metrics: Metrics | None = None

    def close(self) -> None:
        """Close every store (each exactly once, even if shared)."""
        seen: set[int] = set()
        errors: list[BaseException] = []
        for part in (self.sessions, self.vectors, self.records, self.profile_cache, self.events):
            if part is None or id(part) in seen:
                continue
            seen.add(id(part))
            try:
                part.close()
            except Exception as exc:
                errors.append(exc)
        if errors:
            raise errors[0]


@dataclass(frozen=True, slots=True, kw_only=True)
class StorageSpec:
    """What to open for one memory: a URL (or an already opened store) per role.

    Attributes:
        records: the record store's URL (``sqlite:///memory.db``, ``postgresql://...``) or
            a :class:`~shared_core.storage.protocols.RecordStore`.
        vectors: a vector URL (``pinecone://INDEX?namespace=prod``, ``sqlite:///vec.db``)
            or index; ``None`` takes the records scheme's own (SQLite: the same file;
            PostgreSQL: pgvector in the same schema, see :func:`open_postgres_vectors`),
            else an in-process index (logged: it is not persisted).
        sessions: a session-store URL (``redis://...``) or store; ``None``: in process.
        cache: a profile-cache URL (``redis://...``) or cache; ``None``: no cache.
        events: an event-bus URL (``redis://...``) or bus; ``None``: no change feed.
        resilient: wrap the stores in the failure handling of
            :mod:`shared_core.storage.resilient`: sessions fall back to an in-process store
            while their server is down, cache and events are skipped, and vector writes that
            fail wait in an outbox for replay.
        outbox: SQLite file of that outbox (``None``: in memory, lost on restart: run
            ``UserMemory.reindex()`` at start-up).
        probe_interval: seconds between attempts on a backend that is down.

    Store objects passed here belong to the opened :class:`Backends` (closed with it).
    """

    records: str | RecordStore
    vectors: str | VectorIndex | None = None
    sessions: str | SessionStore | None = None
    cache: str | ProfileCache | None = None
    events: str | EventBus | None = None
    resilient: bool = False
    outbox: str | None = None
    probe_interval: float = 5.0


@dataclass(frozen=True, slots=True)
class BackendSpec:
    """How to open one scheme.

    Attributes:
        factories: role -> factory (a callable or a lazy ``"module:attr"`` string). Role
            ``"backends"`` returns a complete :class:`Backends` (or one component).
        extra: the ``pip install "usermemory[extra]"`` that provides the driver.
        description: one line for error messages and docs.
    """

    factories: Mapping[str, str | BackendFactory]
    extra: str | None = None
    description: str = ""


def _spec(extra: str | None, description: str, **factories: str) -> BackendSpec:
    return BackendSpec(MappingProxyType(factories), extra, description)


#: The built-in schemes. Add a line here for a new in-tree backend.
BUILTIN_BACKENDS: Mapping[str, BackendSpec] = MappingProxyType(
    {
        "sqlite": _spec(
            None,
            "embedded SQLite file (records, vectors) + in-process sessions",
            backends="shared_core.storage.sqlite_open:open_sqlite",
            records="shared_core.storage.sqlite_open:open_sqlite_records",
            vectors="shared_core.storage.sqlite_open:open_sqlite_vectors",
        ),
        "postgresql": _spec(
            "postgres",
            "PostgreSQL records + pgvector (in process without the extension, logged)",
            records="shared_core.storage.postgres:open_postgres",
            vectors="shared_core.storage.pgvector:open_postgres_vectors",
        ),
        "postgres": _spec(
            "postgres",
            "PostgreSQL records + pgvector (in process without the extension, logged)",
            records="shared_core.storage.postgres:open_postgres",
            vectors="shared_core.storage.pgvector:open_postgres_vectors",
        ),
        "redis": _spec(
            "redis",
            "Redis sessions, profile cache and event stream",
            sessions="shared_core.storage.redis:open_redis_sessions",
            cache="shared_core.storage.redis_events:open_redis_cache",
            events="shared_core.storage.redis_events:open_redis_events",
        ),
        "rediss": _spec(
            "redis",
            "Redis over TLS",
            sessions="shared_core.storage.redis:open_redis_sessions",
            cache="shared_core.storage.redis_events:open_redis_cache",
            events="shared_core.storage.redis_events:open_redis_events",
        ),
        "redis+cluster": _spec(
            "redis",
            "Redis Cluster sessions, profile cache and event stream",
            sessions="shared_core.storage.redis:open_redis_sessions",
            cache="shared_core.storage.redis_events:open_redis_cache",
            events="shared_core.storage.redis_events:open_redis_events",
        ),
        "rediss+cluster": _spec(
            "redis",
            "Redis Cluster over TLS",
            sessions="shared_core.storage.redis:open_redis_sessions",
            cache="shared_core.storage.redis_events:open_redis_cache",
            events="shared_core.storage.redis_events:open_redis_events",
        ),
        "pinecone": _spec(
            "pinecone",
            "Pinecone vector index",
            vectors="shared_core.storage.pinecone:open_pinecone",
        ),
    }
)

_registered: dict[str, BackendSpec] = {}
_lock = threading.Lock()
_forksafe.renew_lock(globals(), "_lock")


def register_backend(
    scheme: str,
    factory: str | BackendFactory,
    *,
    role: Role = "backends",
    extra: str | None = None,
    description: str = "",
) -> None:
    """Register (or replace) the factory of ``scheme`` for one role.

    Args:
        scheme: URL scheme, case-insensitive (``"mydb"`` for ``mydb://...``).
        factory: ``factory(url, *, config, clock)`` or a ``"module:attr"`` string.
        role: what the factory returns; ``"backends"`` (default) may return a full
            :class:`Backends` or a single component.
        extra: install hint used when its import fails.
        description: shown in error messages.

    Raises:
        ConfigError: the scheme or role is malformed.
    """
    name = _norm_scheme(scheme)
    if role not in ("backends", *_PROTOCOLS):
        raise ConfigError(f"unknown backend role {role!r}")
    if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
        raise ConfigError("factory must be callable or a 'module:attr' string")
    with _lock:
        old = _registered.get(name)
        factories = dict(old.factories) if old else {}
        factories[role] = factory
        _registered[name] = BackendSpec(
            MappingProxyType(factories), extra or (old.extra if old else None), description
        )


def _norm_scheme(scheme: str) -> str:
    name = scheme.strip().lower()
    if not name or not all(c.isalnum() or c in "+-." for c in name):
        raise ConfigError(f"invalid URL scheme {scheme!r}")
    return name


def _entry_point_specs() -> dict[str, BackendSpec]:
    out: dict[str, BackendSpec] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        extra = getattr(dist, "name", None) if dist is not None else None
        out[ep.name.lower()] = BackendSpec(
            MappingProxyType({"backends": ep.value}), extra, f"entry point {ep.value}"
        )
    return out


def known_schemes() -> list[str]:
    """Every scheme that can be opened (registered, built-in and entry points), sorted."""
    with _lock:
        names = set(_registered) | set(BUILTIN_BACKENDS)
    return sorted(names | set(_entry_point_specs()))


def _lookup(url: str) -> tuple[str, BackendSpec]:
    if not isinstance(url, str) or "://" not in url:
        raise ConfigError(f"backend URL must look like 'scheme://...', got {url!r}")
    scheme = _norm_scheme(url.split("://", 1)[0])
    with _lock:
        spec = _registered.get(scheme) or BUILTIN_BACKENDS.get(scheme)
    if spec is None:
        spec = _entry_point_specs().get(scheme)
    if spec is None:
        raise UnknownBackendError(
            f"no storage backend for {scheme!r}:// URLs;"
            f" known schemes: {', '.join(known_schemes())}"
        )
    return scheme, spec


def _resolve(target: str | BackendFactory, scheme: str, extra: str | None) -> BackendFactory:
    if callable(target):
        return target
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        if missing.split(".")[0] == "shared_core":
            raise ConfigError(
                f"backend {scheme!r} points at missing module {module_name!r}"
            ) from exc
        raise MissingDependencyError(missing, extra or scheme) from exc
    try:
        return cast(BackendFactory, getattr(module, attr))
    except AttributeError as exc:
        raise ConfigError(f"backend {scheme!r}: {module_name!r} has no {attr!r}") from exc


def _role_of(obj: object) -> str | None:
    for role, proto in _PROTOCOLS.items():
        if isinstance(obj, proto):
            return role
    return None


def _call(
    target: str | BackendFactory,
    scheme: str,
    spec: BackendSpec,
    url: str,
    config: MemoryConfig,
    clock: Clock,
) -> Any:
    factory = _resolve(target, scheme, spec.extra)
    try:
        return factory(url, config=config, clock=clock)
    except UserMemoryError:
        raise
    except ImportError as exc:
        raise MissingDependencyError(exc.name or scheme, spec.extra or scheme) from exc


def open_backend(
    spec: str | StorageSpec,
    *,
    config: MemoryConfig | None = None,
    clock: Clock | None = None,
    metrics: Metrics | None = None,
) -> Backends:
    """Open the stores of ``spec`` (the one way backends are assembled).

    Args:
        spec: a :class:`StorageSpec`, or one URL (``"sqlite:///memory.db"``,
            ``"sqlite:///:memory:"``, ``"postgresql://localhost/app"``) meaning
            ``StorageSpec(records=url)``.
        config: memory configuration (session TTL, ...).
        clock: time source handed to every store.
        metrics: counters for the failure-handling wrappers (``spec.resilient``).

    Returns:
        A complete :class:`Backends`; roles nobody provides run in process.

    Raises:
        ConfigError: malformed URL, a scheme that cannot serve a role, or no record store.
        UnknownBackendError: no backend for the scheme (the message lists the known ones).
        MissingDependencyError: the driver is not installed (names the extra).
        BackendUnavailableError: a server cannot be reached (with ``resilient``, only the
            record store's and the vector index's servers must be up).
    """
    spec = StorageSpec(records=spec) if isinstance(spec, str) else spec
    if not isinstance(spec, StorageSpec):
        raise ConfigError(f"expected a URL or a StorageSpec, got {type(spec).__name__}")
    cfg = config or MemoryConfig()
    clk = clock or SystemClock()
    opened: list[Any] = []  # closed again if assembly fails
    try:
        parts = _base_parts(spec, cfg, clk, opened)
        if isinstance(parts.get(""), Backends):  # a factory's complete set, used as it is
            return cast(Backends, parts[""])
        for role, given in (
            ("vectors", spec.vectors),
            ("sessions", spec.sessions),
            ("cache", spec.cache),
            ("events", spec.events),
        ):
            if isinstance(given, str):
                parts[role] = open_component(given, role, config=cfg, clock=clk)  # type: ignore[arg-type]
                opened.append(parts[role])
            elif given is not None:
                parts[role] = given
        if "vectors" not in parts:
            from .vectors import SqliteVectorIndex

            if isinstance(spec.records, str):
                logger.warning(
                    "%s:// has no vector index; using an in-process one (vectors are not"
                    " persisted: pass StorageSpec(vectors=...) to keep them)",
                    _lookup(spec.records)[0],
                )
            parts["vectors"] = SqliteVectorIndex(":memory:", clock=clk)
        if spec.resilient:
            metrics = metrics or Metrics()
            _make_resilient(parts, spec, cfg, clk, metrics, opened)
        if "sessions" not in parts:
            from .session import InMemorySessionStore

            parts["sessions"] = InMemorySessionStore(cfg.session_ttl_seconds, clock=clk)
    except BaseException:
        for obj in reversed(opened):
            obj.close()
        raise
    return Backends(
        records=parts["records"],
        vectors=parts["vectors"],
        sessions=parts["sessions"],
        profile_cache=parts.get("cache"),
        events=parts.get("events"),
        metrics=metrics if spec.resilient else None,
    )


def _base_parts(
    spec: StorageSpec, cfg: MemoryConfig, clk: Clock, opened: list[Any]
) -> dict[str, Any]:
    """The record store, plus what the records URL's scheme provides for unset roles."""
    if not isinstance(spec.records, str):
        if not isinstance(spec.records, RecordStore):
            raise ConfigError(f"records must be a URL or a RecordStore, got {spec.records!r}")
        return {"records": spec.records}
    scheme, reg = _lookup(spec.records)
    wanted = ["records"]
    if spec.vectors is None:
        wanted.append("vectors")
    if spec.sessions is None:
        wanted.append("sessions")
    parts: dict[str, Any] = {}
    if "backends" in reg.factories and ("vectors" in wanted or "records" not in reg.factories):
        result = _call(reg.factories["backends"], scheme, reg, spec.records, cfg, clk)
        plain = spec == StorageSpec(records=spec.records)
        if isinstance(result, Backends) and plain:
            return {"": result}
        if isinstance(result, Backends):
            got: dict[str, Any] = {
                "records": result.records,
                "vectors": result.vectors,
                "sessions": result.sessions,
                "cache": result.profile_cache,
                "events": result.events,
            }
        else:
            role = _role_of(result)
            if role is None:
                raise ConfigError(
                    f"backend {scheme!r} returned {type(result).__name__}, not a store"
                )
            got = {role: result}
        for role, part in got.items():
            if part is None:
                continue
            if role in wanted or (role in ("cache", "events") and getattr(spec, role) is None):
                parts[role] = part
                opened.append(part)
            else:
                part.close()  # the spec names another store for this role
    else:
        for role in wanted:
            if role in reg.factories:
                parts[role] = _call(reg.factories[role], scheme, reg, spec.records, cfg, clk)
                opened.append(parts[role])
    if "records" not in parts:
        raise ConfigError(
            f"{scheme}:// provides {', '.join(sorted(reg.factories))}, not a record store; "
            f"name it as that role in a StorageSpec next to a record store URL"
        )
    return parts


def _make_resilient(
    parts: dict[str, Any],
    spec: StorageSpec,
    cfg: MemoryConfig,
    clk: Clock,
    metrics: Metrics,
    opened: list[Any],
) -> None:
    from .outbox import OutboxVectorIndex
    from .resilient import (
        Breaker,
        ResilientEventBus,
        ResilientProfileCache,
        ResilientSessionStore,
    )
    from .session import InMemorySessionStore

    probe = spec.probe_interval
    # one breaker per server: when sessions, cache and events share a URL, a hung server
    # costs one socket timeout, then all three skip it until the next probe
    roles = {r: getattr(spec, r) for r in ("sessions", "cache", "events") if r in parts}
    by_url: dict[str, list[str]] = {}
    for role, where in roles.items():
        by_url.setdefault(where if isinstance(where, str) else f"{role}:{id(where)}", []).append(
            role
        )
    shared: dict[str, Breaker] = {}
    for group in by_url.values():
        breaker = Breaker("+".join(group), probe_interval=probe, metrics=metrics)
        shared.update(dict.fromkeys(group, breaker))
    if spec.outbox is None:
        logger.info("vector outbox kept in memory; pass StorageSpec(outbox=path) to keep it")
    parts["vectors"] = OutboxVectorIndex(
        parts["vectors"], spec.outbox or ":memory:", probe_interval=probe, metrics=metrics
    )
    opened.append(parts["vectors"])
    if spec.sessions is not None:
        local = InMemorySessionStore(cfg.session_ttl_seconds, clock=clk)
        parts["sessions"] = ResilientSessionStore(
            parts["sessions"], local, breaker=shared["sessions"]
        )
    if "cache" in parts:
        parts["cache"] = ResilientProfileCache(parts["cache"], breaker=shared["cache"])
    if "events" in parts:
        parts["events"] = ResilientEventBus(
            parts["events"], breaker=shared["events"], metrics=metrics
        )


def open_component(
    url: str, role: Role, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> Any:
    """Open one store of ``url`` for one role.

    Args:
        url: the backend URL.
        role: ``records``, ``vectors``, ``sessions``, ``cache`` or ``events``.
        config: memory configuration.
        clock: time source.

    Raises:
        ConfigError: the scheme cannot serve that role.
        UnknownBackendError: no backend for the scheme.
        MissingDependencyError: the driver is not installed.
    """
    cfg = config or MemoryConfig()
    clk = clock or SystemClock()
    scheme, spec = _lookup(url)
    if role in spec.factories and role != "backends":
        obj = _call(spec.factories[role], scheme, spec, url, cfg, clk)
    elif "backends" in spec.factories and role in ("records", "vectors", "sessions"):
        full = open_backend(url, config=cfg, clock=clk)
        obj = getattr(full, role)
        for other in ("records", "vectors", "sessions", "profile_cache", "events"):
            part = getattr(full, other)
            if other != role and part is not None:
                part.close()
        return obj
    else:
        raise ConfigError(
            f"{scheme}:// cannot serve as {role!r}; it provides {sorted(spec.factories)}"
        )
    proto = _PROTOCOLS.get(role)
    if proto is not None and not isinstance(obj, proto):
        raise ConfigError(f"{scheme}:// factory for {role!r} returned {type(obj).__name__}")
    return obj
