"""Forced interleavings for race tests: hold one store call of instance A until
instance B has finished something (an erase, a revocation), then let A go on."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from shared_core import UserMemory
from shared_core.storage.protocols import RecordFilter, WriteBatch

__all__ = ["Gate", "GatedRecords", "GatedSessions", "bounded", "nothing_left", "race"]


class Gate:
    """Wraps a real store; holds the next call of ``method`` (once armed) until released."""

    def __init__(self, inner: Any, method: str) -> None:
        self.inner = inner
        self.method = method
        self.armed = False
        self.reached = threading.Event()
        self.release = threading.Event()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name != self.method:
            return attr

        def held(*a: Any, **kw: Any) -> Any:
            if self.armed:
                self.armed = False
                self.reached.set()
                assert self.release.wait(30)
            return attr(*a, **kw)

        return held


class GatedRecords(Gate):
    """A record store whose next ``apply`` (the commit) is held."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "apply")

    def apply(self, batch: WriteBatch) -> None:
        self.__getattr__("apply")(batch)


class GatedSessions(Gate):
    """A session store whose next ``append`` (after the records' commit) is held."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "append")

    def append(self, *a: Any, **kw: Any) -> None:
        self.__getattr__("append")(*a, **kw)


def race(gate: Gate, writer: Callable[[], Any], other: Callable[[], Any]) -> dict[str, Any]:
    """Run ``writer`` until it reaches ``gate``, run ``other`` to completion, release.

    Returns ``{"result" or "error": writer's outcome, "other": other's result}``.
    """
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["result"] = writer()
        except BaseException as exc:
            out["error"] = exc

    gate.armed = True
    t = threading.Thread(target=run)
    t.start()
    try:
        assert gate.reached.wait(30), "the writer never reached the gate"
        out["other"] = other()
    finally:
        gate.release.set()
        t.join(60)
    assert not t.is_alive()
    return out


def nothing_left(mem: UserMemory, user: str) -> None:
    """Nothing of ``user`` is readable through ``mem``."""
    flt = RecordFilter(user_id=user, system_context=None, statuses=None)
    assert mem.records.find(flt) == []
    assert mem.records.user_state(user) is None
    assert mem.sessions.sessions(user) == []
    assert mem.profile(user) == {}
    assert user not in mem.users()


def bounded(fn: Callable[[], Any], budget: float) -> tuple[Any, float]:
    """Run ``fn`` in a thread; fail (instead of hanging the suite) past ``budget`` s.

    Returns ``(fn's result or the exception it raised, seconds it took)``.
    """
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["v"] = fn()
        except BaseException as exc:
            out["e"] = exc

    t0 = time.monotonic()
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(budget)
    assert not t.is_alive(), f"blocked for more than {budget} s on a hung server"
    return out.get("e", out.get("v")), time.monotonic() - t0
