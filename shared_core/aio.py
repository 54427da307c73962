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
import functools
import inspect
import os
import threading
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

from . import _forksafe
from .entities import ScoredMemory
from .errors import InvalidInputError
from .pipeline import UserMemory
from .recall.retrieve import Candidates

__all__ = ["AsyncUserMemory", "CoreBridge", "run_sync"]

P = ParamSpec("P")
R = TypeVar("R")


def _offload(
    method: Callable[Concatenate[UserMemory, P], R],
) -> Callable[Concatenate[AsyncUserMemory, P], Coroutine[Any, Any, R]]:
    """The async twin of a :class:`UserMemory` method: the same parameters (for type
    checkers through ``ParamSpec``, for ``inspect.signature`` through ``__wrapped__``),
    run on ``self.sync`` in a worker thread so the event loop is never blocked."""
    name = method.__name__

    @functools.wraps(method)
    async def offloaded(self: AsyncUserMemory, /, *args: P.args, **kwargs: P.kwargs) -> R:
        result: R = await asyncio.to_thread(getattr(self.sync, name), *args, **kwargs)
        return result

    return offloaded


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

    # each runs the sync method of the same name in a worker thread (same parameters)
    observe = _offload(UserMemory.observe)
    observe_messages = _offload(UserMemory.observe_messages)
    remember = _offload(UserMemory.remember)
    recall = _offload(UserMemory.recall)
    gather = _offload(UserMemory.gather)
    context = _offload(UserMemory.context)
    profile = _offload(UserMemory.profile)
    history = _offload(UserMemory.history)
    forget = _offload(UserMemory.forget)
    complete_erasures = _offload(UserMemory.complete_erasures)
    forget_key = _offload(UserMemory.forget_key)
    export = _offload(UserMemory.export)
    import_user = _offload(UserMemory.import_user)
    end_session = _offload(UserMemory.end_session)
    session_turns = _offload(UserMemory.session_turns)
    set_memory_enabled = _offload(UserMemory.set_memory_enabled)
    merge_anonymous = _offload(UserMemory.merge_anonymous)
    memories = _offload(UserMemory.memories)
    set_expiry = _offload(UserMemory.set_expiry)
    conflicts = _offload(UserMemory.conflicts)
    resolve_conflict = _offload(UserMemory.resolve_conflict)
    users = _offload(UserMemory.users)
    audit_log = _offload(UserMemory.audit_log)
    flush_audit = _offload(UserMemory.flush_audit)
    reindex = _offload(UserMemory.reindex)

    async def rank(self, candidates: Candidates) -> list[ScoredMemory]:
        """:meth:`UserMemory.rank` (pure: no store is read, so no thread is needed)."""
        return self.sync.rank(candidates)


# ----------------------------------------------------------------------------- bridge
class _LoopThread:
    """A private event loop running forever in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.pid = os.getpid()
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
        # a forked child's copy: its thread never ran here, and waking the loop would
        # write to the self-pipe the parent's loop shares
        if self.pid == os.getpid() and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)


# One private loop per async-only core object, shared by all adapters that hold it;
# the loop stops when the core is garbage collected.
_LOOPS: weakref.WeakKeyDictionary[Any, _LoopThread] = weakref.WeakKeyDictionary()
_LOOPS_LOCK = threading.Lock()
_forksafe.renew_lock(globals(), "_LOOPS_LOCK")


@_forksafe.in_child
def _forget_loops() -> None:
    """In a forked child: no loops (their threads are the parent's); a core's next
    call starts a loop of the child's own."""
    global _LOOPS
    _LOOPS = weakref.WeakKeyDictionary()


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
