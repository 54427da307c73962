"""One body for a sync method and its async twin: a plan of core calls, run either way.

An adapter method that calls the core (read the session turns, then the context;
observe a conversation, and on a rejected turn observe the others one by one) is
written once, as a generator that yields :class:`CoreCall` values. :func:`run_plan`
(sync code) and :func:`arun_plan` (async code) make each call through
:class:`~shared_core.CoreBridge` and send its result back into the generator, or raise
its exception at the ``yield``, so the plan handles errors with ordinary ``try``.

Example::

    def _load(self, user_id: str, query: str) -> Plan[str]:
        turns = yield core_call("session_turns", user_id, self.session_id)
        block = yield core_call("context", user_id, query, token_budget=200)
        return render(block, turns)

    def load(self, user_id, query):
        return run_plan(self.memory, self._load(user_id, query))

    async def aload(self, user_id, query):
        return await arun_plan(self.memory, self._load(user_id, query))
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .aio import CoreBridge

__all__ = ["CoreCall", "Plan", "arun_plan", "core_call", "run_plan"]

T = TypeVar("T")

Plan = Generator["CoreCall", Any, T]
"""A generator that yields core calls, receives their results and returns ``T``."""


@dataclass(frozen=True, slots=True)
class CoreCall:
    """``core.<method>(*args, **kwargs)``, to be made by :func:`run_plan` / :func:`arun_plan`."""

    method: str
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)


def core_call(method: str, /, *args: Any, **kwargs: Any) -> CoreCall:
    """The :class:`CoreCall` ``core.<method>(*args, **kwargs)``."""
    return CoreCall(method, args, kwargs)


class _Step:
    """The outcome of the last call (a result or an exception), fed back into the plan."""

    __slots__ = ("error", "value")

    def __init__(self, value: Any = None, error: BaseException | None = None) -> None:
        self.value, self.error = value, error

    @classmethod
    def of(cls, fn: Callable[..., Any], call: CoreCall) -> _Step:
        """The outcome of ``fn(call.method, *call.args, **call.kwargs)``."""
        try:
            return cls(fn(call.method, *call.args, **call.kwargs))
        except BaseException as exc:  # handed to the plan, which may handle it
            return cls(error=exc)

    def advance(self, plan: Plan[Any]) -> CoreCall | None:
        """Resume ``plan`` with this outcome: its next call, or ``None`` when it returned
        (the return value is then in ``self.value``)."""
        try:
            return plan.throw(self.error) if self.error is not None else plan.send(self.value)
        except StopIteration as stop:
            self.value, self.error = stop.value, None
            return None


def _bridge(core: Any) -> CoreBridge:
    return core if isinstance(core, CoreBridge) else CoreBridge(core)


def run_plan(core: Any, plan: Plan[T]) -> T:
    """Run ``plan`` from sync code, each call through :meth:`CoreBridge.call`.

    Args:
        core: a ``UserMemory``, ``AsyncUserMemory``, server client or ``CoreBridge``.
        plan: the generator (not yet started).

    Returns:
        What the plan returns; an exception the plan does not handle propagates.
    """
    bridge, step = _bridge(core), _Step()
    while (call := step.advance(plan)) is not None:
        step = _Step.of(bridge.call, call)
    return step.value  # type: ignore[no-any-return]


async def arun_plan(core: Any, plan: Plan[T]) -> T:
    """:func:`run_plan` from async code, each call through :meth:`CoreBridge.acall`
    (an ``AsyncUserMemory`` is awaited natively, a sync core runs in a worker thread)."""
    bridge, step = _bridge(core), _Step()
    while (call := step.advance(plan)) is not None:
        try:
            step = _Step(await bridge.acall(call.method, *call.args, **call.kwargs))
        except BaseException as exc:  # handed to the plan, which may handle it
            step = _Step(error=exc)
    return step.value  # type: ignore[no-any-return]
