"""Failure behaviour for production stores, as wrappers around the storage protocols.

- :class:`ResilientSessionStore` -- sessions in Redis; when Redis does not answer, the
  store switches to an in-process fallback (logged once, counted), probes Redis again at
  most every ``probe_interval`` seconds, and when it answers copies the sessions written
  during the outage back to it, applies the erasures it missed and resumes using it.
- :class:`ResilientProfileCache` -- a profile cache that turns into "always miss" while
  Redis is down (reads go to the durable store) and, when Redis returns, first drops
  the cached profiles of every user written to during the outage, so no stale profile
  is served.
- :class:`ResilientEventBus` -- skips publishing while the bus is down (counted) and
  replays missed erasures of stream entries when it returns.
- :class:`~shared_core.storage.outbox.OutboxVectorIndex` (its own module) -- vector
  writes that fail after the SQL write are kept in a durable outbox (a small SQLite file
  with ``secure_delete``) and replayed, in order, before the next call that reaches the
  index, or by ``OutboxVectorIndex.replay()``.
  Searches while the index is down return no dense hits (recall keeps its key and
  lexical channels).

Only :class:`~shared_core.errors.BackendError` (for the caches:
:class:`~shared_core.errors.BackendUnavailableError`) triggers the fallback; invalid
input and programming errors still raise.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from ..entities import SessionTurn
from ..errors import (
    BackendUnavailableError,
    ConfigError,
)
from ..metrics import Metrics
from .protocols import (
    EventBus,
    ProfileCache,
    SessionStore,
    after_fork,
)

__all__ = [
    "Breaker",
    "ResilientEventBus",
    "ResilientProfileCache",
    "ResilientSessionStore",
]

log = logging.getLogger(__name__)

T = TypeVar("T")
S = TypeVar("S", ProfileCache, EventBus)


class Breaker:
    """A small circuit breaker: after a failure, try the backend again at most every N s.

    Args:
        name: the backend's name in logs and metrics (``"sessions"``, ``"cache"``, ...).
        probe_interval: seconds between attempts while the backend is down (0 = every call).
        metrics: counts ``backend_degraded{backend=name}`` once per outage and
            ``backend_recovered{backend=name}`` when the backend answers again.
        monotonic: time source in seconds (``time.monotonic`` by default).
    """

    def __init__(
        self,
        name: str,
        *,
        probe_interval: float = 5.0,
        metrics: Metrics | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if probe_interval < 0:
            raise ConfigError("probe_interval must be >= 0")
        self.name = name
        self.probe_interval = float(probe_interval)
        self.metrics = metrics
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self.healthy = True
        self.outages = 0
        self.recoveries = 0
        self._last_failure = 0.0

    def after_fork(self) -> None:
        """In a forked child: a new lock (the state is kept: the server is the same)."""
        self._lock = threading.Lock()

    def should_try(self) -> bool:
        """Whether the backend may be called now (healthy, or a probe is due)."""
        with self._lock:
            return self.healthy or (self._monotonic() - self._last_failure >= self.probe_interval)

    def failed(self, exc: BaseException) -> None:
        """Record a failure; the first one of an outage is logged and counted."""
        with self._lock:
            self._last_failure = self._monotonic()
            if not self.healthy:
                return
            self.healthy = False
            self.outages += 1
        log.warning("%s unavailable, continuing degraded: %s", self.name, exc)
        if self.metrics is not None:
            self.metrics.inc("backend_degraded", backend=self.name)

    def succeeded(self) -> bool:
        """Record a success; returns True when this ends an outage."""
        with self._lock:
            if self.healthy:
                return False
            self.healthy = True
            self.recoveries += 1
        log.warning("%s answers again, resuming", self.name)
        if self.metrics is not None:
            self.metrics.inc("backend_recovered", backend=self.name)
        return True


def _append(
    store: SessionStore, user_id: str, session_id: str, turn: SessionTurn, device_id: str | None
) -> None:
    """Append a turn and make sure its ``written`` ids are kept.

    ``mark_written`` is idempotent (ids are de-duplicated), and some stores persist
    ``written`` only through it (the Redis store keeps them in a separate hash field).
    """
    store.append(user_id, session_id, turn, device_id=device_id)
    if turn.written:
        store.mark_written(user_id, session_id, turn.turn_id, turn.written)


class ResilientSessionStore:
    """A :class:`SessionStore` that falls back to another one while the primary is down.

    Args:
        primary: e.g. a :class:`~shared_core.storage.redis.RedisSessionStore`.
        fallback: e.g. an :class:`~shared_core.storage.session.InMemorySessionStore`.
        probe_interval: seconds between attempts on the primary while it is down.
        metrics: where outages and recoveries are counted.
        monotonic: time source for the probe interval.
        breaker: share one :class:`Breaker` between the wrappers of one server, so a hung
            server costs one timeout, not one per wrapper.

    While degraded, every call is served by ``fallback``; the sessions touched are
    remembered and, when the primary answers again, copied to it (turns, written ids and
    state) before it is used, so a conversation that spans the outage keeps its context.
    Erasures requested during the outage are applied to the primary first.
    """

    def __init__(
        self,
        primary: SessionStore,
        fallback: SessionStore,
        *,
        probe_interval: float = 5.0,
        metrics: Metrics | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        breaker: Breaker | None = None,
    ) -> None:
        self.primary = primary
        self.fallback = fallback
        self.breaker = breaker or Breaker(
            "sessions", probe_interval=probe_interval, metrics=metrics, monotonic=monotonic
        )
        self._lock = threading.RLock()
        self._touched: dict[tuple[str, str], str | None] = {}  # (user, session) -> device
        self._erased: set[str] = set()

    @property
    def degraded(self) -> bool:
        """True while the primary is considered down."""
        return not self.breaker.healthy

    def _pending_sync(self) -> bool:
        with self._lock:
            return bool(self._erased or self._touched)

    def _resync(self) -> None:
        """Apply missed erasures and copy the outage's sessions to the primary."""
        with self._lock:
            erased, touched = set(self._erased), dict(self._touched)
        for user_id in sorted(erased):
            self.primary.delete_user(user_id)
            with self._lock:
                self._erased.discard(user_id)
        for (user_id, session_id), device_id in touched.items():
            state = dict(self.fallback.get_state(user_id, session_id))
            turns = self.fallback.turns(user_id, session_id)
            for turn in turns:
                _append(self.primary, user_id, session_id, turn, device_id)
            if state:
                self.primary.set_state(user_id, session_id, state)
            self.fallback.end(user_id, session_id)
            with self._lock:
                self._touched.pop((user_id, session_id), None)
        if touched or erased:
            log.info(
                "sessions: copied %d session(s) and %d erasure(s) back to the primary",
                len(touched),
                len(erased),
            )

    def _call(
        self,
        op: Callable[[SessionStore], T],
        *,
        touch: tuple[str, str, str | None] | None = None,
    ) -> T:
        if self.breaker.should_try():
            try:
                if self._pending_sync():  # also when another wrapper closed a shared breaker
                    self._resync()
                result = op(self.primary)
            except BackendUnavailableError as exc:
                self.breaker.failed(exc)
            else:
                self.breaker.succeeded()
                return result
        if touch is not None:
            user_id, session_id, device_id = touch
            with self._lock:
                prev = self._touched.get((user_id, session_id))
                self._touched[(user_id, session_id)] = device_id or prev
        return op(self.fallback)

    def append(
        self, user_id: str, session_id: str, turn: SessionTurn, *, device_id: str | None = None
    ) -> None:
        """Add a turn to the session (primary, or the fallback while degraded)."""
        self._call(
            lambda s: _append(s, user_id, session_id, turn, device_id),
            touch=(user_id, session_id, device_id),
        )

    def turns(
        self, user_id: str, session_id: str, *, limit: int | None = None
    ) -> list[SessionTurn]:
        """The session's turns, oldest first."""
        return self._call(lambda s: s.turns(user_id, session_id, limit=limit))

    def mark_written(
        self, user_id: str, session_id: str, turn_id: str, record_ids: Sequence[str]
    ) -> None:
        """Remember which records a turn wrote."""
        self._call(
            lambda s: s.mark_written(user_id, session_id, turn_id, record_ids),
            touch=(user_id, session_id, None),
        )

    def get_state(self, user_id: str, session_id: str) -> Mapping[str, Any]:
        """Small per-session state."""
        return self._call(lambda s: s.get_state(user_id, session_id))

    def set_state(self, user_id: str, session_id: str, state: Mapping[str, Any]) -> None:
        """Replace the per-session state."""
        self._call(
            lambda s: s.set_state(user_id, session_id, state), touch=(user_id, session_id, None)
        )

    def update_state(
        self,
        user_id: str,
        session_id: str,
        fn: Callable[[dict[str, Any]], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Atomically update the per-session state (in the store that is serving)."""
        return self._call(
            lambda s: s.update_state(user_id, session_id, fn), touch=(user_id, session_id, None)
        )

    def end(self, user_id: str, session_id: str) -> list[SessionTurn]:
        """Drop the session (in both stores) and return its turns."""
        local = self.fallback.end(user_id, session_id)
        with self._lock:
            self._touched.pop((user_id, session_id), None)
        remote = self._call(lambda s: s.end(user_id, session_id) if s is self.primary else [])
        return remote or local

    def sessions(self, user_id: str) -> list[str]:
        """Live session ids of the user."""
        return self._call(lambda s: s.sessions(user_id))

    def delete_user(self, user_id: str) -> int:
        """Drop the user's sessions everywhere.

        Raises:
            BackendUnavailableError: the primary could not be reached. The fallback is
                cleared and the erasure is also kept here and applied before the primary
                is used again, but it has not happened yet: ``UserMemory.forget`` queues it
                durably and reports it as pending.
        """
        removed = self.fallback.delete_user(user_id)
        with self._lock:
            for key in [k for k in self._touched if k[0] == user_id]:
                del self._touched[key]
        if self.breaker.should_try():
            try:
                if self._pending_sync():
                    self._resync()
                removed += self.primary.delete_user(user_id)
            except BackendUnavailableError as exc:
                self.breaker.failed(exc)
            else:
                self.breaker.succeeded()
                return removed
        with self._lock:
            self._erased.add(user_id)
        log.warning("sessions: primary down, erasure of one user queued until it returns")
        raise BackendUnavailableError("session store unreachable: the erasure is pending")

    def after_fork(self) -> None:
        """In a forked child: new locks, and both stores told (see ``ForkAware``)."""
        self._lock = threading.RLock()
        self.breaker.after_fork()
        after_fork(self.primary)
        after_fork(self.fallback)

    def close(self) -> None:
        """Close both stores."""
        try:
            self.primary.close()
        finally:
            self.fallback.close()


class _ErasingGuard(Generic[S]):
    """Shared by the cache and event-bus wrappers: a breaker around ``inner`` plus the
    user erasures that could not be delivered during an outage, delivered first."""

    def __init__(
        self,
        inner: S,
        name: str,
        *,
        probe_interval: float,
        metrics: Metrics | None,
        monotonic: Callable[[], float],
        breaker: Breaker | None = None,
    ) -> None:
        self.inner: S = inner
        self.breaker = breaker or Breaker(
            name, probe_interval=probe_interval, metrics=metrics, monotonic=monotonic
        )
        self._lock = threading.Lock()
        self._pending: set[str] = set()

    def after_fork(self) -> None:
        """In a forked child: new locks, and the wrapped store told (see ``ForkAware``)."""
        self._lock = threading.Lock()
        self.breaker.after_fork()
        after_fork(self.inner)

    def _try(self, op: Callable[[S], T]) -> tuple[bool, T | None]:
        if not self.breaker.should_try():
            return False, None
        try:
            with self._lock:
                pending = sorted(self._pending)
            for user_id in pending:
                self.inner.delete_user(user_id)
                with self._lock:
                    self._pending.discard(user_id)
            result = op(self.inner)
        except BackendUnavailableError as exc:
            self.breaker.failed(exc)
            return False, None
        self.breaker.succeeded()
        return True, result

    def _erase(self, user_id: str) -> int:
        ok, n = self._try(lambda inner: inner.delete_user(user_id))
        if not ok:
            with self._lock:
                self._pending.add(user_id)
            raise BackendUnavailableError(
                f"{self.breaker.name} unreachable: the erasure is pending"
            )
        return int(n or 0)


class ResilientProfileCache(_ErasingGuard[ProfileCache]):
    """A :class:`ProfileCache` that misses while its backend is down and never goes stale.

    Args:
        inner: e.g. a :class:`~shared_core.storage.redis_events.RedisProfileCache`.
        probe_interval: seconds between attempts while the backend is down.
        metrics: where outages and recoveries are counted.
        monotonic: time source for the probe interval.

    Invalidations (and erasures) that could not be delivered during an outage are kept
    and delivered first when the backend answers again: a profile cached before the
    outage is never served after a write that happened during it.
    """

    def __init__(
        self,
        inner: ProfileCache,
        *,
        probe_interval: float = 5.0,
        metrics: Metrics | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        breaker: Breaker | None = None,
    ) -> None:
        super().__init__(
            inner,
            "cache",
            probe_interval=probe_interval,
            metrics=metrics,
            monotonic=monotonic,
            breaker=breaker,
        )

    @property
    def degraded(self) -> bool:
        """True while the cache backend is considered down."""
        return not self.breaker.healthy

    def get(self, user_id: str, system_context: str, scope_key: str = "") -> dict[str, str] | None:
        """The cached profile, or ``None`` (always ``None`` while degraded)."""
        _, hit = self._try(lambda c: c.get(user_id, system_context, scope_key))
        return hit

    def set(
        self, user_id: str, system_context: str, profile: Mapping[str, str], scope_key: str = ""
    ) -> None:
        """Cache a profile (skipped while degraded)."""
        self._try(lambda c: c.set(user_id, system_context, profile, scope_key))

    def invalidate(self, user_id: str) -> None:
        """Drop the user's cached profiles now, or as soon as the backend answers."""
        ok, _ = self._try(lambda c: c.invalidate(user_id))
        if not ok:
            with self._lock:
                self._pending.add(user_id)

    def delete_user(self, user_id: str) -> int:
        """Erase the user's cache entries; return how many.

        Raises:
            BackendUnavailableError: the backend could not be reached (the erasure is
                also kept here and delivered first when it answers).
        """
        return self._erase(user_id)

    def close(self) -> None:
        """Close the wrapped cache."""
        self.inner.close()


class ResilientEventBus(_ErasingGuard[EventBus]):
    """An :class:`EventBus` that skips (and counts) publishing while its backend is down.

    Args:
        inner: e.g. a :class:`~shared_core.storage.redis_events.RedisEventBus`.
        probe_interval: seconds between attempts while the backend is down.
        metrics: counts outages, recoveries and ``events_dropped``.
        monotonic: time source for the probe interval.

    Events of the outage are not replayed (consumers resynchronise from the durable
    store); erasures of stream entries requested during the outage are applied when the
    backend answers again.
    """

    def __init__(
        self,
        inner: EventBus,
        *,
        probe_interval: float = 5.0,
        metrics: Metrics | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        breaker: Breaker | None = None,
    ) -> None:
        super().__init__(
            inner,
            "events",
            probe_interval=probe_interval,
            metrics=metrics,
            monotonic=monotonic,
            breaker=breaker,
        )
        self.metrics = metrics
        self.dropped = 0

    def publish(self, event: Mapping[str, Any]) -> None:
        """Publish one change, or drop it (counted) while the bus is down."""
        ok, _ = self._try(lambda b: b.publish(event))
        if not ok:
            self.dropped += 1
            if self.metrics is not None:
                self.metrics.inc("events_dropped")

    def delete_user(self, user_id: str) -> int:
        """Remove the user's stream entries; return how many.

        Raises:
            BackendUnavailableError: the bus could not be reached (the erasure is also
                kept here and delivered first when it answers).
        """
        return self._erase(user_id)

    def close(self) -> None:
        """Close the wrapped bus."""
        self.inner.close()
