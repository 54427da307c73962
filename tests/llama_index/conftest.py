"""Fixtures for the LlamaIndex adapter tests: a fast in-memory core and a recording LLM."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from li_support import START, RecordingLLM

from shared_core import UserMemory
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
def llm() -> RecordingLLM:
    return RecordingLLM()
