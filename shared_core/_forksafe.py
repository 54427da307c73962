"""What a child process renews after ``os.fork()``: the core's one fork hook.

A thread of the parent may hold a lock at the moment of a fork. That thread does not
exist in the child, so the child's copy of the lock is never released and the child
hangs on first use. Modules therefore register what the child must renew, once, at
import (nothing runs on the hot path; the work is done in the child, right after the
fork, on its only thread):

- :func:`renew_lock` for a module-level lock: the child gets a fresh one (never a
  release of the inherited one). The data the lock guards are kept: they are the
  parent's, valid in the child, unless they hold threads, sockets or files, which the
  module then resets with a hook;
- :func:`in_child` for any other reset (a registry of threads, a third-party lock);
- :func:`track` for objects with an ``after_fork()`` method that no ``UserMemory`` owns
  (e.g. :class:`~shared_core.storage.redis_events.EventSubscriber`, which restarts its
  thread).

In the child the locks are renewed first, then the hooks run in the order they were
registered (among them every open ``UserMemory``'s reset, ``shared_core._base``), then
tracked objects are told. A failing step is logged and the others still run.
"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from collections.abc import Callable, MutableMapping
from typing import Any, TypeVar

__all__ = ["in_child", "registered_locks", "renew_lock", "renew_lock_attrs", "track", "untrack"]

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[[], object])

_LOCKS: list[tuple[MutableMapping[str, Any], str, Callable[[], object]]] = []
_HOOKS: list[Callable[[], object]] = []
_TRACKED: weakref.WeakSet[Any] = weakref.WeakSet()


def renew_lock(
    namespace: MutableMapping[str, Any],
    name: str,
    factory: Callable[[], object] = threading.Lock,
) -> None:
    """In a forked child, ``namespace[name] = factory()``.

    Call it once, at import, beside the lock: ``renew_lock(globals(), "_lock")`` (pass
    ``threading.RLock`` for a re-entrant one). Code keeps reading the module global, so
    it finds the child's lock.
    """
    _LOCKS.append((namespace, name, factory))


_LOCK_TYPES = {type(threading.Lock()): threading.Lock, type(threading.RLock()): threading.RLock}


def renew_lock_attrs(obj: object) -> None:
    """Replace every lock held in ``obj``'s attributes with a new one of its kind.

    For a third-party object's private locks (``prometheus_client``'s, jinja2's template
    cache), found by type rather than by name; called from an ``after_fork()``.
    """
    attrs = getattr(obj, "__dict__", None)
    if not attrs:
        return
    for name, value in list(attrs.items()):
        new = _LOCK_TYPES.get(type(value))
        if new is not None:
            setattr(obj, name, new())


def in_child(fn: F) -> F:
    """Register ``fn()`` to run in every forked child (usable as a decorator)."""
    _HOOKS.append(fn)
    return fn


def track(obj: object) -> None:
    """Call ``obj.after_fork()`` in forked children while ``obj`` is alive (weakly held)."""
    _TRACKED.add(obj)


def untrack(obj: object) -> None:
    """Stop telling ``obj`` about forks (e.g. once it is closed)."""
    _TRACKED.discard(obj)


def registered_locks() -> list[tuple[str, str]]:
    """``(module, name)`` of every lock renewed in the child (for tests)."""
    return [(str(ns.get("__name__", "?")), name) for ns, name, _ in _LOCKS]


def _run_in_child() -> None:
    for namespace, name, factory in _LOCKS:
        try:
            namespace[name] = factory()
        except Exception as exc:  # in the child, before user code runs: log and go on
            log.warning("could not renew %s after fork: %s", name, exc)
    for hook in list(_HOOKS):
        try:
            hook()
        except Exception as exc:
            log.warning("a fork hook (%s) failed in the child: %s", hook, exc)
    for obj in list(_TRACKED):
        try:
            obj.after_fork()
        except Exception as exc:
            log.warning("could not reset %r after fork: %s", obj, exc)


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_run_in_child)
