"""Call a sync ``UserMemory`` or an ``AsyncUserMemory`` from sync and async code alike.

LlamaIndex calls memories from both worlds: ``SimpleChatEngine.chat`` calls the sync
``get``/``put``, ``achat`` and the agent workflows call the async twins, and in
Jupyter the sync methods run *inside* a running event loop. The bridge makes every
combination safe without ever using an async client from two event loops:

* **sync core** (:class:`~shared_core.UserMemory`): sync callers call it directly (it
  never touches an event loop, so a running loop does not matter); async callers run
  it with :func:`asyncio.to_thread`, so their loop is never blocked.
* **async core with a sync twin** (:class:`~shared_core.AsyncUserMemory`, whose
  ``.sync`` is the ``UserMemory`` it runs on): async callers await the coroutine on
  their own loop, as any other code using that core would; sync callers use the sync
  twin, so no coroutine is ever driven from a second, temporary loop (which is what
  ties ``redis.asyncio`` / psycopg async pools to the wrong loop).
* **async-only core** (any object whose methods are coroutines and that has no
  ``.sync``): every call, sync or async, runs on **one** private event loop per core
  object, kept in a daemon thread and shared by every adapter holding that core.
  Sync callers block on the result; async callers await it without blocking.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import logging
import threading
import weakref
from collections.abc import Coroutine, Mapping
from typing import Any

from shared_core import InvalidInputError

__all__ = ["CoreBridge", "check_ids", "run_sync"]

logger = logging.getLogger(__name__)


class _LoopThread:
    """A private event loop running forever in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self.thread = threading.Thread(
            target=self._run, name="usermemory-llamaindex-loop", daemon=True
        )
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
        core: a ``shared_core.UserMemory`` or ``shared_core.AsyncUserMemory`` (any
            object with the core's method names; async-ness is detected per method).

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
            return getattr(self._sync_twin, method)(*args, **kwargs)
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
        if self._sync_twin is not None:
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


def check_ids(data: Mapping[str, Any], names: tuple[str, ...]) -> None:
    """Raise ``InvalidInputError`` unless each present ``data[name]`` is a non-empty string.

    Args:
        data: constructor keyword arguments.
        names: the id fields to check (``user_id`` is required when listed).

    Raises:
        InvalidInputError: a missing ``user_id`` or an empty / non-string id.
    """
    if "user_id" in names and "user_id" not in data:
        raise InvalidInputError("user_id is required")
    if data.get("memory") is None:
        raise InvalidInputError("memory= (a UserMemory or AsyncUserMemory) is required")
    for name in names:
        if name in data:
            value = data[name]
            if not isinstance(value, str) or not value.strip():
                raise InvalidInputError(f"{name} must be a non-empty string, got {value!r}")
