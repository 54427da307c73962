"""A queued session erasure that completes late deletes only what existed at the erase.

``forget`` while the session store is unreachable queues the sessions' erasure durably;
the user comes back and starts a new session before the store confirms. Completing the
queued erasure must delete the sessions from before the erase, not the new one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.errors import BackendError, BackendUnavailableError
from shared_core.storage import StorageSpec
from shared_core.storage.session import InMemorySessionStore
from shared_core.storage.sqlite import SqliteRecordStore


class Switchable:
    """A real session store that can be made unreachable."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.down = False

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def call(*a: Any, **kw: Any) -> Any:
            if self.down:
                raise BackendUnavailableError("session store down")
            return attr(*a, **kw)

        return call


@pytest.fixture
def mem_and_sessions(tmp_path: Path) -> Any:
    inner = InMemorySessionStore(1800)
    sessions = Switchable(inner)
    spec = StorageSpec(
        records=f"sqlite:///{tmp_path / 'm.db'}", vectors="sqlite:///:memory:", sessions=sessions
    )
    mem = UserMemory(spec, embedder=HashingEmbedder())
    yield mem, sessions, inner
    mem.close()


def test_late_queued_erasure_keeps_sessions_started_after_the_erase(mem_and_sessions: Any) -> None:
    mem, sessions, inner = mem_and_sessions
    mem.observe("v", "I live in Berlin.", session_id="s1")
    sessions.down = True
    with pytest.raises(BackendError):
        mem.forget("v")  # records erased, the sessions' erasure queued
    sessions.down = False
    assert mem.session_turns("v", "s1") == []  # unreachable at once (older epoch)
    mem.observe("v", "I love jazz.", session_id="s2")  # the user is back, new session
    assert mem.complete_erasures() == 1
    assert [t.text for t in mem.session_turns("v", "s2")] == ["I love jazz."]
    assert mem.sessions.sessions("v") == ["s2"]
    assert [sid.split("~")[-1] for sid in inner.sessions("v")] == ["s2"]  # s1 deleted


def test_erasure_with_nothing_newer_sweeps_the_user(mem_and_sessions: Any) -> None:
    mem, _, inner = mem_and_sessions
    mem.observe("v", "I live in Berlin.", session_id="s1")
    mem.observe("v", "I love jazz.", session_id="s2")
    assert mem.forget("v")["sessions"] == 2
    assert inner.sessions("v") == []


def test_erasure_while_the_record_store_is_down_still_clears_sessions(tmp_path: Path) -> None:
    records = Switchable(SqliteRecordStore(tmp_path / "r.db"))
    inner = InMemorySessionStore(1800)
    spec = StorageSpec(records=records, vectors="sqlite:///:memory:", sessions=inner)
    mem = UserMemory(spec, embedder=HashingEmbedder())
    try:
        mem.observe("v", "I live in Berlin.", session_id="s1")
        records.down = True
        with pytest.raises(BackendError):
            mem.forget("v")  # the records cannot be erased (nor fenced) ...
        assert inner.sessions("v") == []  # ... but the sessions it could reach are gone
    finally:
        records.down = False
        mem.close()
