"""The one place the server reaches the core: auth checks, tenant namespacing, JSON shapes.

REST handlers, MCP tools and the ``/me`` page all call :class:`MemoryService`; each method
takes the calling :class:`~shared_core.server.auth.Principal` and the caller's own user id,
checks that the principal may reach that user and ``system_context``, calls
:class:`~shared_core.AsyncUserMemory` on the tenant-namespaced id, and returns JSON-ready
data in which every ``user_id`` is the caller's again. Framework-free.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ..aio import AsyncUserMemory
from ..entities import AuditEntry, Change, Conflict, MemoryRecord, ScoredMemory, SessionTurn
from ..errors import InvalidIdError, InvalidInputError
from ..recall.inject import quote_data
from .auth import KeyStore, Principal, external_user, internal_user

__all__ = ["MemoryService", "credential_actor", "inward", "outward"]

_MAX_EXTERNAL_ID = 190  # the tenant prefix must fit in the core's 256-character id limit


def _adapter(tp: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(tp)


_ADAPTERS: dict[str, Any] = {}


def dump(tp: Any, value: Any) -> Any:
    """Entities -> JSON-ready data (one cached pydantic adapter per type)."""
    name = repr(tp)
    ad = _ADAPTERS.get(name)
    if ad is None:
        ad = _ADAPTERS[name] = _adapter(tp)
    return ad.dump_python(value, mode="json")


def outward(tenant: str, data: Any) -> Any:
    """Strip the tenant prefix from every ``user_id`` in ``data`` (in place; returns it)."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "user_id" and isinstance(v, str):
                ext = external_user(tenant, v)
                data[k] = ext if ext is not None else v
            else:
                outward(tenant, v)
    elif isinstance(data, list):
        for v in data:
            outward(tenant, v)
    return data


def inward(tenant: str, data: Any) -> Any:
    """Add the tenant prefix to every ``user_id`` in ``data`` (a copy)."""
    if isinstance(data, Mapping):
        return {
            k: internal_user(tenant, v)
            if k == "user_id" and isinstance(v, str)
            else inward(tenant, v)
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [inward(tenant, v) for v in data]
    return data


def credential_actor(p: Principal, label: str | None = None) -> str:
    """Who wrote, as recorded: the credential (``key:<id>`` or ``user:<key id>``), then the
    app's own label when it gave one (``key:<id>/agent_tool``). The credential part cannot
    be forged by the caller."""
    who = f"user:{p.key_id}" if p.is_end_user else f"key:{p.key_id}"
    return who if label in (None, "", "app", "user") else f"{who}/{label}"


class MemoryService:
    """Authorised, tenant-scoped calls on one :class:`AsyncUserMemory`."""

    def __init__(self, memory: AsyncUserMemory, keys: KeyStore | None = None) -> None:
        self.memory = memory
        self._keys = keys

    @property
    def keys(self) -> KeyStore:
        if self._keys is None:
            from ..errors import ConfigError

            raise ConfigError("this service has no key store (a fixed-user MCP server)")
        return self._keys

    def check_user(self, p: Principal, user_id: Any) -> str:
        """The tenant-namespaced id of ``user_id``, if ``p`` may reach that user."""
        if not isinstance(user_id, str) or not user_id.strip():
            raise InvalidIdError("user_id must be a non-empty string")
        if len(user_id) > _MAX_EXTERNAL_ID:
            raise InvalidIdError(
                f"user_id is {len(user_id)} characters; the server limit is {_MAX_EXTERNAL_ID}"
            )
        return p.check_user(user_id)

    # -- writes ----------------------------------------------------------------------------------
    async def observe(self, p: Principal, user_id: str, args: Mapping[str, Any]) -> list[Any]:
        uid = self.check_user(p, user_id)
        ctx = args.get("system_context", "default")
        p.check_context(ctx)
        changes = await self.memory.observe(uid, **args)
        return outward(p.tenant, dump(list[Change], changes))  # type: ignore[no-any-return]

    async def observe_messages(
        self,
        p: Principal,
        user_id: str,
        messages: Sequence[Mapping[str, Any]],
        args: Mapping[str, Any],
    ) -> list[Any]:
        uid = self.check_user(p, user_id)
        p.check_context(args.get("system_context", "default"))
        changes = await self.memory.observe_messages(uid, list(messages), **args)
        return outward(p.tenant, dump(list[Change], changes))  # type: ignore[no-any-return]

    async def remember(
        self, p: Principal, user_id: str, key: str, value: Any, args: Mapping[str, Any]
    ) -> Any:
        uid = self.check_user(p, user_id)
        p.check_context(args.get("system_context", "default"))
        args = dict(args)
        actor = credential_actor(p, args.pop("actor", None))
        rec = await self.memory.remember(uid, key, value, actor=actor, **args)
        return outward(p.tenant, dump(MemoryRecord, rec))

    async def forget_key(
        self,
        p: Principal,
        user_id: str,
        key: str,
        *,
        system_context: str = "default",
        at: datetime | None = None,
    ) -> list[Any]:
        uid = self.check_user(p, user_id)
        p.check_context(system_context)
        changes = await self.memory.forget_key(uid, key, system_context=system_context, at=at)
        return outward(p.tenant, dump(list[Change], changes))  # type: ignore[no-any-return]

    async def forget(self, p: Principal, user_id: str) -> dict[str, int]:
        uid = self.check_user(p, user_id)
        p.check_user_wide()
        return await self.memory.forget(uid)

    async def import_user(self, p: Principal, user_id: str, data: Mapping[str, Any]) -> int:
        self.check_user(p, user_id)
        p.check_user_wide()
        if data.get("user_id") != user_id:
            raise InvalidInputError("the export's user_id must be the user_id of the call")
        return await self.memory.import_user(inward(p.tenant, dict(data)))

    async def resolve_conflict(
        self,
        p: Principal,
        user_id: str,
        key: str,
        value: Any,
        *,
        system_context: str = "default",
        at: datetime | None = None,
        actor: str | None = None,
    ) -> Any:
        uid = self.check_user(p, user_id)
        p.check_context(system_context)
        rec = await self.memory.resolve_conflict(
            uid, key, value, system_context=system_context, at=at, actor=credential_actor(p, actor)
        )
        return outward(p.tenant, dump(MemoryRecord, rec))

    async def merge_anonymous(
        self, p: Principal, anon_id: str, user_id: str, *, at: datetime | None = None
    ) -> list[Any]:
        anon = self.check_user(p, anon_id)
        uid = self.check_user(p, user_id)
        p.check_user_wide()
        changes = await self.memory.merge_anonymous(anon, uid, at=at)
        return outward(p.tenant, dump(list[Change], changes))  # type: ignore[no-any-return]

    async def end_session(
        self, p: Principal, user_id: str, session_id: str, at: datetime | None = None
    ) -> Any:
        uid = self.check_user(p, user_id)
        rec = await self.memory.end_session(uid, session_id, at=at)
        return None if rec is None else outward(p.tenant, dump(MemoryRecord, rec))

    async def set_memory_enabled(self, p: Principal, user_id: str, enabled: bool) -> None:
        uid = self.check_user(p, user_id)
        p.check_user_wide()
        await self.memory.set_memory_enabled(uid, enabled)

    # -- reads -----------------------------------------------------------------------------------
    async def recall(self, p: Principal, user_id: str, query: str, args: Mapping[str, Any]) -> Any:
        uid = self.check_user(p, user_id)
        p.check_context(args.get("system_context", "default"))
        hits = await self.memory.recall(uid, query, **args)
        return outward(p.tenant, dump(list[ScoredMemory], hits))

    async def context(self, p: Principal, user_id: str, query: str, args: Mapping[str, Any]) -> str:
        uid = self.check_user(p, user_id)
        p.check_context(args.get("system_context", "default"))
        block = await self.memory.context(uid, query, **args)
        # the identity line names the user: the caller's id, not the tenant-namespaced one
        return block.replace(quote_data(uid), quote_data(user_id), 1)

    async def profile(
        self,
        p: Principal,
        user_id: str,
        *,
        system_context: str = "default",
        device_id: str | None = None,
    ) -> dict[str, str]:
        uid = self.check_user(p, user_id)
        p.check_context(system_context)
        return await self.memory.profile(uid, system_context=system_context, device_id=device_id)

    async def history(
        self, p: Principal, user_id: str, key: str, *, system_context: str | None = None
    ) -> list[Any]:
        uid = self.check_user(p, user_id)
        if system_context is not None:
            p.check_context(system_context)
        recs = await self.memory.history(uid, key, system_context=system_context)
        recs = [r for r in recs if p.may_use_context(r.system_context)]
        return outward(p.tenant, dump(list[MemoryRecord], recs))  # type: ignore[no-any-return]

    async def conflicts(
        self,
        p: Principal,
        user_id: str,
        *,
        system_context: str | None = None,
        open_only: bool = True,
    ) -> list[Any]:
        uid = self.check_user(p, user_id)
        if system_context is not None:
            p.check_context(system_context)
        found = await self.memory.conflicts(uid, system_context=system_context, open_only=open_only)
        found = [c for c in found if p.may_use_context(c.system_context)]
        return outward(p.tenant, dump(list[Conflict], found))  # type: ignore[no-any-return]

    async def memories(
        self,
        p: Principal,
        user_id: str,
        *,
        system_context: str = "default",
        kinds: list[str] | None = None,
        key_prefix: str | None = None,
        all_versions: bool = False,
    ) -> list[Any]:
        uid = self.check_user(p, user_id)
        p.check_context(system_context)
        recs = await self.memory.memories(
            uid,
            system_context=system_context,
            kinds=kinds,
            key_prefix=key_prefix,
            all_versions=all_versions,
        )
        return outward(p.tenant, dump(list[MemoryRecord], recs))  # type: ignore[no-any-return]

    async def set_expiry(
        self,
        p: Principal,
        user_id: str,
        expiries: Mapping[str, datetime | None],
        *,
        system_context: str = "default",
        metadata: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> list[Any]:
        uid = self.check_user(p, user_id)
        p.check_context(system_context)
        recs = await self.memory.set_expiry(
            uid, expiries, system_context=system_context, metadata=metadata
        )
        return outward(p.tenant, dump(list[MemoryRecord], recs))  # type: ignore[no-any-return]

    async def export(self, p: Principal, user_id: str, *, mask_pii: bool = False) -> dict[str, Any]:
        uid = self.check_user(p, user_id)
        p.check_user_wide()
        return outward(p.tenant, await self.memory.export(uid, mask_pii=mask_pii))  # type: ignore[no-any-return]

    async def session_turns(
        self, p: Principal, user_id: str, session_id: str, limit: int | None = None
    ) -> list[Any]:
        uid = self.check_user(p, user_id)
        turns = await self.memory.session_turns(uid, session_id, limit=limit)
        return dump(list[SessionTurn], turns)  # type: ignore[no-any-return]

    async def audit_log(self, p: Principal, user_id: str) -> list[Any]:
        uid = self.check_user(p, user_id)
        p.check_user_wide()
        entries = await self.memory.audit_log(uid)
        return outward(p.tenant, dump(list[AuditEntry], entries))  # type: ignore[no-any-return]

    async def users(self, p: Principal) -> list[str]:
        if p.is_end_user:
            assert p.user_id is not None
            return [p.user_id]
        out = []
        for stored in await self.memory.users():
            ext = external_user(p.tenant, stored)
            if ext is not None:
                out.append(ext)
        return out
