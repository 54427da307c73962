"""Failure behaviour: Redis down and back, PostgreSQL restarts, vector store failing.

- Redis: a private ``redis-server`` on a spare port is killed and restarted under a
  running ``UserMemory``; observe/recall/profile keep working (degraded, counted) and the
  sessions written during the outage are in Redis once it is back.
- PostgreSQL: every pooled connection is terminated (PG 15), and the pgserver PG 16 is
  restarted with ``pg_ctl restart``; the pool reconnects and the next observe works.
- Vectors: the Pinecone emulator fails the upserts after the SQL write; the write is
  kept, queued in the durable outbox, replayed when the emulator answers, and recall
  finds it; without the outbox, ``UserMemory.reindex()`` repairs the index.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from contract_env import START, Env, Shared, _drop_schema, build_memory, unavailable

from shared_core import FakeClock, Status, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.metrics import Metrics
from shared_core.storage import StorageSpec
from shared_core.storage.outbox import OutboxVectorIndex
from shared_core.storage.postgres import PostgresRecordStore

pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisProcess:
    """A private redis-server that a test can stop and start again on the same port."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            unavailable("redis-server is not on PATH")
        self.binary = str(binary)
        self.workdir = workdir
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                if redis.Redis(port=self.port, socket_connect_timeout=0.2).ping():
                    return
            except redis.exceptions.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def redis_process(tmp_path: Path) -> Iterator[RedisProcess]:
    proc = RedisProcess(tmp_path)
    proc.start()
    yield proc
    proc.stop()


def _pg_env(url: str, name: str, clock: FakeClock) -> Env:
    e = Env(name=name, clock=clock, pg_url=url, schema=f"f_{uuid.uuid4().hex[:10]}")
    e.records = PostgresRecordStore(url, schema=str(e.schema), clock=clock, max_size=4)
    return e


@pytest.fixture
def pg_env(pg_url: str) -> Iterator[Env]:
    e = _pg_env(pg_url, "redis_pg", FakeClock(START))
    yield e
    assert e.records is not None
    e.records.close()
    _drop_schema(pg_url, str(e.schema))


def test_redis_down_degrades_and_resumes(
    pg_env: Env, redis_process: RedisProcess, tmp_path: Path
) -> None:
    metrics = Metrics()
    mem = build_memory(
        pg_env, tmp_path, prefix="f:", namespace="", metrics=metrics,
        probe_interval=0, redis_base=redis_process.url,
    )  # fmt: skip
    probe = redis.Redis(port=redis_process.port, decode_responses=True)
    try:
        mem.observe("u", "I live in Berlin.", session_id="s1")
        assert mem.profile("u")["location.city"] == "Berlin"  # cached in Redis now
        assert any(k.startswith("f:profile:") for k in probe.scan_iter("f:*"))

        redis_process.stop()
        changes = mem.observe("u", "My budget is 5000.", session_id="s1")
        assert any(c.key == "budget.max" for c in changes)
        assert mem.profile("u")["budget.max"] == "5000"  # no stale cache, durable store
        assert [r.record.key for r in mem.recall("u", "budget", k=1)] == ["budget.max"]
        assert [t.text for t in mem.session_turns("u", "s1")] == ["My budget is 5000."]
        for backend in ("sessions", "cache", "events"):  # store objects: one breaker each
            assert metrics.value("backend_degraded_total", backend=backend) == 1, backend
        mem.observe("u", "Actually, my budget is 7000 now.", session_id="s1")

        redis_process.start()  # with its data (AOF); the outage's turns are copied back
        turns = [t.text for t in mem.session_turns("u", "s1")]
        assert turns == [
            "I live in Berlin.",
            "My budget is 5000.",
            "Actually, my budget is 7000 now.",
        ]
        assert mem.sessions.degraded is False  # type: ignore[attr-defined]
        assert metrics.value("backend_recovered_total", backend="sessions") == 1
        assert probe.keys("f:session:*")  # served by Redis again
        assert mem.profile("u")["budget.max"] == "7000"
        mem.observe("u", "I love jazz.", session_id="s1")
        ch = mem.observe("u", "haha just kidding", session_id="s1")  # needs Redis' written ids
        assert any(c.key == "taste.jazz" and c.action.value == "revoked" for c in ch)
    finally:
        probe.close()
        mem.close()


def test_cache_never_serves_a_profile_from_before_an_outage_write(
    pg_env: Env, redis_process: RedisProcess, tmp_path: Path
) -> None:
    mem = build_memory(
        pg_env, tmp_path, prefix="g:", namespace="", metrics=Metrics(),
        probe_interval=0, redis_base=redis_process.url,
    )  # fmt: skip
    try:
        mem.remember("u", "contact.channel", "email")
        assert mem.profile("u")["contact.channel"] == "email"  # cached (and persisted by AOF)
        redis_process.stop()
        mem.remember("u", "contact.channel", "sms")  # the invalidation cannot be delivered
        assert mem.profile("u")["contact.channel"] == "sms"
        redis_process.start()  # the old cached profile is back in Redis ...
        probe = redis.Redis(port=redis_process.port, decode_responses=True)
        assert "email" in str([probe.hgetall(k) for k in probe.keys("g:profile:*")])
        probe.close()
        assert mem.profile("u")["contact.channel"] == "sms"  # ... but never served
    finally:
        mem.close()


def test_postgres_connections_killed_the_pool_reconnects(pg_env: Env, tmp_path: Path) -> None:
    mem = UserMemory(
        StorageSpec(records=Shared(pg_env.records)), clock=pg_env.clock,
        embedder=HashingEmbedder(),
    )  # fmt: skip
    assert pg_env.pg_url is not None
    mem.observe("u", "My budget is 5000.")
    with psycopg.connect(pg_env.pg_url, autocommit=True) as conn:
        killed = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = 'usermemory' AND datname = current_database()"
            " AND pid <> pg_backend_pid()"
        ).fetchone()
    assert killed is not None and killed[0] >= 1
    mem.observe("u", "I live in Berlin.")
    assert mem.profile("u") == {"budget.max": "5000", "location.city": "Berlin"}
    mem.close()


def test_postgres_restart_pool_reconnects(
    pgserver_instance: Any, pgvector_url: str, tmp_path: Path
) -> None:
    import pgserver

    e = _pg_env(pgvector_url, "redis_pg_pgvector", FakeClock(START))
    from shared_core.storage.pgvector import PgVectorIndex

    index = PgVectorIndex(pgvector_url, schema=str(e.schema), dimension=256)
    mem = UserMemory(
        StorageSpec(records=e.records, vectors=index), clock=e.clock,
        embedder=HashingEmbedder(),
    )  # fmt: skip
    try:
        mem.observe("u", "I'm allergic to penicillin.", system_context="health")
        pgserver.pg_ctl(  # type: ignore[attr-defined]
            ["-w", "-m", "fast", "-l", str(pgserver_instance.log), "restart"],
            pgdata=pgserver_instance.pgdata,
            user=pgserver_instance.system_user,
            timeout=60,
        )
        mem.observe("u", "My budget is 5000.")
        assert mem.profile("u")["budget.max"] == "5000"
        res = mem.recall("u", "penicillin allergy", system_context="health", k=1)
        assert res and res[0].record.key == "allergy.medication"
    finally:
        mem.close()
        _drop_schema(pgvector_url, str(e.schema))


@pytest.fixture
def pinecone_env(pg_env: Env, pinecone_emulator: Any) -> Iterator[Env]:
    pg_env.name = "redis_pg_pinecone"
    pg_env.emulator = pinecone_emulator
    pg_env.pinecone_index = f"um-fail-{uuid.uuid4().hex[:10]}"
    yield pg_env
    pinecone_emulator.clear_failures()
    pinecone_emulator.drop_index(pg_env.pinecone_index)


def _pinecone(e: Env) -> Any:
    from contract_env import EMULATOR_API_KEY

    from shared_core.storage.pinecone import PineconeVectorIndex

    return PineconeVectorIndex(
        str(e.pinecone_index), api_key=EMULATOR_API_KEY, host=e.emulator.control_host,
        namespace="fail", dimension=256,
    )  # fmt: skip


U = "outbox-user-9z"


def test_vector_failure_after_sql_write_is_replayed_from_the_outbox(
    pinecone_env: Env, tmp_path: Path
) -> None:
    e = pinecone_env
    metrics = Metrics()
    outbox = tmp_path / "outbox.db"
    inner = _pinecone(e)
    inner.upsert([])  # the index exists before failures are injected
    mem = UserMemory(
        StorageSpec(records=Shared(e.records), vectors=OutboxVectorIndex(inner, outbox,
        probe_interval=0,
        metrics=metrics)), clock=e.clock, embedder=HashingEmbedder(),
        metrics=metrics,
    )  # fmt: skip
    e.emulator.inject_failures(1000, path="/vectors/upsert", index=e.pinecone_index)
    mem.observe(U, "I'm allergic to penicillin.", system_context="health")
    rec = mem.history(U, "allergy.medication")[0]
    assert rec.status is Status.ACTIVE  # the SQL write stands
    vec: OutboxVectorIndex = mem.vectors  # type: ignore[assignment]
    assert vec.pending() >= 1 and rec.id not in inner.ids_for_user(U)
    assert metrics.value("backend_degraded_total", backend="vectors") == 1
    mem.close()  # the process goes away while Pinecone is failing

    e.emulator.clear_failures()
    inner2 = _pinecone(e)
    mem2 = UserMemory(
        StorageSpec(records=Shared(e.records),
        vectors=OutboxVectorIndex(inner2, outbox, probe_interval=0)),
        clock=e.clock, embedder=HashingEmbedder(),
    )  # fmt: skip
    try:
        res = mem2.recall(U, "penicillin allergy", system_context="health", k=1)
        assert res and res[0].record.id == rec.id
        assert rec.id in inner2.ids_for_user(U)  # repaired from the durable outbox
        assert mem2.vectors.pending() == 0  # type: ignore[attr-defined]
        mem2.forget(U)
        mem2.close()
        blob = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
        assert U.encode() not in blob and b"allergy.medication" not in blob
    finally:
        mem2.close()


def test_vector_failure_without_outbox_is_repaired_by_reindex(pinecone_env: Env) -> None:
    e = pinecone_env
    inner = _pinecone(e)
    inner.upsert([])
    mem = UserMemory(
        StorageSpec(records=Shared(e.records), vectors=inner), clock=e.clock,
        embedder=HashingEmbedder(),
    )  # fmt: skip
    try:
        e.emulator.inject_failures(1000, path="/vectors/upsert", index=e.pinecone_index)
        mem.observe("u", "My budget is 93817.")
        rec = mem.history("u", "budget.max")[0]
        assert rec.id not in inner.ids_for_user("u")
        e.emulator.clear_failures()
        assert mem.reindex("u") >= 1
        assert rec.id in inner.ids_for_user("u")
        assert [r.record.id for r in mem.recall("u", "budget", k=1)] == [rec.id]
    finally:
        mem.close()
