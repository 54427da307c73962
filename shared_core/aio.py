"""AsyncUserMemory: the async twin of :class:`shared_core.pipeline.UserMemory`.

The embedded SQLite store and the rule extractor do blocking IO/CPU work, so each call
runs the shared pipeline in a worker thread (``asyncio.to_thread``): the event loop is
never blocked, and no background event loop is created (safe in notebooks and hosts).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from .entities import AuditEntry, Change, MemoryRecord, ScoredMemory, SessionTurn
from .pipeline import UserMemory

__all__ = ["AsyncUserMemory"]


class AsyncUserMemory:
    """Async twin of :class:`UserMemory` with the same methods and arguments.

    Args: as :class:`UserMemory`; or wrap an existing one with ``AsyncUserMemory.wrap(mem)``.

    Example:
        >>> import asyncio
        >>> from shared_core import AsyncUserMemory
        >>> async def main() -> None:
        ...     async with AsyncUserMemory.from_url("sqlite:///:memory:") as mem:
        ...         await mem.observe("u1", "Never call me, text me instead.")
        ...         print((await mem.profile("u1"))["contact.call"])
        >>> asyncio.run(main())
        never
    """

    def __init__(self, url: str | None = None, **kwargs: Any) -> None:
        self.sync = UserMemory(url, **kwargs)

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> AsyncUserMemory:
        return cls(url, **kwargs)

    @classmethod
    def wrap(cls, mem: UserMemory) -> AsyncUserMemory:
        """Share one :class:`UserMemory` (and its stores) between sync and async code."""
        obj = cls.__new__(cls)
        obj.sync = mem
        return obj

    async def __aenter__(self) -> AsyncUserMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await asyncio.to_thread(self.sync.close)

    close = aclose

    async def observe(
        self,
        user_id: str,
        text: str,
        *,
        role: str = "user",
        session_id: str | None = None,
        turn_id: str | None = None,
        device_id: str | None = None,
        system_context: str = "default",
        at: datetime | None = None,
    ) -> list[Change]:
        return await asyncio.to_thread(
            self.sync.observe,
            user_id,
            text,
            role=role,
            session_id=session_id,
            turn_id=turn_id,
            device_id=device_id,
            system_context=system_context,
            at=at,
        )

    async def observe_messages(
        self,
        user_id: str,
        messages: Iterable[Any],
        *,
        session_id: str | None = None,
        device_id: str | None = None,
        system_context: str = "default",
        at: datetime | None = None,
    ) -> list[Change]:
        return await asyncio.to_thread(
            self.sync.observe_messages,
            user_id,
            messages,
            session_id=session_id,
            device_id=device_id,
            system_context=system_context,
            at=at,
        )

    async def remember(
        self,
        user_id: str,
        key: str,
        value: str | int | float | bool,
        *,
        kind: str = "preference",
        source: str = "user_declare",
        **kwargs: Any,
    ) -> MemoryRecord:
        return await asyncio.to_thread(
            self.sync.remember, user_id, key, value, kind=kind, source=source, **kwargs
        )

    async def recall(
        self,
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
    ) -> list[ScoredMemory]:
        return await asyncio.to_thread(
            self.sync.recall,
            user_id,
            query,
            k=k,
            system_context=system_context,
            device_id=device_id,
            session_id=session_id,
            at=at,
            kinds=kinds,
            include_archive=include_archive,
        )

    async def context(
        self,
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
    ) -> str:
        return await asyncio.to_thread(
            self.sync.context,
            user_id,
            query,
            token_budget=token_budget,
            system_context=system_context,
            device_id=device_id,
            session_id=session_id,
            at=at,
            k=k,
            include_archive=include_archive,
        )

    async def profile(
        self, user_id: str, *, system_context: str = "default", device_id: str | None = None
    ) -> dict[str, str]:
        return await asyncio.to_thread(
            self.sync.profile, user_id, system_context=system_context, device_id=device_id
        )

    async def history(
        self, user_id: str, key: str, *, system_context: str | None = None
    ) -> list[MemoryRecord]:
        return await asyncio.to_thread(
            self.sync.history, user_id, key, system_context=system_context
        )

    async def forget(self, user_id: str) -> dict[str, int]:
        return await asyncio.to_thread(self.sync.forget, user_id)

    async def forget_key(self, user_id: str, key: str, **kwargs: Any) -> list[Change]:
        return await asyncio.to_thread(self.sync.forget_key, user_id, key, **kwargs)

    async def export(self, user_id: str, *, mask_pii: bool = False) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.export, user_id, mask_pii=mask_pii)

    async def import_user(self, data: Mapping[str, Any]) -> int:
        return await asyncio.to_thread(self.sync.import_user, data)

    async def end_session(
        self, user_id: str, session_id: str, *, at: datetime | None = None
    ) -> MemoryRecord | None:
        return await asyncio.to_thread(self.sync.end_session, user_id, session_id, at=at)

    async def session_turns(
        self, user_id: str, session_id: str, *, limit: int | None = None
    ) -> list[SessionTurn]:
        return await asyncio.to_thread(self.sync.session_turns, user_id, session_id, limit=limit)

    async def set_memory_enabled(self, user_id: str, enabled: bool) -> None:
        await asyncio.to_thread(self.sync.set_memory_enabled, user_id, enabled)

    async def merge_anonymous(
        self, anon_id: str, user_id: str, *, at: datetime | None = None
    ) -> list[Change]:
        return await asyncio.to_thread(self.sync.merge_anonymous, anon_id, user_id, at=at)

    async def users(self) -> list[str]:
        return await asyncio.to_thread(self.sync.users)

    async def audit_log(self, user_id: str) -> list[AuditEntry]:
        return await asyncio.to_thread(self.sync.audit_log, user_id)

    async def flush_audit(self) -> None:
        await asyncio.to_thread(self.sync.flush_audit)

    async def reindex(self, user_id: str | None = None) -> int:
        return await asyncio.to_thread(self.sync.reindex, user_id)
