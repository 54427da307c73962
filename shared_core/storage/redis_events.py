"""Redis hot profile cache and cross-agent change events (sync).

- :class:`RedisProfileCache` (``ProfileCache``): ``profile:{U}`` HASH, one field per
  ``system_context``/scope, with a TTL; a per-user invalidation counter
  (``profile-gen:{U}``) makes a fill that raced a write a no-op.
- :class:`RedisEventBus` (``EventBus``): XADD to the Stream ``memory.update`` with
  ``MAXLEN ~ maxlen`` trimming; events carry the user id and key names, never values.
- :class:`EventSubscriber`: a consumer-group reader (``XGROUP CREATE ... MKSTREAM``,
  ``XREADGROUP``, ``XACK``) that applies each event to a local cache
  (:class:`LocalProfileCache` by default) and can run in a thread.

Key names, Lua scripts and serialisation are shared with :mod:`shared_core.storage.redis`
(see its docstring for the key layout). Erasing a user from the stream is an XRANGE scan
in pages of ``page`` entries plus XDEL: O(stream length), bounded by ``maxlen``.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from .. import _forksafe
from ..clock import Clock, SystemClock
from ..config import MemoryConfig
from ..errors import ConfigError
from ..ids import check_id
from .protocols import after_fork
from .redis import (
    CACHE_INVALIDATE_LUA,
    CACHE_SET_LUA,
    DEFAULT_PROFILE_TTL,
    GEN_TTL_MS,
    RedisKeys,
    cache_field,
    decode_entry,
    encode_event,
    pick_first,
    s,
    ttl_ms,
)
from .redis_conn import DEFAULT_MAXLEN, Client, connect, parse_redis_url, redis_errors

__all__ = [
    "EventSubscriber",
    "LocalProfileCache",
    "RedisEventBus",
    "RedisProfileCache",
    "miss_gen_get",
    "miss_gen_put",
    "open_redis_cache",
    "open_redis_events",
]

# --------------------------------------------------------------------------- profile cache
_MISS_GEN: contextvars.ContextVar[Mapping[tuple[int, str, str], str]] = contextvars.ContextVar(
    "usermemory_redis_miss_gen", default=MappingProxyType({})
)


def miss_gen_put(cache: object, user_id: str, field: str, gen: Any) -> None:
    """Remember (per thread / asyncio task) the invalidation counter seen at a cache miss."""
    marks = dict(_MISS_GEN.get())
    marks[(id(cache), user_id, field)] = s(gen) if gen is not None else "0"
    _MISS_GEN.set(marks)


def miss_gen_get(cache: object, user_id: str, field: str) -> str:
    """The counter seen at this context's last miss, or ``""`` (unconditional set)."""
    return _MISS_GEN.get().get((id(cache), user_id, field), "")


class RedisProfileCache:
    """``ProfileCache`` on Redis: ``profile:{U}`` hash with a TTL, one field per context/scope.

    A miss records the user's invalidation counter (per thread / asyncio task); the
    following :meth:`set` is applied only if no invalidation happened in between, so a
    reader racing a writer can never put a stale profile back.
    """

    def __init__(
        self,
        client_or_url: Client | str,
        *,
        prefix: str | None = None,
        ttl_seconds: float | None = None,
    ) -> None:
        self._client, self._owned, opts = connect(client_or_url)
        self.keys = RedisKeys(opts.prefix if prefix is None else prefix)
        self._ttl_ms = ttl_ms(pick_first(ttl_seconds, opts.cache_ttl, DEFAULT_PROFILE_TTL))
        self._set = self._client.register_script(CACHE_SET_LUA)
        self._invalidate = self._client.register_script(CACHE_INVALIDATE_LUA)

    def get(self, user_id: str, system_context: str, scope_key: str = "") -> dict[str, str] | None:
        """The cached profile, or ``None`` on a miss."""
        field = cache_field(system_context, scope_key)
        with redis_errors():
            gen = self._client.get(self.keys.profile_gen(user_id))
            raw = self._client.hget(self.keys.profile(user_id), field)
        if raw is None:
            miss_gen_put(self, user_id, field, gen)
            return None
        return {str(k): str(v) for k, v in json.loads(s(raw)).items()}

    def set(
        self, user_id: str, system_context: str, profile: Mapping[str, str], scope_key: str = ""
    ) -> None:
        """Cache a profile (skipped if the user was invalidated since this context's miss)."""
        field = cache_field(system_context, scope_key)
        data = json.dumps({str(k): str(v) for k, v in profile.items()})
        expected = miss_gen_get(self, user_id, field)
        with redis_errors():
            self._set(
                keys=[self.keys.profile(user_id), self.keys.profile_gen(user_id)],
                args=[field, data, self._ttl_ms, expected],
            )

    def invalidate(self, user_id: str) -> None:
        """Drop every cached profile of the user (call after each write)."""
        with redis_errors():
            self._invalidate(
                keys=[self.keys.profile(user_id), self.keys.profile_gen(user_id)], args=[GEN_TTL_MS]
            )

    def delete_user(self, user_id: str) -> int:
        """Delete the user's cache keys; return how many existed."""
        with redis_errors():
            return sum(
                int(self._client.delete(k))
                for k in (self.keys.profile(user_id), self.keys.profile_gen(user_id))
            )

    def close(self) -> None:
        """Close the client if this object created it from a URL."""
        if self._owned:
            with contextlib.suppress(Exception):
                self._client.close()


class LocalProfileCache:
    """An in-process ``ProfileCache`` (a dict) that :class:`EventSubscriber` keeps fresh."""

    def __init__(self) -> None:
        self._data: dict[tuple[str, str, str], dict[str, str]] = {}
        self._lock = threading.Lock()

    def after_fork(self) -> None:
        """In a forked child: empty, with a new lock. The subscriber that invalidated
        the entries is a thread of the parent: the copies could go stale here (the
        child's copy of the :class:`EventSubscriber` subscribes anew)."""
        self._lock = threading.Lock()
        self._data = {}

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._data.clear()

    def get(self, user_id: str, system_context: str, scope_key: str = "") -> dict[str, str] | None:
        """The cached profile, or ``None``."""
        with self._lock:
            hit = self._data.get((user_id, system_context, scope_key))
            return dict(hit) if hit is not None else None

    def set(
        self, user_id: str, system_context: str, profile: Mapping[str, str], scope_key: str = ""
    ) -> None:
        """Cache a profile."""
        with self._lock:
            self._data[(user_id, system_context, scope_key)] = dict(profile)

    def invalidate(self, user_id: str) -> None:
        """Drop every cached profile of the user."""
        self.delete_user(user_id)

    def delete_user(self, user_id: str) -> int:
        """Drop the user's entries; return how many there were."""
        with self._lock:
            gone = [k for k in self._data if k[0] == user_id]
            for k in gone:
                del self._data[k]
            return len(gone)

    def __len__(self) -> int:
        return len(self._data)

    def close(self) -> None:
        """Forget every entry."""
        self.clear()


# --------------------------------------------------------------------------- events
class RedisEventBus:
    """``EventBus`` on a Redis Stream (``XADD ... MAXLEN ~ maxlen``).

    Args:
        client_or_url: a client or a Redis URL.
        prefix: prepended to the stream key.
        stream: the stream name (default ``memory.update``).
        maxlen: approximate cap on the stream length (older entries are trimmed).
        clock: stamps ``at`` on events that lack it.
    """

    def __init__(
        self,
        client_or_url: Client | str,
        *,
        prefix: str | None = None,
        stream: str | None = None,
        maxlen: int = DEFAULT_MAXLEN,
        clock: Clock | None = None,
    ) -> None:
        if maxlen < 1:
            raise ConfigError("maxlen must be >= 1")
        self._client, self._owned, opts = connect(client_or_url)
        self.keys = RedisKeys(opts.prefix if prefix is None else prefix, stream or opts.stream)
        self.maxlen = maxlen
        self._clock = clock or SystemClock()

    @property
    def stream(self) -> str:
        """The full name of the change stream key."""
        return self.keys.stream

    def publish(self, event: Mapping[str, Any]) -> None:
        """Append one change event (user id, key names, ids; never memory values)."""
        fields = encode_event(event, self._clock)
        with redis_errors():
            self._client.xadd(self.stream, fields, maxlen=self.maxlen, approximate=True)

    def delete_user(self, user_id: str, *, page: int = 1000) -> int:
        """XDEL every stream entry of the user (a full XRANGE scan); return how many."""
        check_id(user_id, "user_id")
        removed, start = 0, "-"
        with redis_errors():
            while True:
                batch = self._client.xrange(self.stream, min=start, max="+", count=page)
                if not batch:
                    return removed
                mine = [s(e) for e, f in batch if decode_entry(f).get("user_id") == user_id]
                if mine:
                    removed += int(self._client.xdel(self.stream, *mine))
                start = "(" + s(batch[-1][0])

    def close(self) -> None:
        """Close the client if this object created it from a URL."""
        if self._owned:
            with contextlib.suppress(Exception):
                self._client.close()


class EventSubscriber:
    """Consumes ``memory.update`` with a consumer group and applies events locally.

    Each event is delivered to one consumer of the group, applied (the user's entries of
    ``cache`` are invalidated, then ``handler(event)`` runs) and XACKed. Entries pending
    for this consumer (delivered, not acked: a crash) are processed first.

    After ``os.fork()`` the child's copy has a cache of its own (emptied), so it needs
    every event, not a share of the parent's group: on its first poll it reads in a
    group of its own, ``<group>.<child pid>``, from the stream's end (created, or moved
    there if a process with the same pid left it), then empties its cache again (what
    was cached before the group existed could have missed an invalidation). If the
    parent's thread was running at the fork, the child starts its own with the same
    arguments; ``handler`` then runs in both processes. :meth:`close` in the child
    deletes its group (a child that never closes leaves an empty group behind).

    Args:
        client_or_url: a client or a Redis URL.
        group: the consumer group (created with ``XGROUP CREATE ... MKSTREAM``).
        consumer: this consumer's name, unique within the group.
        cache: a local ``ProfileCache`` to invalidate (default: a new :class:`LocalProfileCache`).
        handler: called with every event after the cache is updated.
        start_id: where a new group starts: ``"$"`` (only new events) or ``"0"`` (all).
    """

    def __init__(
        self,
        client_or_url: Client | str,
        *,
        group: str,
        consumer: str,
        prefix: str | None = None,
        stream: str | None = None,
        cache: Any | None = None,
        handler: Callable[[dict[str, str]], None] | None = None,
        start_id: str = "$",
        batch: int = 100,
    ) -> None:
        self._client, self._owned, opts = connect(client_or_url)
        self.keys = RedisKeys(opts.prefix if prefix is None else prefix, stream or opts.stream)
        self.group = check_id(group, "group")
        self._first_group = self.group
        self.consumer = check_id(consumer, "consumer")
        self.cache = cache if cache is not None else LocalProfileCache()
        self.handler = handler
        self.batch = batch
        self.processed = 0
        self._pending_done = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._running = False  # a run() loop is under way (restarted in a forked child)
        self._run_args: dict[str, Any] = {}
        self._owns_group = False  # a forked child's own group, deleted by close()
        self._join_own_group = False  # set in a forked child: join it on the next poll
        self.ensure_group(start_id)
        _forksafe.track(self)

    def after_fork(self) -> None:
        """In a forked child (see the class doc): its own group, joined on the next
        poll; a new stop flag and the cache emptied with new locks; the thread
        restarted if the parent's was running. No I/O here: the thread (or the
        caller's first poll) joins the group."""
        restart = self._thread is not None and self._running
        self._stop = threading.Event()
        self._thread = None
        self._running = False
        self.group = f"{self._first_group}.{os.getpid()}"
        self._owns_group = True
        self._join_own_group = True
        self._pending_done = False
        after_fork(self.cache)
        if restart:
            self.start(**self._run_args)

    def _join_group_here(self) -> None:
        """A forked child's group: created at the stream's end, or moved there."""
        from redis import exceptions as rx

        with redis_errors():
            try:
                self._client.xgroup_create(self.keys.stream, self.group, id="$", mkstream=True)
            except rx.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise
                self._client.xgroup_setid(self.keys.stream, self.group, "$")
        # Emptied after joining (what was cached before may have missed an event) and
        # only then marked joined, so a caller that waits for the join sees the cache
        # as it will stay: an entry set after that is kept until an event names it.
        clear = getattr(self.cache, "clear", None)
        if callable(clear):
            clear()
        self._join_own_group = False

    def ensure_group(self, start_id: str = "$") -> None:
        """Create the group (and the stream) if missing."""
        from redis import exceptions as rx

        with redis_errors():
            try:
                self._client.xgroup_create(self.keys.stream, self.group, id=start_id, mkstream=True)
            except rx.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def apply(self, event: dict[str, str]) -> None:
        """Apply one event: invalidate the user in the local cache, then call the handler."""
        user = event.get("user_id")
        if user:
            self.cache.invalidate(user)
        if self.handler is not None:
            self.handler(event)

    def claim_stale(self, *, min_idle_ms: int = 60_000, count: int = 100) -> int:
        """Take over events another consumer read but never acked (it crashed).

        Uses XAUTOCLAIM; the claimed events are applied by the next :meth:`poll`.

        Returns:
            How many entries were claimed.
        """
        with redis_errors():
            reply = self._client.xautoclaim(
                self.keys.stream, self.group, self.consumer, min_idle_ms, "0-0", count=count
            )
        claimed = len(reply[1]) if reply else 0
        if claimed:
            self._pending_done = False
        return claimed

    def poll(self, *, block_ms: int | None = 100, count: int | None = None) -> int:
        """Read, apply and ack one batch; return how many events were applied."""
        if self._join_own_group:
            self._join_group_here()
        start = "0" if not self._pending_done else ">"
        with redis_errors():
            reply = self._client.xreadgroup(
                self.group,
                self.consumer,
                {self.keys.stream: start},
                count=count or self.batch,
                block=None if start == "0" else block_ms,
            )
            entries = [e for _, batch in (reply or []) for e in batch]
            if start == "0" and not entries:
                self._pending_done = True
            applied = 0
            for eid, fields in entries:
                if fields:  # XDELed entries still pending come back empty
                    self.apply(decode_entry(fields))
                    applied += 1
                self._client.xack(self.keys.stream, self.group, eid)
        self.processed += applied
        return applied

    def run(self, *, max_events: int | None = None, timeout: float | None = None) -> int:
        """Poll until ``max_events`` were applied, ``timeout`` seconds passed or :meth:`stop`.

        A :meth:`stop` ends the current (or, if none runs, the next) run only.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        done = 0
        self._running = True
        try:
            while not self._stop.is_set():
                if max_events is not None and done >= max_events:
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    break
                left = None if max_events is None else max_events - done
                done += self.poll(block_ms=100, count=min(left or self.batch, self.batch))
        finally:
            self._running = False
        self._stop.clear()
        return done

    def start(
        self, *, max_events: int | None = None, timeout: float | None = None
    ) -> threading.Thread:
        """Run :meth:`run` in a daemon thread; :meth:`stop` / :meth:`join` end it."""
        self._run_args = {"max_events": max_events, "timeout": timeout}
        self._thread = threading.Thread(
            target=self.run,
            kwargs={"max_events": max_events, "timeout": timeout},
            name=f"usermemory-subscriber-{self.consumer}",
            daemon=True,
        )
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        """Ask the running loop to stop after the current poll."""
        self._stop.set()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the thread started by :meth:`start`."""
        if self._thread is not None:
            self._thread.join(timeout)

    def close(self) -> None:
        """Stop the thread, delete a forked child's own group, close the client if this
        object created it."""
        self.stop()
        self.join(5)
        _forksafe.untrack(self)
        if self._owns_group:
            self._owns_group = False
            with contextlib.suppress(Exception):
                self._client.xgroup_destroy(self.keys.stream, self.group)
        if self._owned:
            with contextlib.suppress(Exception):
                self._client.close()


def open_redis_cache(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> RedisProfileCache:
    """Registry factory for the Redis profile cache."""
    opts = parse_redis_url(url)
    return RedisProfileCache(
        url, prefix=opts.prefix, ttl_seconds=opts.cache_ttl or DEFAULT_PROFILE_TTL
    )


def open_redis_events(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> RedisEventBus:
    """Registry factory for the Redis Stream event bus."""
    opts = parse_redis_url(url)
    return RedisEventBus(
        url, prefix=opts.prefix, stream=opts.stream, maxlen=opts.maxlen, clock=clock
    )
