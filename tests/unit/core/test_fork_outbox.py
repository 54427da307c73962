"""The vector outbox after ``os.fork()`` follows the core's rule for an inherited SQLite
connection (``sqlite_base.leave_inherited``): idle, the child closes its handle and opens
one of its own on the same file; busy, the handle is left alone and the child queues in
memory. The child calls ``after_fork()`` itself, as its ``UserMemory`` would."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shared_core.entities import Kind
from shared_core.errors import BackendUnavailableError
from shared_core.storage.outbox import OutboxVectorIndex
from shared_core.storage.protocols import VectorItem
from shared_core.storage.vectors import SqliteVectorIndex
from tests.forking import PASSED, held_by_a_thread, in_child

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")


class Down:
    """A vector index that is down: every write raises (so the outbox queues)."""

    def __init__(self) -> None:
        self.inner = SqliteVectorIndex(":memory:")

    def __getattr__(self, name: str) -> Any:
        if name in ("upsert", "delete", "delete_user"):

            def fail(*a: Any, **kw: Any) -> None:
                raise BackendUnavailableError("down")

            return fail
        return getattr(self.inner, name)


def item(rid: str) -> VectorItem:
    v = np.random.default_rng(len(rid)).standard_normal(16).astype(np.float32)
    return VectorItem(
        record_id=rid, user_id="zq-7", system_context="default", kind=Kind.FACT, key="k", vector=v
    )


def queued(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM vector_outbox").fetchone()[0])


def test_an_idle_outbox_opens_its_own_connection_on_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "outbox.db"
    idx = OutboxVectorIndex(Down(), path, probe_interval=3600)
    idx.upsert([item("a")])
    inherited = idx._db

    def child() -> None:
        idx.after_fork()
        assert idx._db is not inherited and idx.path == str(path)
        idx.upsert([item("bb")])
        assert idx.pending() == 2  # the parent's queued write and the child's, one file

    assert in_child(child) == PASSED
    assert idx._db is inherited and idx.pending() == 2  # the parent sees the child's
    idx.close()
    assert queued(path) == 2


def test_an_outbox_in_use_at_the_fork_queues_in_memory_in_the_child(tmp_path: Path) -> None:
    path = tmp_path / "outbox.db"
    idx = OutboxVectorIndex(Down(), path, probe_interval=3600)
    idx.upsert([item("a")])

    def child() -> None:
        idx.after_fork()
        assert idx.path == ":memory:"
        idx.upsert([item("bb")])
        assert idx.pending() == 1  # its own queue, not the file

    with held_by_a_thread(idx._lock):
        code = in_child(child)
    assert code == PASSED
    assert idx.pending() == 1
    idx.close()
    assert queued(path) == 1
