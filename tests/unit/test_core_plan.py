"""One plan of core calls, run from sync code (run_plan) and async code (arun_plan)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from shared_core import (
    AsyncUserMemory,
    InvalidIdError,
    Plan,
    UserMemory,
    arun_plan,
    core_call,
    run_plan,
)
from shared_core.embed import HashingEmbedder


def _observe_then_profile(user_id: str) -> Plan[dict[str, str]]:
    yield core_call("observe", user_id, "Never call me, text me instead.", session_id="s1")
    profile: dict[str, str] = yield core_call("profile", user_id)
    return profile


def _recover(user_id: str) -> Plan[str]:
    """A plan that handles the core's error at the ``yield`` and goes on."""
    with contextlib.suppress(InvalidIdError):  # thrown into the plan at its yield
        yield core_call("observe", "", "the empty user id is refused")
    turns = yield core_call("session_turns", user_id, "s1")
    return "recovered" if not turns else "unexpected"


def _mem() -> UserMemory:
    return UserMemory("sqlite:///:memory:", embedder=HashingEmbedder())


def test_the_same_plan_runs_on_a_sync_and_an_async_core() -> None:
    sync_profile = run_plan(_mem(), _observe_then_profile("u1"))
    amem = AsyncUserMemory.from_url("sqlite:///:memory:", embedder=HashingEmbedder())

    async def main() -> dict[str, str]:
        try:
            return await arun_plan(amem, _observe_then_profile("u1"))
        finally:
            await amem.aclose()

    async_profile = asyncio.run(main())
    assert sync_profile and sync_profile == async_profile


def test_a_call_error_is_raised_in_the_plan_which_may_handle_it() -> None:
    mem = _mem()
    assert run_plan(mem, _recover("u1")) == "recovered"
    assert asyncio.run(arun_plan(mem, _recover("u1"))) == "recovered"


def test_an_error_the_plan_does_not_handle_propagates() -> None:
    mem = _mem()
    with pytest.raises(InvalidIdError):
        run_plan(mem, _observe_then_profile(""))
    with pytest.raises(InvalidIdError):
        asyncio.run(arun_plan(mem, _observe_then_profile("")))
    assert mem.users() == []
