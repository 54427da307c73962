"""Fixtures for the LangChain adapter tests: a fast in-memory core (hashing embedder)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lc_support import START

from shared_core import AsyncUserMemory, UserMemory
from shared_core.clock import FakeClock
from shared_core.embed import HashingEmbedder


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def core(clock: FakeClock) -> Iterator[UserMemory]:
    mem = UserMemory.from_url("sqlite:///:memory:", embedder=HashingEmbedder(), clock=clock)
    yield mem
    mem.close()


@pytest.fixture
def acore(core: UserMemory) -> AsyncUserMemory:
    return AsyncUserMemory.wrap(core)
