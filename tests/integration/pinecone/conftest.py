"""Fixtures for the Pinecone backend: an in-process Pinecone EMULATOR (not Pinecone).

The emulator (``tests/pinecone_emulator.py``) runs on loopback in this process, so these
tests need no external server and run in CI without skipping.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

_ROOT = Path(__file__).resolve().parents[3]
if str(_ROOT) not in sys.path:  # make ``tests.pinecone_emulator`` importable under any runner
    sys.path.insert(0, str(_ROOT))

from shared_core.storage.pinecone import PineconeVectorIndex  # noqa: E402
from tests.pinecone_emulator import PineconeEmulator  # noqa: E402

EMULATOR_API_KEY = "usermemory-emulator-key"
DIM = 8


@pytest.fixture(scope="session")
def pinecone_emulator() -> Iterator[PineconeEmulator]:
    """One emulator (control plane + one server per index) for the whole session."""
    with PineconeEmulator(api_key=EMULATOR_API_KEY) as emu:
        yield emu


@pytest.fixture
def emulator(pinecone_emulator: PineconeEmulator) -> Iterator[PineconeEmulator]:
    """The session emulator with per-test settings reset afterwards."""
    pinecone_emulator.reset_requests()
    yield pinecone_emulator
    pinecone_emulator.delete_by_filter_supported = True
    pinecone_emulator.clear_failures()


@pytest.fixture
def pinecone_api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    """Sets PINECONE_API_KEY to the emulator's key (the SDK requires a key)."""
    monkeypatch.setenv("PINECONE_API_KEY", EMULATOR_API_KEY)
    return EMULATOR_API_KEY


@pytest.fixture
def index_name(emulator: PineconeEmulator) -> Iterator[str]:
    """A fresh index name; the index is dropped from the emulator after the test."""
    name = f"um-{uuid.uuid4().hex[:16]}"
    yield name
    emulator.drop_index(name)


@pytest.fixture
def pinecone_url(emulator: PineconeEmulator, index_name: str, pinecone_api_key: str) -> str:
    """``pinecone://`` URL of a fresh index on the emulator (dimension 8, namespace "test")."""
    return (
        f"pinecone://{index_name}?namespace=test&host={emulator.control_host}"
        f"&cloud=aws&region=us-east-1&dimension={DIM}"
    )


@pytest.fixture
def make_pinecone_index(
    emulator: PineconeEmulator, pinecone_api_key: str
) -> Iterator[Callable[..., PineconeVectorIndex]]:
    """Factory: ``make(dimension=8, **kwargs)`` opens a fresh index on the emulator."""
    opened: list[PineconeVectorIndex] = []
    names: list[str] = []

    def make(**kwargs: Any) -> PineconeVectorIndex:
        name = kwargs.pop("index_name", None) or f"um-{uuid.uuid4().hex[:16]}"
        names.append(name)
        kwargs.setdefault("dimension", DIM)
        kwargs.setdefault("namespace", "test")
        idx = PineconeVectorIndex(name, host=emulator.control_host, **kwargs)
        opened.append(idx)
        return idx

    yield make
    for idx in opened:
        idx.close()
    for name in names:
        emulator.drop_index(name)


@pytest.fixture
def pinecone_index(pinecone_url: str) -> Iterator[PineconeVectorIndex]:
    """A connected :class:`PineconeVectorIndex` on a fresh emulated index."""
    idx = PineconeVectorIndex.from_url(pinecone_url)
    yield idx
    idx.close()
