"""Python clients of the memory server, with the library's method names and return types.

Switching an app from embedded to server is one line::

    mem = UserMemory()                                            # embedded
    mem = UserMemoryClient("http://127.0.0.1:8765", api_key=KEY)  # server

Both return the core's own entities (:class:`~shared_core.Change`,
:class:`~shared_core.ScoredMemory`, :class:`~shared_core.MemoryRecord`, ...), and a server
error comes back as the same :class:`~shared_core.UserMemoryError` subclass the library
raises (from its problem-details ``code``), so the LangChain and LlamaIndex adapters accept a
client wherever they accept a ``UserMemory`` (sync) or ``AsyncUserMemory`` (async).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

import httpx

from ..clock import Clock, SystemClock
from ..entities import AuditEntry, Change, Conflict, MemoryRecord, ScoredMemory, SessionTurn
from ..errors import BackendUnavailableError, InvalidInputError
from ..messages import message_turn
from .problems import error_for

__all__ = ["AsyncUserMemoryClient", "UserMemoryClient"]

P = ParamSpec("P")
R = TypeVar("R")

_ADAPTERS: dict[Any, Any] = {}


def _decode(tp: Any, data: Any) -> Any:
    ad = _ADAPTERS.get(tp)
    if ad is None:
        from pydantic import TypeAdapter

        ad = _ADAPTERS[tp] = TypeAdapter(tp)
    return ad.validate_python(data)


def _json(v: Any) -> Any:
    if isinstance(v, datetime):
        return v.isoformat()
    if isinstance(v, Mapping):
        return {k: _json(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_json(x) for x in v]
    return v


@dataclass(frozen=True, slots=True)
class _Call(Generic[R]):
    """One server call: endpoint, JSON body and how to read the answer."""

    name: str
    body: dict[str, Any]
    read: Callable[[Any], R]
    skip: bool = False  # nothing to send: the answer is ``read`` of an empty result


def _changes(d: Any) -> list[Change]:
    return _decode(list[Change], d["changes"])  # type: ignore[no-any-return]


# -- one builder per library method (the signatures of shared_core.UserMemory) -------------------
def _observe(
    self: Any,
    /,
    user_id: str,
    text: str,
    *,
    role: str = "user",
    session_id: str | None = None,
    turn_id: str | None = None,
    device_id: str | None = None,
    system_context: str = "default",
    at: datetime | None = None,
) -> _Call[list[Change]]:
    """Feed one turn (``UserMemory.observe``)."""
    body = {
        "user_id": user_id,
        "text": text,
        "role": role,
        "session_id": session_id,
        "turn_id": turn_id,
        "device_id": device_id,
        "system_context": system_context,
        "at": at,
    }
    return _Call("observe", body, _changes)


def _observe_messages(
    self: Any,
    /,
    user_id: str,
    messages: Iterable[Any],
    *,
    session_id: str | None = None,
    device_id: str | None = None,
    system_context: str = "default",
    at: datetime | None = None,
) -> _Call[list[Change]]:
    """Feed a conversation in order, in one session (``UserMemory.observe_messages``).

    Messages are what the library takes (``{"role", "content"}`` mappings, LangChain
    messages, LlamaIndex ``ChatMessage``); they are read here with the library's own rules
    (system prompts and messages without text are skipped, a message ``id`` is the turn id)
    and sent as ``{"role", "content", "id"}``. Every message is checked before any is sent
    or written; every message's changes come back in order.
    """
    if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Iterable):
        raise InvalidInputError(
            f"messages must be a list of messages, got {type(messages).__name__}"
        )
    wire = [
        {"role": role, "content": text, "id": turn_id}
        for role, text, turn_id in (t for t in map(message_turn, messages) if t is not None)
    ]
    body = {
        "user_id": user_id,
        "messages": wire,
        "session_id": session_id,
        "device_id": device_id,
        "system_context": system_context,
        "at": at,
    }
    return _Call("observe_messages", body, _changes, skip=not wire)


def _remember(
    self: Any,
    /,
    user_id: str,
    key: str,
    value: str | int | float | bool,
    *,
    kind: str = "preference",
    source: str = "user_declare",
    system_context: str = "default",
    scope: str = "global",
    device_id: str | None = None,
    session_id: str | None = None,
    hard: bool = False,
    permanent: bool = False,
    valid_until: datetime | None = None,
    confidence: float | None = None,
    at: datetime | None = None,
    actor: str = "app",
) -> _Call[MemoryRecord]:
    """Write one memory (``UserMemory.remember``). The server records the credential as
    the actor, followed by ``actor`` when it is not the default (``key:<id>/agent_tool``)."""
    body = {
        "user_id": user_id,
        "key": key,
        "value": value,
        "kind": kind,
        "source": source,
        "system_context": system_context,
        "scope": scope,
        "device_id": device_id,
        "session_id": session_id,
        "hard": hard,
        "permanent": permanent,
        "valid_until": valid_until,
        "confidence": confidence,
        "at": at,
        "actor": actor,
    }
    return _Call("remember", body, lambda d: _decode(MemoryRecord, d))


def _recall(
    self: Any,
    /,
    user_id: str,
    query: str,
    *,
    k: int = 3,
    system_context: str = "default",
    device_id: str | None = None,
    session_id: str | None = None,
    at: datetime | None = None,
    kinds: Sequence[str] | None = None,
    include_archive: bool = False,
) -> _Call[list[ScoredMemory]]:
    """Scored memories for a query (``UserMemory.recall``)."""
    body = {
        "user_id": user_id,
        "query": query,
        "k": k,
        "system_context": system_context,
        "device_id": device_id,
        "session_id": session_id,
        "at": at,
        "kinds": list(kinds) if kinds is not None else None,
        "include_archive": include_archive,
    }
    return _Call("recall", body, lambda d: _decode(list[ScoredMemory], d["results"]))


def _context(
    self: Any,
    /,
    user_id: str,
    query: str,
    *,
    token_budget: int = 400,
    system_context: str = "default",
    device_id: str | None = None,
    session_id: str | None = None,
    at: datetime | None = None,
    k: int | None = None,
    include_archive: bool = False,
) -> _Call[str]:
    """The prompt block for a query (``UserMemory.context``)."""
    body = {
        "user_id": user_id,
        "query": query,
        "token_budget": token_budget,
        "system_context": system_context,
        "device_id": device_id,
        "session_id": session_id,
        "at": at,
        "k": k,
        "include_archive": include_archive,
    }
    return _Call("context", body, lambda d: str(d["context"]))


def _profile(
    self: Any, user_id: str, *, system_context: str = "default", device_id: str | None = None
) -> _Call[dict[str, str]]:
    """Current key -> value map (``UserMemory.profile``)."""
    body = {"user_id": user_id, "system_context": system_context, "device_id": device_id}
    return _Call("profile", body, lambda d: dict(d["profile"]))


def _history(
    self: Any, user_id: str, key: str, *, system_context: str | None = None
) -> _Call[list[MemoryRecord]]:
    """Every version of one key (``UserMemory.history``)."""
    body = {"user_id": user_id, "key": key, "system_context": system_context}
    return _Call("history", body, lambda d: _decode(list[MemoryRecord], d["records"]))


def _forget(self: Any, /, user_id: str) -> _Call[dict[str, int]]:
    """Erase everything about a user (``UserMemory.forget``)."""
    return _Call("forget", {"user_id": user_id}, lambda d: dict(d["erased"]))


def _forget_key(
    self: Any,
    /,
    user_id: str,
    key: str,
    *,
    system_context: str = "default",
    at: datetime | None = None,
) -> _Call[list[Change]]:
    """Revoke a key and its sub-keys (``UserMemory.forget_key``)."""
    body = {"user_id": user_id, "key": key, "system_context": system_context, "at": at}
    return _Call("forget_key", body, _changes)


def _conflicts(
    self: Any, user_id: str, *, system_context: str | None = None, open_only: bool = True
) -> _Call[list[Conflict]]:
    """The user's conflicts, by default the open questions (``UserMemory.conflicts``)."""
    body = {"user_id": user_id, "system_context": system_context, "open_only": open_only}
    return _Call("conflicts", body, lambda d: _decode(list[Conflict], d["conflicts"]))


def _resolve_conflict(
    self: Any,
    user_id: str,
    key: str,
    value: str | int | float | bool,
    *,
    system_context: str = "default",
    at: datetime | None = None,
    actor: str = "user",
) -> _Call[MemoryRecord]:
    """Answer the open question on ``key`` (``UserMemory.resolve_conflict``; recorded with
    the calling key or token as the actor, as ``remember``)."""
    body: dict[str, Any] = {
        "user_id": user_id,
        "key": key,
        "value": value,
        "system_context": system_context,
        "at": at,
        "actor": actor,
    }
    return _Call("resolve_conflict", body, lambda d: _decode(MemoryRecord, d))


def _memories(
    self: Any,
    user_id: str,
    *,
    system_context: str = "default",
    kinds: Sequence[str] | None = None,
    key_prefix: str | None = None,
    all_versions: bool = False,
) -> _Call[list[MemoryRecord]]:
    """The user's memories in one context (``UserMemory.memories``)."""
    body = {
        "user_id": user_id,
        "system_context": system_context,
        "kinds": list(kinds) if kinds is not None else None,
        "key_prefix": key_prefix,
        "all_versions": all_versions,
    }
    return _Call("memories", body, lambda d: _decode(list[MemoryRecord], d["records"]))


def _set_expiry(
    self: Any,
    user_id: str,
    expiries: Mapping[str, datetime | None],
    *,
    system_context: str = "default",
    metadata: Mapping[str, Mapping[str, Any]] | None = None,
) -> _Call[list[MemoryRecord]]:
    """Set when memories stop being used, by record id (``UserMemory.set_expiry``)."""
    body = {
        "user_id": user_id,
        "expiries": dict(expiries),
        "system_context": system_context,
        "metadata": None if metadata is None else {k: dict(v) for k, v in metadata.items()},
    }
    return _Call("set_expiry", body, lambda d: _decode(list[MemoryRecord], d["records"]))


def _merge_anonymous(
    self: Any, anon_id: str, user_id: str, *, at: datetime | None = None
) -> _Call[list[Change]]:
    """Move a visitor's memory to ``user_id`` (``UserMemory.merge_anonymous``)."""
    return _Call("merge_anonymous", {"user_id": user_id, "anon_id": anon_id, "at": at}, _changes)


def _export(self: Any, /, user_id: str, *, mask_pii: bool = False) -> _Call[dict[str, Any]]:
    """Everything held about a user (``UserMemory.export``)."""
    return _Call("export", {"user_id": user_id, "mask_pii": mask_pii}, dict)


def _import_user(self: Any, /, data: Mapping[str, Any]) -> _Call[int]:
    """Load an export back (``UserMemory.import_user``); returns the number of records."""
    if not isinstance(data, Mapping):
        raise InvalidInputError("import_user needs an export (a mapping)")
    body = {"user_id": data.get("user_id"), "data": dict(data)}
    return _Call("import", body, lambda d: int(d["records"]))


def _end_session(
    self: Any, user_id: str, session_id: str, *, at: datetime | None = None
) -> _Call[MemoryRecord | None]:
    """Close a session (``UserMemory.end_session``)."""
    body = {"user_id": user_id, "session_id": session_id, "at": at}
    return _Call(
        "end_session",
        body,
        lambda d: None if d["record"] is None else _decode(MemoryRecord, d["record"]),
    )


def _session_turns(
    self: Any, user_id: str, session_id: str, *, limit: int | None = None
) -> _Call[list[SessionTurn]]:
    """Turns kept in short-term memory (``UserMemory.session_turns``)."""
    body = {"user_id": user_id, "session_id": session_id, "limit": limit}
    return _Call("session_turns", body, lambda d: _decode(list[SessionTurn], d["turns"]))


def _set_memory_enabled(self: Any, /, user_id: str, enabled: bool) -> _Call[None]:
    """Pause or resume memory (``UserMemory.set_memory_enabled``)."""
    return _Call("set_memory_enabled", {"user_id": user_id, "enabled": enabled}, lambda d: None)


def _users(self: Any, /) -> _Call[list[str]]:
    """The tenant's user ids (``UserMemory.users``)."""
    return _Call("users", {}, lambda d: list(d["users"]))


def _audit_log(self: Any, /, user_id: str) -> _Call[list[AuditEntry]]:
    """The user's audit log (``UserMemory.audit_log``)."""
    return _Call("audit", {"user_id": user_id}, lambda d: _decode(list[AuditEntry], d["entries"]))


def _user_token(
    self: Any, user_id: str, *, ttl_seconds: int | None = None
) -> _Call[tuple[str, datetime]]:
    """A short-lived end-user token for ``/me`` or MCP: ``(token, expires_at)``."""
    return _Call(
        "tokens",
        {"user_id": user_id, "ttl_seconds": ttl_seconds},
        lambda d: (str(d["token"]), datetime.fromisoformat(d["expires_at"])),
    )


def _answer(resp: httpx.Response, call: _Call[R]) -> R:
    try:
        data = resp.json()
    except ValueError:
        data = None
    if resp.status_code >= 400:
        raise error_for(resp.status_code, data)
    return call.read(data)


def _sync(
    build: Callable[Concatenate[Any, P], _Call[R]],
) -> Callable[Concatenate[UserMemoryClient, P], R]:
    @functools.wraps(build)
    def method(self: UserMemoryClient, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._run(build(self, *args, **kwargs))

    return method


def _async(
    build: Callable[Concatenate[Any, P], _Call[R]],
) -> Callable[Concatenate[AsyncUserMemoryClient, P], Coroutine[Any, Any, R]]:
    @functools.wraps(build)
    async def method(self: AsyncUserMemoryClient, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await self._run(build(self, *args, **kwargs))

    return method


def _headers(api_key: str) -> dict[str, str]:
    if not isinstance(api_key, str) or not api_key.strip():
        raise InvalidInputError("api_key (an API key or an end-user token) is required")
    return {"Authorization": f"Bearer {api_key.strip()}", "Accept": "application/json"}


class UserMemoryClient:
    """Synchronous client of a UserMemory server (``usermemory serve``).

    Args:
        base_url: the server, e.g. ``"http://127.0.0.1:8765"``.
        api_key: an API key (``usermemory keys create``) or an end-user token.
        timeout: seconds per request.
        http_client: an ``httpx.Client`` to use instead (its base URL and headers are kept).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        http_client: httpx.Client | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = http_client or httpx.Client(base_url=self.base_url, timeout=timeout)
        self._http.headers.update(_headers(api_key))
        self._owns = http_client is None
        #: the clock the adapters read "now" from (the library's ``UserMemory.clock``)
        self.clock: Clock = SystemClock()

    def _run(self, call: _Call[R]) -> R:
        if call.skip:
            return call.read({"changes": []})
        try:
            resp = self._http.post(f"/v1/{call.name}", json=_json(call.body))
        except httpx.TransportError as exc:
            raise BackendUnavailableError(f"memory server unreachable: {exc}") from exc
        return _answer(resp, call)

    def close(self) -> None:
        if self._owns:
            self._http.close()

    def __enter__(self) -> UserMemoryClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    observe = _sync(_observe)
    observe_messages = _sync(_observe_messages)
    remember = _sync(_remember)
    recall = _sync(_recall)
    context = _sync(_context)
    profile = _sync(_profile)
    history = _sync(_history)
    forget = _sync(_forget)
    forget_key = _sync(_forget_key)
    export = _sync(_export)
    import_user = _sync(_import_user)
    merge_anonymous = _sync(_merge_anonymous)
    conflicts = _sync(_conflicts)
    memories = _sync(_memories)
    set_expiry = _sync(_set_expiry)
    resolve_conflict = _sync(_resolve_conflict)
    end_session = _sync(_end_session)
    session_turns = _sync(_session_turns)
    set_memory_enabled = _sync(_set_memory_enabled)
    users = _sync(_users)
    audit_log = _sync(_audit_log)
    user_token = _sync(_user_token)


class AsyncUserMemoryClient:
    """Asynchronous client of a UserMemory server; the methods of ``AsyncUserMemory``.

    Args: as :class:`UserMemoryClient` (``http_client`` an ``httpx.AsyncClient``).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = http_client or httpx.AsyncClient(base_url=self.base_url, timeout=timeout)
        self._http.headers.update(_headers(api_key))
        self._owns = http_client is None
        self._api_key = api_key
        self._timeout = timeout
        self._sync: UserMemoryClient | None = None
        self.clock: Clock = SystemClock()

    @property
    def sync(self) -> UserMemoryClient:
        """A synchronous twin on the same server and key (as ``AsyncUserMemory.sync``).

        Adapters call it from synchronous code, so an async client is never driven from a
        second event loop.
        """
        if self._sync is None:
            self._sync = UserMemoryClient(self.base_url, self._api_key, timeout=self._timeout)
        return self._sync

    async def _run(self, call: _Call[R]) -> R:
        if call.skip:
            return call.read({"changes": []})
        try:
            resp = await self._http.post(f"/v1/{call.name}", json=_json(call.body))
        except httpx.TransportError as exc:
            raise BackendUnavailableError(f"memory server unreachable: {exc}") from exc
        return _answer(resp, call)

    async def aclose(self) -> None:
        if self._sync is not None:
            self._sync.close()
        if self._owns:
            await self._http.aclose()

    close = aclose

    async def __aenter__(self) -> AsyncUserMemoryClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    observe = _async(_observe)
    observe_messages = _async(_observe_messages)
    remember = _async(_remember)
    recall = _async(_recall)
    context = _async(_context)
    profile = _async(_profile)
    history = _async(_history)
    forget = _async(_forget)
    forget_key = _async(_forget_key)
    export = _async(_export)
    import_user = _async(_import_user)
    merge_anonymous = _async(_merge_anonymous)
    conflicts = _async(_conflicts)
    memories = _async(_memories)
    set_expiry = _async(_set_expiry)
    resolve_conflict = _async(_resolve_conflict)
    end_session = _async(_end_session)
    session_turns = _async(_session_turns)
    set_memory_enabled = _async(_set_memory_enabled)
    users = _async(_users)
    audit_log = _async(_audit_log)
    user_token = _async(_user_token)
