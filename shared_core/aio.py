"""Async access to the core: :class:`AsyncUserMemory` and the adapters' :class:`CoreBridge`.

**One async strategy.** Every call runs the shared sync pipeline on the sync stores in a
worker thread (``asyncio.to_thread``): the event loop is never blocked, and no background
event loop is created (safe in notebooks and hosts). It was chosen by measurement against
native async stores (psycopg ``AsyncConnectionPool``, ``redis.asyncio``) under 200
coroutines on Redis + PostgreSQL (``benchmarks/async_strategy.py``; numbers in the README):
the thread offload had the higher throughput and the lower p95.

**One bridge.** The LangChain and LlamaIndex adapters call the core from sync and async
code alike through :class:`CoreBridge`:

* a sync core (:class:`UserMemory`): sync callers call it directly (it never touches an
  event loop, so a running loop, as in Jupyter, does not matter); async callers run it
  with :func:`asyncio.to_thread`, so their loop is never blocked;
* an :class:`AsyncUserMemory`: async callers await it on their own loop; sync callers use
  its ``.sync`` twin, so no coroutine is driven from a second, temporary loop;
* an async-only core (any object whose methods are coroutines and that has no ``.sync``):
  every call, sync or async, runs on **one** private event loop per core object, kept in
  a daemon thread and shared by every adapter holding that core.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import threading
import weakref
from collections.abc import Coroutine, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from .entities import AuditEntry, Change, Conflict, MemoryRecord, ScoredMemory, SessionTurn
from .errors import InvalidInputError
from .pipeline import UserMemory

__all__ = ["AsyncUserMemory", "CoreBridge", "run_sync"]


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

    async def complete_erasures(self) -> int:
        return await asyncio.to_thread(self.sync.complete_erasures)

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

    async def memories(
        self,
        user_id: str,
        *,
        system_context: str = "default",
        kinds: Sequence[str] | None = None,
        key_prefix: str | None = None,
        all_versions: bool = False,
    ) -> list[MemoryRecord]:
        return await asyncio.to_thread(
            self.sync.memories,
            user_id,
            system_context=system_context,
            kinds=kinds,
            key_prefix=key_prefix,
            all_versions=all_versions,
        )

    async def set_expiry(
        self,
        user_id: str,
        expiries: Mapping[str, datetime | None],
        *,
        system_context: str = "default",
        metadata: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> list[MemoryRecord]:
        return await asyncio.to_thread(
            self.sync.set_expiry,
            user_id,
            expiries,
            system_context=system_context,
            metadata=metadata,
        )

    async def conflicts(
        self, user_id: str, *, system_context: str | None = None, open_only: bool = True
    ) -> list[Conflict]:
        return await asyncio.to_thread(
            self.sync.conflicts, user_id, system_context=system_context, open_only=open_only
        )

    async def resolve_conflict(
        self,
        user_id: str,
        key: str,
        value: str | int | float | bool,
        *,
        system_context: str = "default",
        at: datetime | None = None,
        actor: str = "user",
    ) -> MemoryRecord:
        return await asyncio.to_thread(
            self.sync.resolve_conflict,
            user_id,
            key,
            value,
            system_context=system_context,
            at=at,
            actor=actor,
        )

    async def users(self) -> list[str]:
        return await asyncio.to_thread(self.sync.users)

    async def audit_log(self, user_id: str) -> list[AuditEntry]:
        return await asyncio.to_thread(self.sync.audit_log, user_id)

    async def flush_audit(self) -> None:
        await asyncio.to_thread(self.sync.flush_audit)

    async def reindex(self, user_id: str | None = None) -> int:
        return await asyncio.to_thread(self.sync.reindex, user_id)


# ----------------------------------------------------------------------------- bridge
class _LoopThread:
    """A private event loop running forever in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="usermemory-core-loop", daemon=True)
        self.thread.start()
        self._ready.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(self._ready.set)
        self.loop.run_forever()
        self.loop.close()

    def submit(self, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def stop(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)


# One private loop per async-only core object, shared by all adapters that hold it;
# the loop stops when the core is garbage collected.
_LOOPS: weakref.WeakKeyDictionary[Any, _LoopThread] = weakref.WeakKeyDictionary()
_LOOPS_LOCK = threading.Lock()


def _loop_for(core: Any) -> _LoopThread:
    with _LOOPS_LOCK:
        runner = _LOOPS.get(core)
        if runner is None or not runner.thread.is_alive():
            runner = _LoopThread()
            _LOOPS[core] = runner
            weakref.finalize(core, runner.stop)
        return runner


def _is_async(obj: Any) -> bool:
    return inspect.iscoroutinefunction(getattr(obj, "observe", None))


class CoreBridge:
    """Runs core methods by name from sync or async code (see the module docstring).

    Args:
        core: a :class:`UserMemory` or :class:`AsyncUserMemory` (any object with the
            core's method names; async-ness is detected per method).

    Raises:
        InvalidInputError: ``core`` is ``None``.
    """

    def __init__(self, core: Any) -> None:
        if core is None:
            raise InvalidInputError("a UserMemory or AsyncUserMemory instance is required")
        self.core = core
        twin = getattr(core, "sync", None)
        self._sync_twin: Any = twin if _is_async(core) and not _is_async(twin) else None
        if self._sync_twin is not None and not callable(getattr(twin, "observe", None)):
            self._sync_twin = None

    @property
    def is_async(self) -> bool:
        """Whether the core's methods are coroutine functions (an ``AsyncUserMemory``)."""
        return _is_async(self.core)

    @property
    def uses_private_loop(self) -> bool:
        """Whether calls run on a private loop (an async-only core without ``.sync``)."""
        return self.is_async and self._sync_twin is None

    def call(self, method: str, /, *args: Any, **kwargs: Any) -> Any:
        """Call ``core.<method>(*args, **kwargs)`` from sync code and return its result.

        Safe inside a running event loop (Jupyter): nothing runs on the caller's loop.

        Raises:
            InvalidInputError: called from the core's private loop thread (would deadlock).
        """
        fn = getattr(self.core, method)
        if not inspect.iscoroutinefunction(fn):
            return fn(*args, **kwargs)
        if self._sync_twin is not None:
            twin = getattr(self._sync_twin, method, None)
            if twin is not None and not inspect.iscoroutinefunction(twin):
                return twin(*args, **kwargs)
        runner = _loop_for(self.core)
        if threading.current_thread() is runner.thread:
            raise InvalidInputError(
                "a sync UserMemory adapter method was called from the core's private event loop"
            )
        return runner.submit(fn(*args, **kwargs)).result()

    async def acall(self, method: str, /, *args: Any, **kwargs: Any) -> Any:
        """Await ``core.<method>(*args, **kwargs)`` without blocking the caller's loop."""
        fn = getattr(self.core, method)
        if not inspect.iscoroutinefunction(fn):
            return await asyncio.to_thread(fn, *args, **kwargs)
        if not self.uses_private_loop:
            return await fn(*args, **kwargs)
        runner = _loop_for(self.core)
        if threading.current_thread() is runner.thread:
            return await fn(*args, **kwargs)
        return await asyncio.wrap_future(runner.submit(fn(*args, **kwargs)))


def run_sync(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to completion from sync code, even inside a running event loop.

    Without a running loop in this thread it uses :func:`asyncio.run`; inside one
    (Jupyter) it runs the coroutine on a fresh loop in a worker thread and waits.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
