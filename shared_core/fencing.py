"""Erase wins, concurrent writers lose nothing: how the pipeline runs a write.

Every write of one user (``observe``, ``remember``, ``forget_key``, ``end_session``,
``set_memory_enabled``) runs through :func:`fenced_write`:

1. In this process, writes of one user run one at a time (:class:`UserLocks`, striped
   re-entrant locks), and ``forget`` takes the same lock.
2. Across processes and instances, the write reads the user's
   :class:`~shared_core.storage.protocols.Fence` first and commits with
   ``WriteBatch.expect``: the store checks it inside the write transaction and bumps it,
   so a write computed from data that another writer (or an erase) has since changed
   raises :class:`~shared_core.errors.ConflictError` in the store. The write is then
   recomputed from fresh data, up to :data:`WRITE_ATTEMPTS` times with jittered backoff;
   only an exhausted budget reaches the caller (as ``ConflictError``).
3. If the fence's erasure epoch moved, the user was erased while the write ran: it is
   dropped (the erase wins), never retried into the fresh, erased user.

Stores that cannot fence (a custom ``RecordStore`` without
:class:`~shared_core.storage.protocols.FencedStore`) get (1) only.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import ConflictError, UserMemoryError
from .storage.fenced import fence_scope
from .storage.protocols import Fence, FencedStore, WriteBatch

if TYPE_CHECKING:
    from ._base import MemoryBase

__all__ = [
    "WRITE_ATTEMPTS",
    "UserLocks",
    "commit_fenced",
    "fenced_write",
    "retry_erasures",
    "store_fence",
]

T = TypeVar("T")

#: Attempts of one write before ``ConflictError`` reaches the caller.
WRITE_ATTEMPTS = 50
_BACKOFF_CAP = 0.05  # seconds


class UserLocks:
    """Striped re-entrant locks: one user's writes in this process run one at a time."""

    def __init__(self, stripes: int = 256) -> None:
        self._locks = [threading.RLock() for _ in range(stripes)]

    def __call__(self, user_id: str) -> threading.RLock:
        """The lock of ``user_id``'s stripe."""
        return self._locks[hash(user_id) % len(self._locks)]


class _Stale(Exception):
    """The store refused the batch: recompute from fresh data."""


def store_fence(mem: MemoryBase, user_id: str) -> Fence | None:
    """The user's fence, or ``None`` when the record store cannot fence."""
    store = mem.records
    return store.fence(user_id) if isinstance(store, FencedStore) else None


def commit_fenced(mem: MemoryBase, batch: WriteBatch, user_id: str, fence: Fence | None) -> None:
    """Commit ``batch`` only if the user's fence is still ``fence`` (see module docs)."""
    batch.expect = fence
    try:
        mem._commit(batch, user_id)
    except ConflictError as exc:
        raise _Stale(str(exc)) from exc


def fenced_write(
    mem: MemoryBase,
    user_id: str,
    op: Callable[[Fence | None], T],
    *,
    on_erased: Callable[[], T],
) -> T:
    """Run ``op(fence)`` under the user's lock until its :func:`commit_fenced` succeeds.

    ``op`` must read everything it writes after it is called (it may run again) and
    commit through :func:`commit_fenced`. Returns ``on_erased()`` when the user was
    erased while ``op`` ran.

    Raises:
        ConflictError: the store refused ``WRITE_ATTEMPTS`` recomputed writes in a row.
    """
    last: Exception | None = None
    with mem._user_locks(user_id):
        first: Fence | None = None
        for attempt in range(WRITE_ATTEMPTS):
            fence = store_fence(mem, user_id)
            if first is None:
                first = fence
            elif fence is not None and fence.epoch != first.epoch:
                return on_erased()
            scope = fence_scope(fence) if fence is not None else contextlib.nullcontext()
            try:
                with scope:
                    return op(fence)
            except _Stale as exc:
                last = exc
                mem.metrics.inc("write_retries")
                time.sleep(random.uniform(0, min(_BACKOFF_CAP, 0.001 * 2**attempt)))
        raise ConflictError(
            f"the user's data kept changing under {WRITE_ATTEMPTS} attempts of this write;"
            f" nothing was written ({last})"
        )


def erased_since(mem: MemoryBase, fence: Fence | None) -> bool:
    """Whether the user of ``fence`` was erased after it was read."""
    if fence is None:
        return False
    now = store_fence(mem, fence.user_id)
    return now is not None and now.epoch != fence.epoch


_STORE_NAMES = ("vectors", "sessions", "cache", "events")


def erasure_targets(mem: MemoryBase) -> dict[str, Any]:
    """The stores besides the records that ``forget`` erases, by name."""
    return {
        "vectors": mem.vectors,
        "sessions": mem.sessions,
        "cache": mem.cache,
        "events": mem.events,
    }


def retry_erasures(mem: MemoryBase, *, force: bool = False, every: float = 5.0) -> int:
    """Deliver queued erasures to the stores that owe them; return how many confirmed.

    Without ``force``, checks the durable queue at most every ``every`` seconds (the
    write path calls this on every write). A store that still fails stays queued.
    """
    store = mem.records
    if not isinstance(store, FencedStore):
        return 0
    now = time.monotonic()
    if not force and now - mem._erasures_checked < every:
        return 0
    mem._erasures_checked = now
    try:
        pending = store.pending_erasures()
    except UserMemoryError:
        return 0
    targets = erasure_targets(mem)
    done = 0
    for user_id, name in pending:
        target = targets.get(name)
        try:
            if target is not None:
                with mem._user_locks(user_id):
                    target.delete_user(user_id)
            store.confirm_erasure(user_id, name)
        except UserMemoryError:
            continue
        done += 1
    return done
