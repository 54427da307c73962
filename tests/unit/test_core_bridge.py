"""The one bridge both adapters use to call the core from sync and async code."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from shared_core import AsyncUserMemory, CoreBridge, InvalidInputError, UserMemory, run_sync
from shared_core.embed import HashingEmbedder


def _mem() -> UserMemory:
    return UserMemory("sqlite:///:memory:", embedder=HashingEmbedder())


class AsyncOnly:
    """An async-only core (no ``.sync`` twin) that records the threads it ran on."""

    def __init__(self, inner: AsyncUserMemory) -> None:
        self._inner = inner
        self.threads: set[int] = set()

    async def observe(self, *args: Any, **kwargs: Any) -> Any:
        self.threads.add(threading.get_ident())
        return await self._inner.observe(*args, **kwargs)

    async def profile(self, *args: Any, **kwargs: Any) -> Any:
        self.threads.add(threading.get_ident())
        return await self._inner.profile(*args, **kwargs)


def test_sync_core_called_directly_and_off_the_loop_from_async() -> None:
    mem = _mem()
    bridge = CoreBridge(mem)
    assert not bridge.is_async and not bridge.uses_private_loop
    bridge.call("observe", "u1", "Never call me, text me instead.")
    caller = threading.get_ident()

    async def main() -> dict[str, str]:
        seen: list[int] = []
        real = mem.profile

        def spy(*a: Any, **kw: Any) -> dict[str, str]:
            seen.append(threading.get_ident())
            return real(*a, **kw)

        mem.profile = spy  # type: ignore[method-assign]
        got: dict[str, str] = await bridge.acall("profile", "u1")
        assert seen and seen[0] != caller  # ran in a worker thread, the loop stayed free
        return got

    assert asyncio.run(main())["contact.call"] == "never"
    mem.close()


def test_async_core_uses_its_sync_twin_from_sync_code() -> None:
    amem = AsyncUserMemory.wrap(_mem())
    bridge = CoreBridge(amem)
    assert bridge.is_async and not bridge.uses_private_loop

    async def inside_a_running_loop() -> None:
        bridge.call("observe", "u1", "My budget is 5000.")  # sync call, loop running
        assert (await bridge.acall("profile", "u1"))["budget.max"] == "5000"

    asyncio.run(inside_a_running_loop())
    amem.sync.close()


def test_async_only_core_runs_on_one_private_loop() -> None:
    inner = AsyncUserMemory.wrap(_mem())
    core = AsyncOnly(inner)
    bridge = CoreBridge(core)
    assert bridge.uses_private_loop
    bridge.call("observe", "u1", "I'm allergic to penicillin.")

    async def main() -> dict[str, str]:
        got: dict[str, str] = await bridge.acall("profile", "u1")
        return got

    assert asyncio.run(main())
    assert len(core.threads) == 1 and threading.get_ident() not in core.threads
    inner.sync.close()


def test_bridge_refuses_none_and_run_sync_works_in_a_loop() -> None:
    with pytest.raises(InvalidInputError):
        CoreBridge(None)

    async def seven() -> int:
        return 7

    async def main() -> int:
        return int(run_sync(seven()))  # from inside a running loop

    assert run_sync(seven()) == 7
    assert asyncio.run(main()) == 7
