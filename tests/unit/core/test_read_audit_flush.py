"""The read audit's full-buffer flush runs off the recall's thread, and loses nothing:
closing writes what is buffered, and an erase stays final while a flush is in flight."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from shared_core import FakeClock, MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.metrics import Metrics

FLUSHER = "read-audit flush"  # the background flush thread's name


@pytest.fixture
def gated(clock: FakeClock) -> Iterator[tuple[UserMemory, threading.Event, threading.Event]]:
    """A memory whose audit-only writes (the read flushes) wait for ``release``."""
    mem = UserMemory.from_url(
        "sqlite:///:memory:",
        clock=clock,
        embedder=HashingEmbedder(),
        config=MemoryConfig(audit_read_batch=2),
    )
    entered, release = threading.Event(), threading.Event()
    apply = mem.records.apply

    def gated_apply(batch: Any) -> None:
        if batch.audit and not batch.records and threading.current_thread().name == FLUSHER:
            entered.set()
            assert release.wait(10)
        apply(batch)

    mem.records.apply = gated_apply  # type: ignore[method-assign]
    yield mem, entered, release
    release.set()
    mem.close()


def _reads(mem: UserMemory, user: str) -> int:
    return sum(a.action == "read" for a in mem.audit_log(user))


def test_the_recall_that_fills_the_buffer_does_not_wait_for_its_write(gated) -> None:
    mem, entered, release = gated
    mem.observe("u", "My budget is 5000.")
    mem.recall("u", "budget")
    mem.recall("u", "budget")  # fills the buffer (2): returns while the flush is held
    assert entered.wait(5)
    assert not release.is_set()
    mem.recall("u", "budget")  # a third read while the flush is in flight is buffered
    release.set()
    mem.close()  # waits for the flush, then writes the rest
    assert len(mem.read_audit) == 0


def test_every_read_is_written_once(gated) -> None:
    mem, _entered, release = gated
    release.set()
    mem.observe("u", "My budget is 5000.")
    for _ in range(7):
        mem.recall("u", "budget")
    assert _reads(mem, "u") == 7  # audit_log waits for the flush in flight, then flushes


def test_an_erase_during_an_inflight_flush_stays_final(gated) -> None:
    mem, entered, release = gated
    mem.observe("u", "My budget is 5000.")
    mem.recall("u", "budget")
    mem.recall("u", "budget")
    assert entered.wait(5)  # the flush has taken u's reads and is about to commit them
    done = threading.Event()
    forgetting = threading.Thread(target=lambda: (mem.forget("u"), done.set()))
    forgetting.start()
    assert not done.wait(0.3)  # the erase waits for the flush that holds u's reads
    release.set()
    forgetting.join(10)
    assert done.is_set()
    mem.flush_audit()
    assert "u" not in mem.users()
    assert _reads(mem, "u") == 0


def test_write_through_stays_on_the_callers_thread(clock: FakeClock) -> None:
    mem = UserMemory.from_url(
        "sqlite:///:memory:",
        clock=clock,
        embedder=HashingEmbedder(),
        config=MemoryConfig(audit_read_batch=1),
    )
    mem.observe("u", "My budget is 5000.")
    mem.recall("u", "budget")
    assert len(mem.read_audit) == 0  # written before recall returned
    assert mem.records.audit_log("u")[-1].action == "read"
    mem.close()


def test_another_instances_buffered_reads_do_not_ride_a_write_past_an_erase(
    clock: FakeClock, tmp_path: Path
) -> None:
    """Instance A buffered a read of ``u``; instance B erases ``u``; A then writes ``u``
    again (a new life for the id). The stale read must not ride that write into the log:
    it names the erased records."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    a, b = (
        UserMemory.from_url(
            url, clock=clock, embedder=HashingEmbedder(), config=MemoryConfig(audit_read_batch=64)
        )
        for _ in range(2)
    )
    try:
        a.observe("u", "My budget is 5000.")
        erased = {s.record.id for s in a.recall("u", "budget")}
        assert erased and len(a.read_audit) == 1  # buffered in A, not written
        clock.advance(timedelta(seconds=1))
        b.forget("u")
        clock.advance(timedelta(seconds=1))
        a.observe("u", "I live in Berlin.")
        log = b.audit_log("u")
        assert [e for e in log if e.action == "read"] == []
        assert not any(erased & set(e.detail.get("record_ids", ())) for e in log)
        assert any(e.action == "create" for e in log)  # the new write itself is logged
    finally:
        a.close()
        b.close()


_EXIT_WITHOUT_CLOSE = """
import sys
from shared_core import MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.metrics import Metrics
m = UserMemory.from_url(sys.argv[1], embedder=HashingEmbedder(),
                        config=MemoryConfig(audit_read_batch=4))
m.observe("u", "My budget is 5000.")
for _ in range(4):
    m.recall("u", "budget")  # the 4th fills the buffer: its flush is under way at exit
"""


def test_a_full_buffer_is_written_when_the_interpreter_exits_without_close(
    tmp_path: Path,
) -> None:
    """The background flush of a full buffer finishes before the interpreter exits (as the
    write on the recall's thread did before the flush moved off it)."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    root = Path(__file__).resolve().parents[3]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", _EXIT_WITHOUT_CLOSE, url], env=env, timeout=120, check=False
    )
    assert done.returncode == 0
    with UserMemory.from_url(url, embedder=HashingEmbedder()) as mem:
        assert _reads(mem, "u") == 4


def test_a_part_full_buffer_is_written_when_the_interpreter_exits_without_close(
    tmp_path: Path,
) -> None:
    """Reads still buffered (3 of a batch of 64, no flush due) are written at exit too."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    root = Path(__file__).resolve().parents[3]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    script = _EXIT_WITHOUT_CLOSE.replace("audit_read_batch=4", "audit_read_batch=64").replace(
        "range(4)", "range(3)"
    )
    done = subprocess.run([sys.executable, "-c", script, url], env=env, timeout=120, check=False)
    assert done.returncode == 0
    with UserMemory.from_url(url, embedder=HashingEmbedder()) as mem:
        assert _reads(mem, "u") == 3


def test_an_erase_during_a_write_that_carries_the_users_reads_stays_final(
    clock: FakeClock,
) -> None:
    """Buffered reads of ``u`` ride along with a write of another user ``v``; ``forget("u")``
    while that write is in flight must not let them be written after the erase."""
    mem = UserMemory.from_url(
        "sqlite:///:memory:",
        clock=clock,
        embedder=HashingEmbedder(),
        config=MemoryConfig(audit_read_batch=64),
    )
    entered, release = threading.Event(), threading.Event()
    apply = mem.records.apply

    def gated_apply(batch: Any) -> None:
        if batch.records and any(a.user_id == "u" and a.action == "read" for a in batch.audit):
            entered.set()
            assert release.wait(10)
        apply(batch)

    mem.records.apply = gated_apply  # type: ignore[method-assign]
    try:
        mem.observe("u", "My budget is 5000.")
        assert mem.recall("u", "budget") and len(mem.read_audit) == 1
        writing = threading.Thread(target=mem.observe, args=("v", "I live in Berlin."))
        writing.start()
        assert entered.wait(5)  # v's write has taken u's read and is about to commit it
        done = threading.Event()
        forgetting = threading.Thread(target=lambda: (mem.forget("u"), done.set()))
        forgetting.start()
        done.wait(0.3)
        release.set()
        writing.join(10)
        forgetting.join(10)
        assert done.is_set()
        mem.flush_audit()
        assert "u" not in mem.users()
        assert _reads(mem, "u") == 0
        assert "v" in mem.users()
    finally:
        release.set()
        mem.close()


class _HeldRecall(Metrics):
    """Holds a recall on ``held`` threads after it read the records, before its audit."""

    def __init__(self) -> None:
        super().__init__()
        self.held: set[int] = set()
        self.entered, self.release = threading.Event(), threading.Event()

    def inc(self, name: str, n: float = 1, **labels: str) -> None:
        if name == "recall" and threading.get_ident() in self.held:
            self.entered.set()
            assert self.release.wait(10)
        super().inc(name, n, **labels)


def test_a_recall_in_flight_across_an_erase_leaves_no_read_of_the_erased_user(
    clock: FakeClock,
) -> None:
    """A recall read ``u``'s records, then ``forget("u")`` ran to the end, then the recall
    finished: its read (of records now erased) must not be buffered and written."""
    metrics = _HeldRecall()
    mem = UserMemory.from_url(
        "sqlite:///:memory:",
        clock=clock,
        embedder=HashingEmbedder(),
        metrics=metrics,
        config=MemoryConfig(audit_read_batch=64),
    )
    try:
        mem.observe("u", "My budget is 5000.")
        got: list[Any] = []

        def recall() -> None:
            metrics.held.add(threading.get_ident())
            got.extend(mem.recall("u", "budget"))

        reading = threading.Thread(target=recall)
        reading.start()
        assert metrics.entered.wait(5)  # u's records are read; the audit entry is next
        mem.forget("u")
        metrics.release.set()
        reading.join(10)
        assert got  # the recall saw u's records (read before the erase)
        assert len(mem.read_audit) == 0
        mem.observe("v", "I live in Berlin.")  # a write: buffered reads would ride along
        mem.flush_audit()
        assert "u" not in mem.users()
        assert _reads(mem, "u") == 0
    finally:
        metrics.release.set()
        mem.close()


def test_an_erase_dates_itself_when_it_runs_not_when_forget_was_called(
    clock: FakeClock, tmp_path: Path
) -> None:
    """B's ``forget("u")`` waits for B's own write of ``u``; meanwhile A (another instance on
    the same file) recalls ``u``. A's read started before the erase ran, so the store must
    cut it, which it can only do if the erasure is dated when it ran."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    held = _HeldRecall()
    a = UserMemory.from_url(
        url,
        clock=clock,
        embedder=HashingEmbedder(),
        metrics=held,
        config=MemoryConfig(audit_read_batch=64),
    )
    b = UserMemory.from_url(url, clock=clock, embedder=HashingEmbedder())
    entered, release = threading.Event(), threading.Event()
    apply = b.records.apply

    def gated_apply(batch: Any) -> None:  # B's write of u waits, holding u's lock
        if batch.records and threading.current_thread().name == "b-write":
            entered.set()
            assert release.wait(10)
        apply(batch)

    b.records.apply = gated_apply  # type: ignore[method-assign]
    try:
        a.observe("u", "My budget is 5000.")
        writing = threading.Thread(
            target=b.observe, args=("u", "I live in Berlin."), name="b-write"
        )
        writing.start()
        assert entered.wait(5)
        forgetting = threading.Thread(target=b.forget, args=("u",))
        forgetting.start()  # reads the clock, then waits for u's lock
        forgetting.join(0.3)
        clock.advance(timedelta(seconds=1))
        got: list[Any] = []

        def recall() -> None:
            held.held.add(threading.get_ident())
            got.extend(a.recall("u", "budget"))

        reading = threading.Thread(target=recall)
        reading.start()
        assert held.entered.wait(5)  # A read u's records before the erase ran
        clock.advance(timedelta(seconds=1))
        release.set()
        writing.join(10)
        forgetting.join(10)
        assert not forgetting.is_alive()
        held.release.set()
        reading.join(10)
        assert got
        a.flush_audit()
        assert "u" not in b.users()
        assert _reads(b, "u") == 0
    finally:
        release.set()
        held.release.set()
        a.close()
        b.close()
