from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from shared_core import FakeClock, UserMemory
from shared_core.embed import HashingEmbedder


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 4, 1, 9, 0, tzinfo=UTC))


@pytest.fixture
def mem(clock: FakeClock) -> Iterator[UserMemory]:
    m = UserMemory.from_url("sqlite:///:memory:", clock=clock, embedder=HashingEmbedder())
    yield m
    m.close()
