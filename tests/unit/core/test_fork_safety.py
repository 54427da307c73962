"""After ``os.fork()`` the child's inherited memory works, and nothing the parent owns is
touched: its SQLite connection, its buffered read entries, its locks, its flush thread.

Every test forks for real (``tests/forking.py``: the child reports through its exit code,
a hung child is killed after a deadline). Linux's default ``multiprocessing`` start
method on Python 3.11 is ``fork``; one test uses it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared_core import AsyncUserMemory, MemoryConfig, UserMemory
from shared_core.embed import CallableEmbedder, HashingEmbedder
from shared_core.errors import BackendUnavailableError
from tests.forking import PASSED, in_child, start_child, wait_child

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")

FLUSHER = "read-audit flush"  # the background flush thread's name


def open_memory(url: str, **config: Any) -> UserMemory:
    return UserMemory(url, embedder=HashingEmbedder(), config=MemoryConfig(**config))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def mem(db_path: Path) -> Iterator[UserMemory]:
    m = open_memory(f"sqlite:///{db_path}", audit_read_batch=64)
    yield m
    m.close()


def reads(mem: UserMemory, user_id: str) -> int:
    """Read entries of ``user_id`` in the store (not flushing the buffer first)."""
    return sum(e.action == "read" for e in mem.records.audit_log(user_id))


def integrity(db_path: Path) -> str:
    with sqlite3.connect(db_path) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def test_child_writes_a_sqlite_file_and_the_parent_keeps_reading_and_writing(
    mem: UserMemory, db_path: Path
) -> None:
    mem.observe("u", "I live in Berlin.")

    def child() -> None:
        mem.observe("u", "My budget is 5000.")
        assert mem.profile("u") == {"location.city": "Berlin", "budget.max": "5000"}
        recalled = {s.record.key for s in mem.recall("u", "where do I live and my budget")}
        assert {"location.city", "budget.max"} <= recalled
        mem.close()

    assert in_child(child) == PASSED
    assert mem.profile("u") == {"location.city": "Berlin", "budget.max": "5000"}
    mem.observe("u", "I work at Acme.")
    assert mem.profile("u")["job.employer"] == "Acme"
    mem.close()
    assert integrity(db_path) == "ok"
    with open_memory(f"sqlite:///{db_path}") as again:
        assert set(again.profile("u")) == {"location.city", "budget.max", "job.employer"}


def test_parent_closing_first_loses_none_of_the_childs_later_writes(
    mem: UserMemory, db_path: Path
) -> None:
    """While an inherited SQLite handle stays open, a connection the child opens takes no
    file locks (SQLite's lock bookkeeping is per process, and was copied): the parent's
    close would then checkpoint and delete the WAL under the child's later commits."""
    mem.observe("u", "I live in Berlin.")
    to_child_r, to_child_w = os.pipe()
    to_parent_r, to_parent_w = os.pipe()

    def child() -> None:
        os.close(to_child_w)
        mem.observe("u", "My budget is 5000.")  # the child's own connection is open now
        os.write(to_parent_w, b"1")
        assert os.read(to_child_r, 1) == b"1"  # the parent has closed its memory
        mem.observe("u", "I work at Acme.")
        assert mem.profile("u")["job.employer"] == "Acme"
        # no close: a worker may end without one (a checkpoint on close would hide it)

    pid = start_child(child)
    os.close(to_parent_w)
    os.close(to_child_r)
    try:
        assert os.read(to_parent_r, 1) == b"1"
        mem.close()
    finally:
        os.write(to_child_w, b"1")
    assert wait_child(pid) == PASSED
    assert integrity(db_path) == "ok"
    with open_memory(f"sqlite:///{db_path}") as again:
        assert set(again.profile("u")) == {"location.city", "budget.max", "job.employer"}


def test_a_read_buffered_at_the_fork_is_written_once_by_the_parent(mem: UserMemory) -> None:
    mem.observe("u", "I live in Berlin.")
    mem.recall("u", "where do I live")
    assert len(mem.read_audit) == 1 and reads(mem, "u") == 0

    def child() -> None:
        assert len(mem.read_audit) == 0  # the parent's entry: the parent writes it
        mem.observe("u", "My budget is 5000.")  # a write: buffered reads ride along
        mem.flush_audit()  # and the final flush
        assert reads(mem, "u") == 0
        mem.close()

    assert in_child(child) == PASSED
    assert reads(mem, "u") == 0
    mem.flush_audit()
    assert reads(mem, "u") == 1


def test_the_child_flushes_in_the_background_though_the_parents_flush_was_running(
    db_path: Path,
) -> None:
    """The fork happens while the parent's background flush is mid-write: the child has
    no such thread, and must start its own when its buffer fills."""
    mem = open_memory(f"sqlite:///{db_path}", audit_read_batch=2)
    parent = os.getpid()
    entered, release = threading.Event(), threading.Event()
    apply = mem.records.apply

    def gated_apply(batch: Any) -> None:
        if os.getpid() == parent and threading.current_thread().name == FLUSHER:
            entered.set()
            assert release.wait(10)
        apply(batch)

    mem.records.apply = gated_apply  # type: ignore[method-assign]
    try:
        mem.observe("u", "I live in Berlin.")
        mem.recall("u", "where do I live")
        mem.recall("u", "where do I live")  # full: a background flush starts, and waits
        assert entered.wait(5)

        def child() -> None:
            mem.recall("u", "my city")
            mem.recall("u", "my city")  # full again: the child's own flush thread
            for t in threading.enumerate():
                if t.name == FLUSHER:
                    t.join(5)
            assert len(mem.read_audit) == 0
            assert reads(mem, "u") == 2  # the child's two; the parent's are in flight

        assert in_child(child) == PASSED
    finally:
        release.set()
    mem._audit_flusher.wait()
    assert reads(mem, "u") == 4
    mem.close()


def test_locks_a_parent_thread_held_at_the_fork_do_not_deadlock_the_child(
    db_path: Path,
) -> None:
    hashing = HashingEmbedder()
    embedder = CallableEmbedder(hashing.embed, dimension=hashing.dimension, name="cached")
    mem = UserMemory(f"sqlite:///{db_path}", embedder=embedder)
    mem.observe("u", "I live in Berlin.", session_id="s1")
    locks = [
        mem._user_locks("u"),
        mem._audit_lock,
        mem.read_audit._lock,
        mem._audit_flusher._lock,
        mem.sessions.inner._lock,  # type: ignore[attr-defined]
        mem.metrics._lock,
        embedder._cache_lock,
        embedder._model_lock,
    ]
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        for lock in locks:
            lock.acquire()
        held.set()
        release.wait(20)
        for lock in reversed(locks):
            lock.release()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(5)

        def child() -> None:
            mem.observe("u", "My budget is 5000.", session_id="s1")
            assert len(mem.session_turns("u", "s1")) == 2
            assert mem.recall("u", "budget")
            mem.flush_audit()
            assert mem.profile("u") == {"location.city": "Berlin", "budget.max": "5000"}
            mem.close()

        assert in_child(child, timeout=10) == PASSED
    finally:
        release.set()
        thread.join()
    assert mem.profile("u") == {"location.city": "Berlin", "budget.max": "5000"}
    mem.close()


def test_a_sqlite_connection_in_use_at_the_fork_fails_fast_in_the_child(
    mem: UserMemory,
) -> None:
    """A parent thread was inside the database at the fork: the inherited handle may be
    mid-call, so the child neither uses nor closes it, and says so at once."""
    mem.observe("u", "I live in Berlin.")
    db = mem.records.db  # type: ignore[attr-defined]
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with db.lock:
            held.set()
            release.wait(20)

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(5)

        def child() -> None:
            with pytest.raises(BackendUnavailableError, match="forked"):
                mem.remember("u", "diet", "vegetarian")
            mem.close()

        assert in_child(child, timeout=10) == PASSED
    finally:
        release.set()
        thread.join()
    mem.remember("u", "diet", "vegetarian")
    assert mem.profile("u")["diet"] == "vegetarian"


def test_an_in_memory_database_is_the_childs_own_copy() -> None:
    mem = open_memory("sqlite:///:memory:")
    mem.observe("u", "I live in Berlin.")

    def child() -> None:
        assert mem.profile("u") == {"location.city": "Berlin"}  # copied by the fork
        mem.observe("u", "My budget is 5000.")
        assert mem.profile("u") == {"location.city": "Berlin", "budget.max": "5000"}
        mem.close()

    assert in_child(child) == PASSED
    assert mem.profile("u") == {"location.city": "Berlin"}  # the child's write is its own
    mem.observe("u", "I work at Acme.")
    assert mem.profile("u") == {"location.city": "Berlin", "job.employer": "Acme"}
    mem.close()


def test_async_memory_works_in_the_child(db_path: Path) -> None:
    amem = AsyncUserMemory(f"sqlite:///{db_path}", embedder=HashingEmbedder())
    asyncio.run(amem.observe("u", "I live in Berlin."))

    def child() -> None:
        async def main() -> dict[str, str]:
            await amem.observe("u", "My budget is 5000.")
            profile = await amem.profile("u")
            await amem.aclose()
            return profile

        assert asyncio.run(main()) == {"location.city": "Berlin", "budget.max": "5000"}

    assert in_child(child) == PASSED
    assert asyncio.run(amem.profile("u")) == {"location.city": "Berlin", "budget.max": "5000"}
    asyncio.run(amem.aclose())


_SHARED: dict[str, UserMemory] = {}  # the memory a multiprocessing worker inherits


def _worker(n: int) -> None:
    mem = _SHARED["mem"]
    mem.remember("u", f"pet.{n}", f"cat {n}")
    assert mem.profile("u")[f"pet.{n}"] == f"cat {n}"
    mem.close()


@pytest.mark.skipif(sys.platform != "linux", reason="the fork start method")
def test_multiprocessing_fork_workers_write_concurrently(mem: UserMemory, db_path: Path) -> None:
    mem.observe("u", "I live in Berlin.")
    _SHARED["mem"] = mem
    try:
        ctx = multiprocessing.get_context("fork")
        procs = [ctx.Process(target=_worker, args=(n,)) for n in range(3)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(15)
        assert [p.exitcode for p in procs] == [0, 0, 0]
    finally:
        _SHARED.clear()
        for p in procs:
            if p.is_alive():
                p.kill()
    assert mem.profile("u") == {
        "location.city": "Berlin",
        **{f"pet.{n}": f"cat {n}" for n in range(3)},
    }
    mem.remember("u", "diet", "vegetarian")
    mem.close()
    assert integrity(db_path) == "ok"
