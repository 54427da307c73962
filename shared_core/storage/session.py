"""In-process short-term session memory with a sliding TTL.

:class:`InMemorySessionStore` keeps, per ``(user_id, session_id)``, the session's turns, a
small JSON-able state dict and the device id. A session expires ``ttl_seconds`` after its
last *write* (``append``, ``mark_written``, ``set_state``); reads do not extend it. Expired
sessions are dropped lazily when touched and by a sweep that runs on writes at most once
every ``sweep_interval`` seconds. All methods are thread-safe; time comes from the
injected :class:`~shared_core.clock.Clock`.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from ..clock import Clock, SystemClock
from ..entities import SessionTurn
from ..errors import InvalidInputError, NotFoundError

__all__ = ["InMemorySessionStore"]


@dataclass(slots=True)
class _Session:
    last_active: datetime
    device_id: str | None = None
    turns: list[SessionTurn] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)


class InMemorySessionStore:
    """:class:`~shared_core.storage.protocols.SessionStore` held in this process.

    Args:
        ttl_seconds: a session expires this long after its last write.
        clock: time source (use :class:`~shared_core.clock.FakeClock` in tests).
        max_turns: turns kept per session (the oldest are dropped beyond it).
        sweep_interval: at most one full expiry sweep per this many seconds of writes.
    """

    def __init__(
        self,
        ttl_seconds: float = 1800,
        *,
        clock: Clock | None = None,
        max_turns: int = 500,
        sweep_interval: float = 60.0,
    ) -> None:
        if ttl_seconds <= 0:
            raise InvalidInputError("ttl_seconds must be positive")
        if max_turns < 1:
            raise InvalidInputError("max_turns must be >= 1")
        self.ttl = timedelta(seconds=ttl_seconds)
        self.clock: Clock = clock or SystemClock()
        self.max_turns = max_turns
        self._sweep_every = timedelta(seconds=sweep_interval)
        self._sessions: dict[tuple[str, str], _Session] = {}
        self._by_user: dict[str, dict[str, None]] = {}  # insertion-ordered session ids
        self._lock = threading.RLock()
        self._last_sweep = self.clock.now()

    def after_fork(self) -> None:
        """In a forked child: a new lock. The child keeps a copy of the sessions (this
        store lives in one process: from the fork on, each process has its own)."""
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ helpers
    def _expired(self, s: _Session, now: datetime) -> bool:
        return now - s.last_active >= self.ttl

    def _remove(self, user_id: str, session_id: str) -> _Session | None:
        s = self._sessions.pop((user_id, session_id), None)
        ids = self._by_user.get(user_id)
        if ids is not None:
            ids.pop(session_id, None)
            if not ids:
                del self._by_user[user_id]
        return s

    def _live(self, user_id: str, session_id: str) -> _Session | None:
        s = self._sessions.get((user_id, session_id))
        if s is not None and self._expired(s, self.clock.now()):
            self._remove(user_id, session_id)
            return None
        return s

    def _touch(self, user_id: str, session_id: str, device_id: str | None = None) -> _Session:
        now = self.clock.now()
        if now - self._last_sweep >= self._sweep_every:
            self.sweep()
        s = self._live(user_id, session_id)
        if s is None:
            s = _Session(last_active=now, device_id=device_id)
            self._sessions[(user_id, session_id)] = s
            self._by_user.setdefault(user_id, {})[session_id] = None
        s.last_active = now
        if device_id is not None:
            s.device_id = device_id
        return s

    # ------------------------------------------------------------------ protocol
    def append(
        self, user_id: str, session_id: str, turn: SessionTurn, *, device_id: str | None = None
    ) -> None:
        """Add a turn to the session (creating it) and refresh its TTL."""
        if not isinstance(turn, SessionTurn):
            raise InvalidInputError(f"expected SessionTurn, got {type(turn).__name__}")
        with self._lock:
            s = self._touch(user_id, session_id, device_id)
            s.turns.append(turn)
            if len(s.turns) > self.max_turns:
                del s.turns[: len(s.turns) - self.max_turns]

    def turns(
        self, user_id: str, session_id: str, *, limit: int | None = None
    ) -> list[SessionTurn]:
        """The live session's turns, oldest first (the last ``limit`` if given)."""
        with self._lock:
            s = self._live(user_id, session_id)
            if s is None:
                return []
            if limit is not None:
                return list(s.turns[-limit:]) if limit > 0 else []
            return list(s.turns)

    def mark_written(
        self, user_id: str, session_id: str, turn_id: str, record_ids: Sequence[str]
    ) -> None:
        """Record which memory records ``turn_id`` wrote (appended to earlier ones).

        Raises:
            NotFoundError: no live session has that turn.
        """
        with self._lock:
            s = self._live(user_id, session_id)
            if s is not None:
                for i in range(len(s.turns) - 1, -1, -1):
                    t = s.turns[i]
                    if t.turn_id == turn_id:
                        written = tuple(dict.fromkeys((*t.written, *record_ids)))
                        s.turns[i] = replace(t, written=written)
                        self._touch(user_id, session_id)
                        return
            raise NotFoundError(f"turn {turn_id!r} is not in a live session {session_id!r}")

    def get_state(self, user_id: str, session_id: str) -> Mapping[str, Any]:
        """A copy of the session's state dict (empty if none or expired)."""
        with self._lock:
            s = self._live(user_id, session_id)
            return copy.deepcopy(s.state) if s is not None else {}

    def set_state(self, user_id: str, session_id: str, state: Mapping[str, Any]) -> None:
        """Replace the session's state (must be JSON-serialisable) and refresh the TTL."""
        snapshot = _snapshot(state)
        with self._lock:
            self._touch(user_id, session_id).state = snapshot

    def update_state(
        self,
        user_id: str,
        session_id: str,
        fn: Callable[[dict[str, Any]], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Replace the state with ``fn(state)`` under the store's lock; return a copy of it."""
        with self._lock:
            s = self._live(user_id, session_id)
            snapshot = _snapshot(fn(copy.deepcopy(s.state) if s is not None else {}))
            self._touch(user_id, session_id).state = snapshot
            return copy.deepcopy(snapshot)

    def device_id(self, user_id: str, session_id: str) -> str | None:
        """The device the session was last seen on, if any."""
        with self._lock:
            s = self._live(user_id, session_id)
            return s.device_id if s is not None else None

    def end(self, user_id: str, session_id: str) -> list[SessionTurn]:
        """Drop the session; return its turns (empty if unknown or expired)."""
        with self._lock:
            s = self._live(user_id, session_id)
            if s is None:
                return []
            self._remove(user_id, session_id)
            return list(s.turns)

    def sessions(self, user_id: str) -> list[str]:
        """Live session ids of the user, oldest first."""
        with self._lock:
            ids = list(self._by_user.get(user_id, {}))
            return [sid for sid in ids if self._live(user_id, sid) is not None]

    def delete_user(self, user_id: str) -> int:
        """Drop every session of the user (live or expired); return how many."""
        with self._lock:
            ids = list(self._by_user.get(user_id, {}))
            for sid in ids:
                self._remove(user_id, sid)
            return len(ids)

    def sweep(self) -> int:
        """Drop every expired session now; return how many."""
        with self._lock:
            now = self.clock.now()
            self._last_sweep = now
            dead = [k for k, s in self._sessions.items() if self._expired(s, now)]
            for user_id, session_id in dead:
                self._remove(user_id, session_id)
            return len(dead)

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def close(self) -> None:
        """Forget every session."""
        with self._lock:
            self._sessions.clear()
            self._by_user.clear()


def _snapshot(state: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON round-tripped copy of ``state`` (what a server store would keep)."""
    if not isinstance(state, Mapping):
        raise InvalidInputError(f"session state must be a mapping, got {type(state).__name__}")
    try:
        snapshot: dict[str, Any] = json.loads(json.dumps(dict(state)))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"session state must be JSON-serialisable: {exc}") from exc
    return snapshot
