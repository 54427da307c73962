"""Session and profile-cache wrappers that can tell data written before an erase or a
later write, whatever happened to the network in between.

The durable record store keeps a per-user fence (:class:`~.protocols.Fence`: ``epoch``
counts erasures, ``gen`` every committed write). Stores outside its transactions (Redis,
another process's memory) can miss an erase or an invalidation during an outage, so:

- :class:`FencedSessionStore` keeps each user's sessions in a namespace of the current
  epoch (session id ``"<epoch>~<id>"`` inside the wrapped store; at epoch 0 the id itself,
  so sessions written before this wrapper keep working, unless it already looks like
  ``"<digits>~..."``, which is namespaced too, so no two ids collide). After an erase,
  sessions written before it are unreachable from every instance even if their deletion
  has not reached the store yet; the queued erasure deletes them later (and the TTL
  expires them).
- :class:`FencedProfileCache` stores each cached profile with the ``epoch.gen`` it was
  computed at and serves it only while the fence still has that value: an invalidation
  that never reached Redis (instance A's outage) cannot make instance B serve a stale or
  erased profile. Empty profiles are not cached (a read after ``forget`` leaves no key).

Both read the fence from the record store, one primary-key lookup per call, unless the
calling pipeline step already holds it (:func:`fence_scope`, set by the write path).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..entities import SessionTurn
from ..errors import BackendUnavailableError, UserMemoryError
from .protocols import Fence, ProfileCache, SessionStore

__all__ = [
    "FencedProfileCache",
    "FencedSessionStore",
    "current_fence",
    "epoch_session_id",
    "fence_scope",
    "split_session_id",
]

_SCOPE: contextvars.ContextVar[Mapping[str, Fence]] = contextvars.ContextVar(
    "usermemory_fence_scope", default=MappingProxyType({})
)
_TAG = "\n"  # the cached profile's fence tag (keys never contain a line break)


@contextlib.contextmanager
def fence_scope(fence: Fence) -> Iterator[None]:
    """Within the block (this thread / task), the wrappers use ``fence`` for its user
    instead of reading the store again."""
    marks = dict(_SCOPE.get())
    marks[fence.user_id] = fence
    token = _SCOPE.set(MappingProxyType(marks))
    try:
        yield
    finally:
        _SCOPE.reset(token)


def current_fence(user_id: str) -> Fence | None:
    """The fence set by an enclosing :func:`fence_scope` for ``user_id``, if any."""
    return _SCOPE.get().get(user_id)


class _Fenced:
    def __init__(self, inner: Any, fence: Callable[[str], Fence]) -> None:
        self.inner = inner
        self._read_fence = fence

    def _fence(self, user_id: str) -> Fence:
        return current_fence(user_id) or self._read_fence(user_id)

    def __getattr__(self, name: str) -> Any:  # e.g. .keys, .degraded, .breaker
        return getattr(self.inner, name)

    def close(self) -> None:
        """Close the wrapped store."""
        self.inner.close()


_NAMESPACED = re.compile(r"(\d+)~(.*)\Z", re.DOTALL)


def epoch_session_id(session_id: str, epoch: int) -> str:
    """The id a session has inside the wrapped store at ``epoch``: ``"<epoch>~<id>"``, or
    the id itself at epoch 0 unless it looks namespaced (one mapping, no collisions)."""
    if epoch == 0 and not _NAMESPACED.match(session_id):
        return session_id
    return f"{epoch}~{session_id}"


def split_session_id(stored: str) -> tuple[int, str]:
    """Inverse of :func:`epoch_session_id`: ``(epoch, session id)``."""
    m = _NAMESPACED.match(stored)
    return (int(m.group(1)), m.group(2)) if m else (0, stored)


class FencedSessionStore(_Fenced):
    """A :class:`~.protocols.SessionStore` whose sessions live in the user's current epoch.

    Args:
        inner: the real session store (Redis, in-process, resilient, ...).
        fence: reads a user's :class:`~.protocols.Fence` from the durable store.
    """

    inner: SessionStore

    def _sid(self, user_id: str, session_id: str) -> str:
        return epoch_session_id(session_id, self._fence(user_id).epoch)

    def append(
        self, user_id: str, session_id: str, turn: SessionTurn, *, device_id: str | None = None
    ) -> None:
        """Add a turn to the session of the current epoch."""
        self.inner.append(user_id, self._sid(user_id, session_id), turn, device_id=device_id)

    def turns(
        self, user_id: str, session_id: str, *, limit: int | None = None
    ) -> list[SessionTurn]:
        """The session's turns (nothing written before the user's last erase)."""
        return self.inner.turns(user_id, self._sid(user_id, session_id), limit=limit)

    def mark_written(
        self, user_id: str, session_id: str, turn_id: str, record_ids: Sequence[str]
    ) -> None:
        """Remember which records a turn wrote."""
        self.inner.mark_written(user_id, self._sid(user_id, session_id), turn_id, record_ids)

    def get_state(self, user_id: str, session_id: str) -> Mapping[str, Any]:
        """The session's state (``{}`` for a session of an earlier epoch)."""
        return self.inner.get_state(user_id, self._sid(user_id, session_id))

    def set_state(self, user_id: str, session_id: str, state: Mapping[str, Any]) -> None:
        """Replace the session's state."""
        self.inner.set_state(user_id, self._sid(user_id, session_id), state)

    def update_state(
        self,
        user_id: str,
        session_id: str,
        fn: Callable[[dict[str, Any]], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Atomically replace the state with ``fn(state)`` (see the protocol)."""
        return self.inner.update_state(user_id, self._sid(user_id, session_id), fn)

    def end(self, user_id: str, session_id: str) -> list[SessionTurn]:
        """Drop the session of the current epoch and return its turns."""
        return self.inner.end(user_id, self._sid(user_id, session_id))

    def drop_epoch(self, user_id: str, session_id: str, epoch: int) -> None:
        """Drop the session as written at ``epoch`` (a write that lost a race to an erase)."""
        self.inner.end(user_id, epoch_session_id(session_id, epoch))

    def sessions(self, user_id: str) -> list[str]:
        """Live session ids of the user in the current epoch."""
        epoch = self._fence(user_id).epoch
        return [sid for e, sid in map(split_session_id, self.inner.sessions(user_id)) if e == epoch]

    def delete_user(self, user_id: str) -> int:
        """Drop the user's sessions from before the user's last erase.

        ``forget`` moves the epoch first, so this erases everything the erase covers. When
        it runs late (a queued erasure completed after an outage), sessions started after
        the erase, in the new epoch, are kept: the late erasure deletes only what existed
        when the user was erased. With no such session it sweeps the user's whole keyspace
        (:meth:`SessionStore.delete_user`, orphans included), and also when the fence
        cannot be read (the record store is down: everything reachable is erased).

        Raises:
            BackendUnavailableError: the store could not confirm the deletion (it is down,
                or a failure-handling wrapper is serving from its fallback).
        """
        try:
            epoch = self._fence(user_id).epoch
        except UserMemoryError:  # the record store is down: erase everything we can reach
            return self.inner.delete_user(user_id)
        stored = self.inner.sessions(user_id)
        if not any(split_session_id(sid)[0] >= epoch for sid in stored):
            return self.inner.delete_user(user_id)
        old = [sid for sid in stored if split_session_id(sid)[0] < epoch]
        for sid in old:
            self.inner.end(user_id, sid)
        if getattr(self.inner, "degraded", False):
            raise BackendUnavailableError(
                "session store unreachable: the erasure of sessions is pending"
            )
        return len(old)


class FencedProfileCache(_Fenced):
    """A :class:`~.protocols.ProfileCache` whose entries carry the fence they were
    computed at and are served only while it holds.

    Args:
        inner: the real cache (Redis, resilient, local, ...).
        fence: reads a user's :class:`~.protocols.Fence` from the durable store.
    """

    inner: ProfileCache

    def __init__(self, inner: ProfileCache, fence: Callable[[str], Fence]) -> None:
        super().__init__(inner, fence)
        self._seen: contextvars.ContextVar[Mapping[str, Fence]] = contextvars.ContextVar(
            f"usermemory_cache_fence_{id(self)}", default=MappingProxyType({})
        )

    @staticmethod
    def _tag(f: Fence) -> str:
        return f"{f.epoch}.{f.gen}"

    def get(self, user_id: str, system_context: str, scope_key: str = "") -> dict[str, str] | None:
        """The cached profile if it was computed at the user's current fence, else ``None``."""
        f = self._fence(user_id)
        marks = dict(self._seen.get())
        marks[user_id] = f  # the fence this context's next set() is computed at
        self._seen.set(MappingProxyType(marks))
        hit = self.inner.get(user_id, system_context, scope_key)
        if hit is None or hit.get(_TAG) != self._tag(f):
            return None
        return {k: v for k, v in hit.items() if k != _TAG}

    def set(
        self, user_id: str, system_context: str, profile: Mapping[str, str], scope_key: str = ""
    ) -> None:
        """Cache a non-empty profile, tagged with the fence seen by this context's miss."""
        f = self._seen.get().get(user_id)
        if not profile or f is None:
            return
        self.inner.set(user_id, system_context, {**profile, _TAG: self._tag(f)}, scope_key)

    def invalidate(self, user_id: str) -> None:
        """Drop the user's cached profiles (the fence already makes them unservable)."""
        self.inner.invalidate(user_id)

    def delete_user(self, user_id: str) -> int:
        """Erase the user's cache entries."""
        return self.inner.delete_user(user_id)
