"""The read-audit buffer while the store keeps failing: bounded, backing off, and whole
again once the store is back (nothing kept is lost, what overflowed is counted)."""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from shared_core import FakeClock, MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.entities import AuditEntry
from shared_core.errors import BackendUnavailableError, ConfigError
from shared_core.ingest.persist import ReadAuditBuffer

AT = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def _entry(user: str = "u") -> AuditEntry:
    return AuditEntry(user_id=user, action="read", key="budget", at=AT)


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_failed_write_backs_off_and_the_back_off_doubles() -> None:
    clock = _Clock()
    buf = ReadAuditBuffer(clock=clock)
    assert buf.add(_entry(), 2) is False
    assert buf.add(_entry(), 2) is True  # full: due
    taken = buf.take()
    buf.restore(taken)  # the write failed
    assert buf.add(_entry(), 2) is False  # full, but backing off (0.5 s)
    clock.now += 0.6
    assert buf.add(_entry(), 2) is True
    buf.restore(buf.take())  # failed again: 1 s now
    clock.now += 0.6
    assert buf.add(_entry(), 2) is False
    clock.now += 0.5
    assert buf.add(_entry(), 2) is True
    buf.done(buf.take())  # the store is back: no back-off any more
    buf.add(_entry(), 2)
    assert buf.add(_entry(), 2) is True


def test_the_back_off_is_capped_at_thirty_seconds() -> None:
    clock = _Clock()
    buf = ReadAuditBuffer(clock=clock)
    for _ in range(12):
        buf.add(_entry(), 1)
        buf.restore(buf.take())
    clock.now += 30.01
    buf.add(_entry(), 2)
    assert buf.add(_entry(), 2) is True


def test_write_through_never_backs_off() -> None:
    buf = ReadAuditBuffer(clock=_Clock())
    buf.add(_entry(), 1)
    buf.restore(buf.take())
    assert buf.add(_entry(), 1) is True  # each read's write is attempted (and raised)


def test_the_buffer_keeps_the_newest_entries_and_reports_the_rest() -> None:
    dropped: list[int] = []
    buf = ReadAuditBuffer(3, on_overflow=dropped.append, clock=_Clock())
    entries = [_entry(f"u{n}") for n in range(5)]
    for e in entries[:3]:
        buf.add(e, 64)
    taken = buf.take()
    for e in entries[3:]:
        buf.add(e, 64)
    buf.restore(taken)  # restored in front, then trimmed from the front (the oldest)
    assert [e.user_id for e in buf.take()] == ["u2", "u3", "u4"]
    assert sum(dropped) == 2


@pytest.fixture
def failing(clock: FakeClock) -> Any:
    """A memory whose audit-only writes fail until ``store_back`` is set."""
    mem = UserMemory.from_url(
        "sqlite:///:memory:",
        clock=clock,
        embedder=HashingEmbedder(),
        config=MemoryConfig(audit_read_batch=2, audit_read_max_pending=5),
    )
    store_back = threading.Event()
    attempts: list[int] = []
    apply = mem.records.apply

    def flaky_apply(batch: Any) -> None:
        if batch.audit and not batch.records and not store_back.is_set():
            attempts.append(len(batch.audit))
            raise BackendUnavailableError("record store down (test)")
        apply(batch)

    mem.records.apply = flaky_apply  # type: ignore[method-assign]
    yield mem, store_back, attempts
    store_back.set()
    mem.close()


def test_an_outage_keeps_the_buffer_bounded_and_counts_what_it_dropped(
    failing: Any, caplog: pytest.LogCaptureFixture
) -> None:
    mem, store_back, attempts = failing
    mem.observe("u", "My budget is 5000.")
    with caplog.at_level(logging.WARNING, logger="shared_core._base"):
        for _ in range(40):
            mem.recall("u", "budget")
        mem._audit_flusher.wait()  # the background flush that failed has ended
    assert len(mem.read_audit) <= 5
    assert mem.metrics.value("read_audit_dropped_total") == 40 - len(mem.read_audit)
    assert attempts  # the store was tried ...
    assert len(attempts) < 40  # ... but not once per read
    overflow_logs = [r for r in caplog.records if "read-audit buffer full" in r.getMessage()]
    assert len(overflow_logs) == 1  # logged once, not once per dropped read
    store_back.set()
    kept = len(mem.read_audit)
    mem.flush_audit()
    assert sum(a.action == "read" for a in mem.audit_log("u")) == kept
    assert len(mem.read_audit) == 0


def test_a_write_after_the_outage_carries_the_kept_reads(failing: Any) -> None:
    mem, store_back, _attempts = failing
    mem.observe("u", "My budget is 5000.")
    for _ in range(3):
        mem.recall("u", "budget")
    mem._audit_flusher.wait()
    kept = len(mem.read_audit)
    assert kept == 3  # under the bound: nothing dropped
    store_back.set()
    mem.observe("u", "I live in Berlin.")  # the next write takes them along
    assert sum(a.action == "read" for a in mem.records.audit_log("u")) == 3


@pytest.mark.parametrize("bad", [0, -5, "100", 1.5, True, None, "x" * 10_000])
def test_the_bound_is_validated(bad: Any) -> None:
    with pytest.raises(ConfigError):
        MemoryConfig(audit_read_max_pending=bad)


def test_the_bound_from_the_environment_is_validated() -> None:
    assert (
        MemoryConfig.from_env({"USERMEMORY_AUDIT_READ_MAX_PENDING": "7"}).audit_read_max_pending
        == 7
    )
    with pytest.raises(ConfigError):
        MemoryConfig.from_env({"USERMEMORY_AUDIT_READ_MAX_PENDING": "lots"})
