"""Redis backends: session memory, a hot profile cache and a change stream (sync).

Three small stores implement the protocols of :mod:`shared_core.storage.protocols`:

- :class:`RedisSessionStore` (``SessionStore``): one HASH per live session, expiring
  ``ttl_seconds`` after the last write (the whole key expires: Redis 7.0 has no per-field TTL).
- ``RedisProfileCache`` (``ProfileCache``): ``profile()`` results, dropped on every write.
- ``RedisEventBus`` (``EventBus``): every change is XADDed to the Stream
  ``memory.update`` (``MAXLEN ~`` trimmed); ``EventSubscriber`` consumes it with a
  consumer group and applies events to a local cache.

The cache and the events live in :mod:`shared_core.storage.redis_events`; this module
holds the session store and everything they share (keys, Lua scripts, serialisation, URL
options).

Key layout (``prefix`` is prepended to every key, default ``""``)::

    session:{U}:<D>:<S>   HASH  one live session (fields below), TTL = session TTL
    sessions:{U}          HASH  session_id -> session key (the per-user index), same TTL
    profile:{U}           HASH  "<system_context>\\x1f<scope_key>" -> profile JSON, TTL
    profile-gen:{U}       STR   invalidation counter guarding against stale cache fills
    memory.update         STREAM  one entry per change: user_id, key names, ids, never values

``{U}`` is the first 40 hex digits of the user digest (SHA-256 of the UTF-8 user id,
:func:`shared_core.ids.user_digest`, the one user hash of every store) inside braces.
The braces make it the Redis Cluster *hash tag*, so every key of one user lives in one
slot (Lua scripts and multi-key commands work on a cluster). Hashing makes any user id
safe in a key name (``{``, ``}``, ``:``, glob characters, newlines, emoji, any length)
and keeps raw ids out of key names;
no reverse lookup is needed because every call carries the user id. ``<D>`` and ``<S>``
are 16-hex-char SHA-1 prefixes of the device id (``-`` when unknown) and the session id.
The issue's ``session:{user}:{device}`` layout gains the session part so that two sessions
on one device never share a hash. The first write of a session fixes its key; the index
maps the protocol's ``(user_id, session_id)`` to it.

Session hash fields: ``sid`` session id, ``dev`` device id, ``n`` turn count,
``t:<idx>`` turn JSON, ``i:<turn_id>`` -> idx, ``w:<idx>`` written record ids (JSON),
``state`` state JSON, ``v`` state version (optimistic concurrency: :meth:`cas_state`,
:meth:`update_state`). Every mutation is one Lua script, atomic on a cluster too.

Erasing a user (``delete_user``) deletes the user's keys and scans the stream with XRANGE
in pages, XDELing the entries whose ``user_id`` matches: O(stream length), bounded by
``maxlen`` (default 10 000 entries, a few milliseconds per thousand entries).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..clock import Clock
from ..config import MemoryConfig
from ..entities import SessionTurn
from ..errors import (
    ConfigError,
    ConflictError,
    InvalidInputError,
    NotFoundError,
)
from ..ids import check_id, user_digest
from .redis_conn import (
    DEFAULT_STREAM,
    Client,
    RedisOptions,
    connect,
    parse_redis_url,
    redis_errors,
)

__all__ = [
    "RedisKeys",
    "RedisOptions",
    "RedisSessionStore",
    "open_redis_sessions",
    "parse_redis_url",
]

logger = logging.getLogger(__name__)

DEFAULT_PROFILE_TTL = 600.0
GEN_TTL_MS = 7 * 24 * 3600 * 1000  # the invalidation counter outlives any cache entry
FORBIDDEN_EVENT_FIELDS = frozenset({"value", "normalized", "text", "span", "values"})
_FIELD_SEP = "\x1f"

# --------------------------------------------------------------------------- Lua scripts
# KEYS[1] = index, KEYS[2] = session; ARGV = sid, device, turn_json, turn_id, ttl_ms
APPEND_LUA = """
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and cur ~= KEYS[2] then return {0, cur} end
if not cur then redis.call('HSET', KEYS[1], ARGV[1], KEYS[2]) end
local n = redis.call('HINCRBY', KEYS[2], 'n', 1)
local idx = string.format('%08d', n - 1)
redis.call('HSET', KEYS[2], 't:' .. idx, ARGV[3], 'i:' .. ARGV[4], idx, 'sid', ARGV[1])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[2], 'dev', ARGV[2]) end
redis.call('HSETNX', KEYS[2], 'v', 0)
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
return {1, tostring(n)}
"""

# KEYS[1] = index, KEYS[2] = session; ARGV = sid, state_json, expected_version|'', ttl_ms
SET_STATE_LUA = """
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and cur ~= KEYS[2] then return {0, cur} end
local v = redis.call('HGET', KEYS[2], 'v') or '0'
if ARGV[3] ~= '' and tonumber(v) ~= tonumber(ARGV[3]) then return {-1, v} end
if not cur then redis.call('HSET', KEYS[1], ARGV[1], KEYS[2]) end
redis.call('HSET', KEYS[2], 'sid', ARGV[1], 'state', ARGV[2])
local nv = redis.call('HINCRBY', KEYS[2], 'v', 1)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return {1, tostring(nv)}
"""

# KEYS[1] = index, KEYS[2] = session; ARGV = turn_id, ids_json, ttl_ms
MARK_WRITTEN_LUA = """
local idx = redis.call('HGET', KEYS[2], 'i:' .. ARGV[1])
if not idx then return 0 end
local f = 'w:' .. idx
local out, seen = {}, {}
local cur = redis.call('HGET', KEYS[2], f)
if cur then for _, x in ipairs(cjson.decode(cur)) do
  if not seen[x] then seen[x] = true; table.insert(out, x) end end end
for _, x in ipairs(cjson.decode(ARGV[2])) do
  if not seen[x] then seen[x] = true; table.insert(out, x) end end
redis.call('HSET', KEYS[2], f, cjson.encode(out))
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
"""

# KEYS[1] = index, KEYS[2] = session; ARGV = sid
END_LUA = """
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and cur ~= KEYS[2] then return {0, cur} end
local all = redis.call('HGETALL', KEYS[2])
redis.call('DEL', KEYS[2])
redis.call('HDEL', KEYS[1], ARGV[1])
return {1, all}
"""

# KEYS[1] = profile, KEYS[2] = generation; ARGV = field, json, ttl_ms, expected_gen|''
CACHE_SET_LUA = """
local g = redis.call('GET', KEYS[2]) or '0'
if ARGV[4] ~= '' and g ~= ARGV[4] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

# KEYS[1] = profile, KEYS[2] = generation; ARGV = gen_ttl_ms
CACHE_INVALIDATE_LUA = """
redis.call('DEL', KEYS[1])
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1
"""


# --------------------------------------------------------------------------- shared helpers
def s(value: Any) -> str:
    """Decode a Redis reply item (bytes or str) to ``str``."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    return str(value)


def _h(text: str, n: int) -> str:
    """A short digest of a session or device id inside a key (not a user hash)."""
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:n]


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)


@dataclass(frozen=True, slots=True)
class RedisKeys:
    """Builds every key name (see the module docstring for the layout)."""

    prefix: str = ""
    stream_name: str = DEFAULT_STREAM

    def tag(self, user_id: str) -> str:
        """The cluster hash tag of a user: ``{<40 hex digits of the user digest>}``
        (:func:`shared_core.ids.user_digest`, the one user hash of every store)."""
        return "{" + user_digest(check_id(user_id, "user_id")).hex()[:40] + "}"

    def session(self, user_id: str, session_id: str, device_id: str | None) -> str:
        """The key of a new session hash (device part ``-`` when unknown)."""
        dev = _h(device_id, 16) if device_id else "-"
        return f"{self.prefix}session:{self.tag(user_id)}:{dev}:{_h(session_id, 16)}"

    def session_pattern(self, user_id: str) -> str:
        """A SCAN MATCH pattern for every session key of the user."""
        return _glob_escape(f"{self.prefix}session:{self.tag(user_id)}:") + "*"

    def session_index(self, user_id: str) -> str:
        """The per-user HASH mapping session ids to session keys."""
        return f"{self.prefix}sessions:{self.tag(user_id)}"

    def profile(self, user_id: str) -> str:
        """The per-user profile-cache HASH."""
        return f"{self.prefix}profile:{self.tag(user_id)}"

    def profile_gen(self, user_id: str) -> str:
        """The per-user invalidation counter of the profile cache."""
        return f"{self.prefix}profile-gen:{self.tag(user_id)}"

    @property
    def stream(self) -> str:
        """The full name of the change stream key."""
        return f"{self.prefix}{self.stream_name}"


def turn_json(turn: SessionTurn) -> str:
    """Serialise a turn without its ``written`` ids (kept in a separate field)."""
    if not isinstance(turn, SessionTurn):
        raise InvalidInputError(f"turn must be a SessionTurn, got {type(turn).__name__}")
    data = turn.to_dict()
    data.pop("written", None)
    return json.dumps(data)


def parse_session(fields: Mapping[Any, Any]) -> list[SessionTurn]:
    """Turns of a session hash, oldest first, with their ``written`` ids."""
    flat = {s(k): s(v) for k, v in fields.items()}
    turns: list[SessionTurn] = []
    for name in sorted(f for f in flat if f.startswith("t:")):
        data = json.loads(flat[name])
        written = json.loads(flat.get("w:" + name[2:], "[]"))
        data["written"] = written if isinstance(written, list) else []  # cjson: [] -> {}
        turns.append(SessionTurn.from_dict(data))
    return turns


def pairs(flat: Sequence[Any]) -> dict[str, str]:
    """A flat ``[k1, v1, k2, v2]`` Lua reply as a dict."""
    return {s(flat[i]): s(flat[i + 1]) for i in range(0, len(flat), 2)}


def pick_first(*values: float | None) -> float:
    """The first value that is not ``None``."""
    return float(next(v for v in values if v is not None))


def ttl_ms(seconds: float) -> int:
    """Seconds to whole milliseconds for PEXPIRE (``ConfigError`` unless positive)."""
    if not seconds > 0:
        raise ConfigError(f"TTL must be positive, got {seconds}")
    return max(1, round(seconds * 1000))


def cache_field(system_context: str, scope_key: str) -> str:
    """The profile-hash field of one ``system_context`` and scope."""
    if not isinstance(system_context, str) or not isinstance(scope_key, str):
        raise InvalidInputError("system_context and scope_key must be strings")
    return f"{system_context}{_FIELD_SEP}{scope_key}"


def encode_event(event: Mapping[str, Any], clock: Clock) -> dict[str, str]:
    """Validate an event and flatten it to Stream fields (strings; never memory values)."""
    if not isinstance(event, Mapping):
        raise InvalidInputError("event must be a mapping")
    check_id(event.get("user_id"), "event user_id")
    bad = FORBIDDEN_EVENT_FIELDS & set(event)
    if bad:
        raise InvalidInputError(f"events carry key names only, never values: {sorted(bad)}")
    fields: dict[str, str] = {"type": DEFAULT_STREAM}
    for name, value in event.items():
        if not isinstance(name, str):
            raise InvalidInputError("event field names must be strings")
        if value is None:
            continue
        if hasattr(value, "isoformat"):
            fields[name] = value.isoformat()
        elif isinstance(value, str | int | float | bool):
            fields[name] = str(value)
        else:
            fields[name] = json.dumps(value, default=str)
    fields.setdefault("at", clock.now().isoformat())
    return fields


def decode_entry(fields: Mapping[Any, Any] | None) -> dict[str, str]:
    """A stream entry's fields as ``str`` (``{}`` for an XDELed pending entry)."""
    return {s(k): s(v) for k, v in (fields or {}).items()}


# --------------------------------------------------------------------------- sessions
class RedisSessionStore:
    """``SessionStore`` on Redis: one hash per session, TTL refreshed on every write.

    Args:
        client_or_url: a ``redis.Redis``/``redis.cluster.RedisCluster`` or a Redis URL.
        prefix: prepended to every key (tests use a random one).
        ttl_seconds: lifetime after the last write (``append``, ``mark_written``,
            ``set_state``); reads do not extend it. Fractions of a second are honoured.
            Default: the URL's ``ttl`` option, else 1800 s.
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
        self.ttl_seconds = float(pick_first(ttl_seconds, opts.ttl, 1800.0))
        self._ttl_ms = ttl_ms(self.ttl_seconds)
        self._append = self._client.register_script(APPEND_LUA)
        self._set_state = self._client.register_script(SET_STATE_LUA)
        self._mark = self._client.register_script(MARK_WRITTEN_LUA)
        self._end = self._client.register_script(END_LUA)

    @property
    def client(self) -> Client:
        """The redis-py client in use."""
        return self._client

    def _key(self, user_id: str, session_id: str, device_id: str | None = None) -> str:
        """The session's key from the index, or a new one from (user, device, session)."""
        check_id(session_id, "session_id")
        found = self._client.hget(self.keys.session_index(user_id), session_id)
        return s(found) if found is not None else self.keys.session(user_id, session_id, device_id)

    def _run(
        self,
        script: Any,
        user_id: str,
        session_id: str,
        args: list[Any],
        device_id: str | None = None,
    ) -> list[Any]:
        """Run a session script, re-resolving the key if another writer created it first."""
        index = self.keys.session_index(user_id)
        key = self._key(user_id, session_id, device_id)
        for _ in range(5):
            res = script(keys=[index, key], args=args)
            if int(res[0]) != 0:
                return list(res)
            key = s(res[1])
        raise ConflictError(f"session {session_id!r} kept moving; retry")  # pragma: no cover

    def append(
        self, user_id: str, session_id: str, turn: SessionTurn, *, device_id: str | None = None
    ) -> None:
        """Add a turn to the session (creating it) and refresh its TTL."""
        if device_id is not None:
            check_id(device_id, "device_id")
        data = turn_json(turn)
        with redis_errors():
            self._run(
                self._append,
                user_id,
                session_id,
                [session_id, device_id or "", data, turn.turn_id, self._ttl_ms],
                device_id,
            )
        if turn.written:  # the append script stores the text; written ids go in w:<idx>
            self.mark_written(user_id, session_id, turn.turn_id, turn.written)

    def turns(
        self, user_id: str, session_id: str, *, limit: int | None = None
    ) -> list[SessionTurn]:
        """The session's turns, oldest first (the last ``limit`` if given)."""
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            raise InvalidInputError(f"limit must be a non-negative int, got {limit!r}")
        with redis_errors():
            fields = self._client.hgetall(self._key(user_id, session_id))
        out = parse_session(fields)
        return out if limit is None else out[len(out) - limit :] if limit else []

    def mark_written(
        self, user_id: str, session_id: str, turn_id: str, record_ids: Sequence[str]
    ) -> None:
        """Add ``record_ids`` to the turn's written ids.

        Raises:
            NotFoundError: the turn is not in the live session (never added, or expired).
        """
        check_id(turn_id, "turn_id")
        ids = [check_id(r, "record_id") for r in record_ids]
        with redis_errors():
            key = self._key(user_id, session_id)
            done = self._mark(
                keys=[self.keys.session_index(user_id), key],
                args=[turn_id, json.dumps(ids), self._ttl_ms],
            )
        if not int(done):
            raise NotFoundError(f"turn {turn_id!r} is not in live session {session_id!r}")

    def get_state_versioned(self, user_id: str, session_id: str) -> tuple[dict[str, Any], int]:
        """The session state and its version (0 when never set)."""
        with redis_errors():
            state, version = self._client.hmget(self._key(user_id, session_id), ["state", "v"])
        return (json.loads(s(state)) if state else {}), int(s(version)) if version else 0

    def get_state(self, user_id: str, session_id: str) -> Mapping[str, Any]:
        """Small JSON-able per-session state (``{}`` when never set)."""
        return self.get_state_versioned(user_id, session_id)[0]

    def set_state(self, user_id: str, session_id: str, state: Mapping[str, Any]) -> None:
        """Replace the state unconditionally (bumps the version, refreshes the TTL)."""
        self._cas(user_id, session_id, state, None)

    def cas_state(
        self, user_id: str, session_id: str, state: Mapping[str, Any], expected_version: int
    ) -> int:
        """Replace the state only if its version is still ``expected_version``.

        Returns:
            The new version.

        Raises:
            ConflictError: another writer changed the state first.
        """
        return self._cas(user_id, session_id, state, int(expected_version))

    def update_state(
        self,
        user_id: str,
        session_id: str,
        fn: Callable[[dict[str, Any]], Mapping[str, Any]],
        *,
        retries: int = 50,
    ) -> dict[str, Any]:
        """Read-modify-write the state with optimistic retries; return the state written."""
        for _ in range(retries):
            state, version = self.get_state_versioned(user_id, session_id)
            new = dict(fn(dict(state)))
            try:
                self.cas_state(user_id, session_id, new, version)
            except ConflictError:
                continue
            return new
        raise ConflictError(f"session state of {session_id!r} changed {retries} times; gave up")

    def _cas(
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
            res = self._run(self._set_state, user_id, session_id, args)
        if int(res[0]) == -1:
            raise ConflictError(
                f"session state version is {s(res[1])}, expected {expected}; reload and retry"
            )
        return int(s(res[1]))

    def end(self, user_id: str, session_id: str) -> list[SessionTurn]:
        """Drop the session and return its turns."""
        with redis_errors():
            res = self._run(self._end, user_id, session_id, [session_id])
        return parse_session(pairs(res[1]))

    def sessions(self, user_id: str) -> list[str]:
        """Live session ids of the user, sorted (expired index entries are pruned)."""
        index = self.keys.session_index(user_id)
        with redis_errors():
            entries = {s(k): s(v) for k, v in self._client.hgetall(index).items()}
            live = [sid for sid, key in entries.items() if self._client.exists(key)]
            stale = set(entries) - set(live)
            if stale:
                self._client.hdel(index, *stale)
        return sorted(live)

    def delete_user(self, user_id: str) -> int:
        """Drop every session key and the index of the user; return the sessions removed.

        Besides the index it SCANs for ``session:{U}:*`` (O(keyspace), run on every
        cluster node) so that no orphaned session survives an erase.
        """
        index = self.keys.session_index(user_id)
        with redis_errors():
            keys = {s(v) for v in self._client.hvals(index)}
            keys.update(
                s(k)
                for k in self._client.scan_iter(
                    match=self.keys.session_pattern(user_id), count=1000
                )
            )
            removed = sum(int(self._client.delete(k)) for k in sorted(keys))
            self._client.delete(index)
        return removed

    def close(self) -> None:
        """Close the client if this object created it from a URL."""
        if self._owned:
            with contextlib.suppress(Exception):
                self._client.close()


# --------------------------------------------------------------------------- factories
def open_redis_sessions(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> RedisSessionStore:
    """Registry factory for ``redis://``/``rediss://`` session stores."""
    opts = parse_redis_url(url)
    ttl = opts.ttl or float((config or MemoryConfig()).session_ttl_seconds)
    return RedisSessionStore(url, prefix=opts.prefix, ttl_seconds=ttl)
