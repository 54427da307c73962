"""Erase wins and Redis cannot hang or go stale: Redis + PostgreSQL, two app instances.

Issue 16 items 1, 6 and 7, on real servers: a private ``redis-server`` on a spare port
(started, SIGSTOPped and stopped by PID by this module) and PostgreSQL.

- The erase/observe race with two instances and a forced interleaving (instance A's
  observe held at its commit, or after it at the session write, while B runs ``forget``).
- An outage seen by ONE instance: A reaches Redis through a TCP proxy the test cuts; A's
  invalidations and A's ``forget`` cannot reach Redis, yet B never serves the replaced
  profile or the erased session, A's ``forget`` says the erase is pending, and B (not A)
  completes it from the durable queue once Redis is reachable.
- A SIGSTOPped Redis: the first call pays one socket timeout, the breaker opens, and the
  following calls do not touch Redis.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from contract.race import GatedRecords, GatedSessions, bounded, nothing_left, race
from contract_env import _drop_schema
from test_failures import RedisProcess

from shared_core import ChangeAction, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.errors import BackendError
from shared_core.metrics import Metrics
from shared_core.storage import StorageSpec
from shared_core.storage.postgres import open_postgres
from shared_core.storage.protocols import RecordFilter
from shared_core.storage.redis import RedisKeys, RedisSessionStore

pytestmark = pytest.mark.integration


class Proxy:
    """A TCP forwarder to Redis that the test can cut (an outage only one client sees)."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.up = True
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            server = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.conns += [client, server]
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.close()

    def cut(self) -> None:
        self.up = False
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.listener.close()


@pytest.fixture
def redis_process(tmp_path: Path) -> Iterator[RedisProcess]:
    """A private redis-server on a spare port, stopped by PID afterwards."""
    proc = RedisProcess(tmp_path)
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture
def schema_url(pg_url: str) -> Iterator[str]:
    schema = f"fence_{uuid.uuid4().hex[:10]}"
    yield f"{pg_url}{'&' if '?' in pg_url else '?'}schema={schema}"
    _drop_schema(pg_url, schema)


def _instance(
    pg: str,
    redis_url: str,
    *,
    metrics: Metrics | None = None,
    probe_interval: float = 0.0,
    records: Any = None,
    sessions: Any = None,
) -> UserMemory:
    """One app instance: PostgreSQL records, Redis sessions/cache/events, resilient."""
    spec = StorageSpec(
        records=records if records is not None else pg,
        vectors="sqlite:///:memory:",
        sessions=sessions if sessions is not None else redis_url,
        cache=redis_url,
        events=redis_url,
        resilient=True,
        probe_interval=probe_interval,
    )
    return UserMemory(spec, metrics=metrics or Metrics(), embedder=HashingEmbedder())


def _keys_of(client: Any, user: str) -> list[str]:
    tag = RedisKeys().tag(user)
    return sorted(k for k in client.scan_iter(match="*") if tag in k)


def _stream_users(client: Any) -> set[str]:
    return {f.get("user_id", "") for _, f in client.xrange("memory.update")}


# --------------------------------------------------------------------------- the race
@pytest.mark.parametrize("gate_at", ["commit", "session_write"])
def test_forget_racing_observe_on_two_instances(
    schema_url: str, redis_process: RedisProcess, gate_at: str
) -> None:
    gates: dict[str, Any] = {
        "commit": GatedRecords(open_postgres(schema_url)),
        "session_write": GatedSessions(RedisSessionStore(redis_process.url)),
    }
    a = _instance(
        schema_url,
        redis_process.url,
        records=gates["commit"],
        sessions=gates["session_write"],
    )
    b = _instance(schema_url, redis_process.url)
    probe = redis.Redis(port=redis_process.port, decode_responses=True)
    try:
        a.observe("u", "I live in Berlin.", session_id="s1")
        assert b.profile("u") == {"location.city": "Berlin"}  # cached in Redis by B
        out = race(
            gates[gate_at],
            lambda: a.observe("u", "Actually I live in Paris now.", session_id="s1"),
            lambda: b.forget("u"),
        )
        assert "error" not in out, out
        assert [c.action for c in out["result"]] == [ChangeAction.IGNORED]
        assert set(out["other"]) >= {"records.records", "sessions", "cache", "events"}
        for mem in (a, b):
            nothing_left(mem, "u")
            assert mem.session_turns("u", "s1") == []
            assert mem.history("u", "location.city") == []
        assert _keys_of(probe, "u") == []  # no session or (empty) cache key came back
        assert "u" not in _stream_users(probe)
    finally:
        probe.close()
        a.close()
        b.close()


# --------------------------------------------------------------------------- concurrent writers
def test_two_instances_eight_threads_one_user_exact_counts(
    schema_url: str, redis_process: RedisProcess
) -> None:
    instances = [_instance(schema_url, redis_process.url) for _ in range(2)]
    per_thread, errors = 6, []

    def worker(mem: UserMemory, i: int) -> None:
        try:
            for j in range(per_thread):
                mem.observe("u", "Never call me.", session_id=f"s{i}", turn_id=f"t{i}.{j}")
                mem.remember("u", f"thread.{i}", str(j))
        except BaseException as exc:
            errors.append(exc)

    threads = [
        threading.Thread(target=worker, args=(instances[i % 2], i)) for i in range(8)
    ]  # 4 threads on each instance: in-process locks and the cross-instance fence
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert errors == []
        state = instances[0].records.user_state("u")
        assert state is not None
        assert (state.turns, state.sessions) == (8 * per_thread, 8)
        (rule,) = instances[1].records.find(RecordFilter(user_id="u", keys=("contact.call",)))
        assert rule.evidence == 8 * per_thread
        for i in range(8):
            assert len(instances[1].history("u", f"thread.{i}")) == per_thread
    finally:
        for mem in instances:
            mem.close()


# --------------------------------------------------------------------------- one-sided outage
@dataclass
class Outage:
    """Instance A reaches Redis through a proxy the test can cut; B directly."""

    proxy: Proxy
    a: UserMemory
    b: UserMemory
    probe: Any


@pytest.fixture
def outage(schema_url: str, redis_process: RedisProcess) -> Iterator[Outage]:
    proxy = Proxy(redis_process.port)
    a = _instance(schema_url, f"redis://127.0.0.1:{proxy.port}/0")
    b = _instance(schema_url, redis_process.url)
    probe = redis.Redis(port=redis_process.port, decode_responses=True)
    yield Outage(proxy, a, b, probe)
    probe.close()
    a.close()
    b.close()
    proxy.close()


def test_outage_seen_by_one_instance_serves_nothing_stale_or_erased(outage: Outage) -> None:
    proxy, a, b, probe = outage.proxy, outage.a, outage.b, outage.probe
    a.remember("u", "contact.channel", "email")
    assert b.profile("u") == {"contact.channel": "email"}  # B caches it in Redis
    a.observe("v", "I live in Berlin.", session_id="s1")  # v's session is in Redis
    assert [t.text for t in b.session_turns("v", "s1")] == ["I live in Berlin."]

    proxy.cut()  # only A loses Redis
    a.remember("u", "contact.channel", "sms")  # A cannot invalidate B's cached entry
    assert b.profile("u") == {"contact.channel": "sms"}  # B tells the entry is stale

    with pytest.raises(BackendError, match="queued durably"):
        a.forget("v")  # honest: sessions, cache and events have not confirmed
    assert _keys_of(probe, "v")  # v's session is still in Redis ...
    assert b.session_turns("v", "s1") == []  # ... but no instance can read it
    assert b.sessions.sessions("v") == []
    assert b.profile("v") == {}
    pending = {store for user, store in b.records.pending_erasures() if user == "v"}  # type: ignore[attr-defined]
    assert pending == {"sessions", "cache", "events"}

    a.close()  # A never comes back: the queue is durable, B finishes the erase
    assert b.complete_erasures() == 3
    assert b.records.pending_erasures() == []  # type: ignore[attr-defined]
    assert _keys_of(probe, "v") == []
    assert "v" not in _stream_users(probe)
    assert b.profile("v") == {}  # a read after forget creates no cache key
    assert _keys_of(probe, "v") == []
    assert b.profile("u") == {"contact.channel": "sms"}


def test_late_queued_session_erasure_keeps_sessions_started_after_the_erase(outage: Outage) -> None:
    proxy, a, b, probe = outage.proxy, outage.a, outage.b, outage.probe
    a.observe("v", "I live in Berlin.", session_id="s1")
    assert b.complete_erasures() == 0  # B's writes retry the queue only every few s
    proxy.cut()
    with pytest.raises(BackendError, match="queued durably"):
        a.forget("v")  # A cannot reach Redis: the sessions' erasure is queued
    b.observe("v", "I love jazz.", session_id="s2")  # v is back, on B, during the outage
    keys_before = _keys_of(probe, "v")
    assert b.complete_erasures() == 3
    assert b.sessions.sessions("v") == ["s2"]
    assert [t.text for t in b.session_turns("v", "s2")] == ["I love jazz."]
    assert b.session_turns("v", "s1") == []
    assert len(_keys_of(probe, "v")) < len(keys_before)  # s1's session was deleted


# --------------------------------------------------------------------------- hung Redis
def _timed(fn: Callable[[], Any], budget: float) -> tuple[Any, float]:
    """:func:`bounded`, re-raising what ``fn`` raised."""
    value, elapsed = bounded(fn, budget)
    if isinstance(value, BaseException):
        raise value
    return value, elapsed


def test_sigstopped_redis_trips_the_breaker(schema_url: str, redis_process: RedisProcess) -> None:
    metrics = Metrics()
    url = f"{redis_process.url}?socket_timeout=3"  # well above any call that skips Redis
    mem = _instance(schema_url, url, metrics=metrics, probe_interval=60)
    assert redis_process.proc is not None
    pid = redis_process.proc.pid
    try:
        mem.observe("u", "I live in Berlin.", session_id="s1")
        assert mem.profile("u") == {"location.city": "Berlin"}
        os.kill(pid, signal.SIGSTOP)
        try:
            # the first call waits for one socket timeout (3 s), then the breaker opens
            changes, first = _timed(
                lambda: mem.observe("u", "My budget is 5000.", session_id="s1"), 15
            )
            assert first >= 3
            assert any(c.key == "budget.max" for c in changes)
            for fn in (
                lambda: mem.profile("u"),
                lambda: mem.observe("u", "I love jazz.", session_id="s1"),
                lambda: mem.recall("u", "budget", k=2),
                lambda: mem.session_turns("u", "s1"),
                lambda: mem.context("u", "what is my budget?"),
            ):
                _, elapsed = _timed(fn, 10)
                assert elapsed < 2.5  # under one socket timeout: Redis is not called
            assert mem.profile("u")["budget.max"] == "5000"
            assert metrics.value("backend_degraded_total", backend="sessions+cache+events") == 1
        finally:
            os.kill(pid, signal.SIGCONT)
    finally:
        mem.close()
