"""Async twins of the Redis stores (``redis.asyncio``), same keys, scripts and formats.

:class:`AsyncRedisSessionStore`, :class:`AsyncRedisProfileCache`, :class:`AsyncRedisEventBus`
and :class:`AsyncEventSubscriber` mirror the sync classes of :mod:`shared_core.storage.redis`
method for method (every method is a coroutine); both flavours can share one Redis and read
each other's data. Construct them with a ``redis.asyncio.Redis`` /
``redis.asyncio.cluster.RedisCluster`` or a URL, and ``await store.aclose()`` when done.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..clock import Clock, SystemClock
from ..config import MemoryConfig
from ..entities import SessionTurn
from ..errors import (
    ConfigError,
    ConflictError,
    InvalidInputError,
    MissingDependencyError,
    NotFoundError,
)
from ..ids import check_id
from .redis import (
    APPEND_LUA,
    CACHE_INVALIDATE_LUA,
    CACHE_SET_LUA,
    DEFAULT_MAXLEN,
    DEFAULT_PROFILE_TTL,
    END_LUA,
    GEN_TTL_MS,
    MARK_WRITTEN_LUA,
    SET_STATE_LUA,
    Client,
    RedisKeys,
    RedisOptions,
    cache_field,
    decode_entry,
    encode_event,
    pairs,
    parse_redis_url,
    parse_session,
    pick_first,
    redis_errors,
    s,
    ttl_ms,
    turn_json,
)
from .redis_events import LocalProfileCache, miss_gen_get, miss_gen_put

__all__ = [
    "AsyncEventSubscriber",
    "AsyncRedisEventBus",
    "AsyncRedisProfileCache",
    "AsyncRedisSessionStore",
    "open_async_redis_cache",
    "open_async_redis_events",
    "open_async_redis_sessions",
]

logger = logging.getLogger(__name__)


def connect_async(client_or_url: Client | str) -> tuple[Client, bool, RedisOptions]:
    """Return ``(client, owned, options)``: an asyncio client from a URL, or the one given."""
    if not isinstance(client_or_url, str):
        return client_or_url, False, RedisOptions(url="")
    opts = parse_redis_url(client_or_url)
    try:
        import redis.asyncio
        import redis.asyncio.cluster
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise MissingDependencyError("redis", "redis") from exc
    kwargs: dict[str, Any] = {"decode_responses": True, "socket_connect_timeout": 5}
    with redis_errors():
        if opts.cluster:
            return redis.asyncio.cluster.RedisCluster.from_url(opts.url, **kwargs), True, opts
        return redis.asyncio.Redis.from_url(opts.url, **kwargs), True, opts


class _Owned:
    _client: Client
    _owned: bool

    @property
    def client(self) -> Client:
        """The redis-py client in use."""
        return self._client

    async def aclose(self) -> None:
        """Close the client if this object created it from a URL."""
        if self._owned:
            with contextlib.suppress(Exception):
                await self._client.aclose()

    async def close(self) -> None:
        """Alias of :meth:`aclose`."""
        await self.aclose()


class AsyncRedisSessionStore(_Owned):
    """Async :class:`~shared_core.storage.redis.RedisSessionStore`.

    Args:
        client_or_url: a ``redis.asyncio`` client (standalone or cluster) or a Redis URL.
        prefix: prepended to every key (default: the URL's ``prefix`` option or ``""``).
        ttl_seconds: lifetime after the last write.
    """

    def __init__(
        self,
        client_or_url: Client | str,
        *,
        prefix: str | None = None,
        ttl_seconds: float | None = None,
    ) -> None:
        self._client, self._owned, opts = connect_async(client_or_url)
        self.keys = RedisKeys(opts.prefix if prefix is None else prefix)
        self.ttl_seconds = float(pick_first(ttl_seconds, opts.ttl, 1800.0))
        self._ttl_ms = ttl_ms(self.ttl_seconds)
        self._append = self._client.register_script(APPEND_LUA)
        self._set_state = self._client.register_script(SET_STATE_LUA)
        self._mark = self._client.register_script(MARK_WRITTEN_LUA)
        self._end = self._client.register_script(END_LUA)

    async def _key(self, user_id: str, session_id: str, device_id: str | None = None) -> str:
        check_id(session_id, "session_id")
        found = await self._client.hget(self.keys.session_index(user_id), session_id)
        return s(found) if found is not None else self.keys.session(user_id, session_id, device_id)

    async def _run(
        self,
        script: Any,
        user_id: str,
        session_id: str,
        args: list[Any],
        device_id: str | None = None,
    ) -> list[Any]:
        index = self.keys.session_index(user_id)
        key = await self._key(user_id, session_id, device_id)
        for _ in range(5):
            res = await script(keys=[index, key], args=args)
            if int(res[0]) != 0:
                return list(res)
            key = s(res[1])
        raise ConflictError(f"session {session_id!r} kept moving; retry")  # pragma: no cover

    async def append(
        self, user_id: str, session_id: str, turn: SessionTurn, *, device_id: str | None = None
    ) -> None:
        """Add a turn to the session (creating it) and refresh its TTL."""
        if device_id is not None:
            check_id(device_id, "device_id")
        data = turn_json(turn)
        args = [session_id, device_id or "", data, turn.turn_id, self._ttl_ms]
        with redis_errors():
            await self._run(self._append, user_id, session_id, args, device_id)
        if turn.written:  # the append script stores the text; written ids go in w:<idx>
            await self.mark_written(user_id, session_id, turn.turn_id, turn.written)

    async def turns(
        self, user_id: str, session_id: str, *, limit: int | None = None
    ) -> list[SessionTurn]:
        """The session's turns, oldest first (the last ``limit`` if given)."""
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            raise InvalidInputError(f"limit must be a non-negative int, got {limit!r}")
        with redis_errors():
            fields = await self._client.hgetall(await self._key(user_id, session_id))
        out = parse_session(fields)
        if limit is None:
            return out
        return out[len(out) - limit :] if limit else []

    async def mark_written(
        self, user_id: str, session_id: str, turn_id: str, record_ids: Sequence[str]
    ) -> None:
        """Add ``record_ids`` to the turn's written ids.

        Raises:
            NotFoundError: the turn is not in the live session (never added, or expired).
        """
        check_id(turn_id, "turn_id")
        ids = [check_id(r, "record_id") for r in record_ids]
        with redis_errors():
            key = await self._key(user_id, session_id)
            done = await self._mark(
                keys=[self.keys.session_index(user_id), key],
                args=[turn_id, json.dumps(ids), self._ttl_ms],
            )
        if not int(done):
            raise NotFoundError(f"turn {turn_id!r} is not in live session {session_id!r}")

    async def get_state_versioned(
        self, user_id: str, session_id: str
    ) -> tuple[dict[str, Any], int]:
        """The session state and its version (0 when never set)."""
        with redis_errors():
            key = await self._key(user_id, session_id)
            state, version = await self._client.hmget(key, ["state", "v"])
        return (json.loads(s(state)) if state else {}), int(s(version)) if version else 0

    async def get_state(self, user_id: str, session_id: str) -> Mapping[str, Any]:
        """Small JSON-able per-session state (``{}`` when never set)."""
        return (await self.get_state_versioned(user_id, session_id))[0]

    async def set_state(self, user_id: str, session_id: str, state: Mapping[str, Any]) -> None:
        """Replace the state unconditionally (bumps the version, refreshes the TTL)."""
        await self._cas(user_id, session_id, state, None)

    async def cas_state(
        self, user_id: str, session_id: str, state: Mapping[str, Any], expected_version: int
    ) -> int:
        """Replace the state only if its version is still ``expected_version``.

        Returns:
            The new version.

        Raises:
            ConflictError: another writer changed the state first.
        """
        return await self._cas(user_id, session_id, state, int(expected_version))

    async def update_state(
        self,
        user_id: str,
        session_id: str,
        fn: Callable[[dict[str, Any]], Mapping[str, Any]],
        *,
        retries: int = 50,
    ) -> dict[str, Any]:
        """Read-modify-write the state with optimistic retries; return the state written."""
        for _ in range(retries):
            state, version = await self.get_state_versioned(user_id, session_id)
            new = dict(fn(dict(state)))
            try:
                await self.cas_state(user_id, session_id, new, version)
            except ConflictError:
                continue
            return new
        raise ConflictError(f"session state of {session_id!r} changed {retries} times; gave up")

    async def _cas(
        self, user_id: str, session_id: str, state: Mapping[str, Any], expected: int | None
    ) -> int:
        if not isinstance(state, Mapping):
            raise InvalidInputError("state must be a mapping")
        try:
            data = json.dumps(dict(state))
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(f"state must be JSON-serialisable: {exc}") from exc
        args = [session_id, data, "" if expected is None else expected, self._ttl_ms]
        with redis_errors():
            res = await self._run(self._set_state, user_id, session_id, args)
        if int(res[0]) == -1:
            raise ConflictError(
                f"session state version is {s(res[1])}, expected {expected}; reload and retry"
            )
        return int(s(res[1]))

    async def end(self, user_id: str, session_id: str) -> list[SessionTurn]:
        """Drop the session and return its turns."""
        with redis_errors():
            res = await self._run(self._end, user_id, session_id, [session_id])
        return parse_session(pairs(res[1]))

    async def sessions(self, user_id: str) -> list[str]:
        """Live session ids of the user, sorted (expired index entries are pruned)."""
        index = self.keys.session_index(user_id)
        with redis_errors():
            entries = {s(k): s(v) for k, v in (await self._client.hgetall(index)).items()}
            live = [sid for sid, key in entries.items() if await self._client.exists(key)]
            stale = set(entries) - set(live)
            if stale:
                await self._client.hdel(index, *stale)
        return sorted(live)

    async def delete_user(self, user_id: str) -> int:
        """Drop every session key and the index of the user; return the sessions removed."""
        index = self.keys.session_index(user_id)
        with redis_errors():
            keys = {s(v) for v in await self._client.hvals(index)}
            async for k in self._client.scan_iter(
                match=self.keys.session_pattern(user_id), count=1000
            ):
                keys.add(s(k))
            removed = 0
            for k in sorted(keys):
                removed += int(await self._client.delete(k))
            await self._client.delete(index)
        return removed


class AsyncRedisProfileCache(_Owned):
    """Async :class:`~shared_core.storage.redis.RedisProfileCache` (same stale-fill guard)."""

    def __init__(
        self,
        client_or_url: Client | str,
        *,
        prefix: str | None = None,
        ttl_seconds: float | None = None,
    ) -> None:
        self._client, self._owned, opts = connect_async(client_or_url)
        self.keys = RedisKeys(opts.prefix if prefix is None else prefix)
        self._ttl_ms = ttl_ms(pick_first(ttl_seconds, opts.cache_ttl, DEFAULT_PROFILE_TTL))
        self._set = self._client.register_script(CACHE_SET_LUA)
        self._invalidate = self._client.register_script(CACHE_INVALIDATE_LUA)

    async def get(
        self, user_id: str, system_context: str, scope_key: str = ""
    ) -> dict[str, str] | None:
        """The cached profile, or ``None`` on a miss."""
        field = cache_field(system_context, scope_key)
        with redis_errors():
            gen = await self._client.get(self.keys.profile_gen(user_id))
            raw = await self._client.hget(self.keys.profile(user_id), field)
        if raw is None:
            miss_gen_put(self, user_id, field, gen)
            return None
        return {str(k): str(v) for k, v in json.loads(s(raw)).items()}

    async def set(
        self, user_id: str, system_context: str, profile: Mapping[str, str], scope_key: str = ""
    ) -> None:
        """Cache a profile (skipped if the user was invalidated since this task's miss)."""
        field = cache_field(system_context, scope_key)
        data = json.dumps({str(k): str(v) for k, v in profile.items()})
        keys = [self.keys.profile(user_id), self.keys.profile_gen(user_id)]
        with redis_errors():
            await self._set(
                keys=keys, args=[field, data, self._ttl_ms, miss_gen_get(self, user_id, field)]
            )

    async def invalidate(self, user_id: str) -> None:
        """Drop every cached profile of the user (call after each write)."""
        keys = [self.keys.profile(user_id), self.keys.profile_gen(user_id)]
        with redis_errors():
            await self._invalidate(keys=keys, args=[GEN_TTL_MS])

    async def delete_user(self, user_id: str) -> int:
        """Delete the user's cache keys; return how many existed."""
        removed = 0
        with redis_errors():
            for key in (self.keys.profile(user_id), self.keys.profile_gen(user_id)):
                removed += int(await self._client.delete(key))
        return removed


class AsyncRedisEventBus(_Owned):
    """Async :class:`~shared_core.storage.redis.RedisEventBus`."""

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
        self._client, self._owned, opts = connect_async(client_or_url)
        self.keys = RedisKeys(opts.prefix if prefix is None else prefix, stream or opts.stream)
        self.maxlen = maxlen
        self._clock = clock or SystemClock()

    @property
    def stream(self) -> str:
        """The full name of the change stream key."""
        return self.keys.stream

    async def publish(self, event: Mapping[str, Any]) -> None:
        """Append one change event (user id, key names, ids; never memory values)."""
        fields = encode_event(event, self._clock)
        with redis_errors():
            await self._client.xadd(self.stream, fields, maxlen=self.maxlen, approximate=True)

    async def delete_user(self, user_id: str, *, page: int = 1000) -> int:
        """XDEL every stream entry of the user (a full XRANGE scan); return how many."""
        check_id(user_id, "user_id")
        removed, start = 0, "-"
        with redis_errors():
            while True:
                batch = await self._client.xrange(self.stream, min=start, max="+", count=page)
                if not batch:
                    return removed
                mine = [s(e) for e, f in batch if decode_entry(f).get("user_id") == user_id]
                if mine:
                    removed += int(await self._client.xdel(self.stream, *mine))
                start = "(" + s(batch[-1][0])


class AsyncEventSubscriber(_Owned):
    """Async :class:`~shared_core.storage.redis.EventSubscriber` (``start()`` makes a task)."""

    def __init__(
        self,
        client_or_url: Client | str,
        *,
        group: str,
        consumer: str,
        prefix: str | None = None,
        stream: str | None = None,
        cache: Any | None = None,
        handler: Callable[[dict[str, str]], Any] | None = None,
        start_id: str = "$",
        batch: int = 100,
    ) -> None:
        self._client, self._owned, opts = connect_async(client_or_url)
        self.keys = RedisKeys(opts.prefix if prefix is None else prefix, stream or opts.stream)
        self.group = check_id(group, "group")
        self.consumer = check_id(consumer, "consumer")
        self.cache = cache if cache is not None else LocalProfileCache()
        self.handler = handler
        self.batch = batch
        self.start_id = start_id
        self.processed = 0
        self._pending_done = False
        self._group_ready = False
        self._stop = asyncio.Event()
        self._task: asyncio.Task[int] | None = None

    async def ensure_group(self) -> None:
        """Create the group (and the stream) if missing."""
        from redis import exceptions as rx

        with redis_errors():
            try:
                await self._client.xgroup_create(
                    self.keys.stream, self.group, id=self.start_id, mkstream=True
                )
            except rx.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise
        self._group_ready = True

    async def apply(self, event: dict[str, str]) -> None:
        """Invalidate the user in the local cache, then call (and await) the handler."""
        user = event.get("user_id")
        if user:
            self.cache.invalidate(user)
        if self.handler is not None:
            result = self.handler(event)
            if asyncio.iscoroutine(result):
                await result

    async def claim_stale(self, *, min_idle_ms: int = 60_000, count: int = 100) -> int:
        """Take over events another consumer read but never acked (XAUTOCLAIM)."""
        if not self._group_ready:
            await self.ensure_group()
        with redis_errors():
            reply = await self._client.xautoclaim(
                self.keys.stream, self.group, self.consumer, min_idle_ms, "0-0", count=count
            )
        claimed = len(reply[1]) if reply else 0
        if claimed:
            self._pending_done = False
        return claimed

    async def poll(self, *, block_ms: int | None = 100, count: int | None = None) -> int:
        """Read, apply and ack one batch; return how many events were applied."""
        if not self._group_ready:
            await self.ensure_group()
        start = "0" if not self._pending_done else ">"
        with redis_errors():
            reply = await self._client.xreadgroup(
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
                if fields:
                    await self.apply(decode_entry(fields))
                    applied += 1
                await self._client.xack(self.keys.stream, self.group, eid)
        self.processed += applied
        return applied

    async def run(self, *, max_events: int | None = None, timeout: float | None = None) -> int:
        """Poll until ``max_events`` were applied, ``timeout`` seconds passed or :meth:`stop`.

        A :meth:`stop` ends the current (or, if none runs, the next) run only.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        done = 0
        while not self._stop.is_set():
            if max_events is not None and done >= max_events:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
            left = self.batch if max_events is None else min(max_events - done, self.batch)
            done += await self.poll(block_ms=100, count=left)
        self._stop.clear()
        return done

    def start(
        self, *, max_events: int | None = None, timeout: float | None = None
    ) -> asyncio.Task[int]:
        """Run :meth:`run` as an asyncio task."""
        self._task = asyncio.create_task(self.run(max_events=max_events, timeout=timeout))
        return self._task

    def stop(self) -> None:
        """Ask the running loop to stop after the current poll."""
        self._stop.set()

    async def aclose(self) -> None:
        """Stop the task and close the client if owned."""
        self.stop()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 5)
        await super().aclose()


def open_async_redis_sessions(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> AsyncRedisSessionStore:
    """Registry factory for async Redis session stores."""
    opts = parse_redis_url(url)
    ttl = opts.ttl or float((config or MemoryConfig()).session_ttl_seconds)
    return AsyncRedisSessionStore(url, ttl_seconds=ttl)


def open_async_redis_cache(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> AsyncRedisProfileCache:
    """Registry factory for the async Redis profile cache."""
    opts = parse_redis_url(url)
    return AsyncRedisProfileCache(url, ttl_seconds=opts.cache_ttl or DEFAULT_PROFILE_TTL)


def open_async_redis_events(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> AsyncRedisEventBus:
    """Registry factory for the async Redis Stream event bus."""
    opts = parse_redis_url(url)
    return AsyncRedisEventBus(url, maxlen=opts.maxlen, clock=clock)
