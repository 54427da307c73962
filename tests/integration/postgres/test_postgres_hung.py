"""A PostgreSQL that stops answering cannot block a call (issue 16, bounded waits).

A private PostgreSQL 15 (Debian's binaries, its own data directory and port, run as the
``postgres`` OS user) is started by this module, frozen with SIGSTOP (the postmaster and
every backend, by PID: the kernel keeps acknowledging packets, so only a client-side
bound can end the wait), resumed and stopped by PID.

- a call on the frozen server raises ``BackendUnavailableError`` (a ``BackendError``)
  after the read bound, and opens the breaker: the next calls fail at once;
- after SIGCONT and the probe interval, calls work again on fresh connections;
- a new store on the frozen server gives up after its connect/pool timeouts;
- a statement slower than ``read_timeout`` on a live server is cancelled by the server,
  without tripping the breaker, and the connection stays usable.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from contract.race import bounded
from psycopg import sql

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.errors import BackendError, BackendUnavailableError
from shared_core.metrics import Metrics
from shared_core.storage import StorageSpec
from shared_core.storage.postgres import PostgresRecordStore

pytestmark = pytest.mark.integration

PG_BIN = Path("/usr/lib/postgresql/15/bin")
READ_TIMEOUT = 1.0  # the client gives up after READ_TIMEOUT + 1 s without an answer


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgProcess:
    """A throwaway PostgreSQL 15 on a spare port, frozen, resumed and stopped by PID."""

    def __init__(self) -> None:
        if not (PG_BIN / "initdb").exists():
            pytest.skip("PostgreSQL 15 binaries not available")
        self.root = Path(tempfile.mkdtemp(prefix="um_hungpg_", dir="/tmp"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.user = "postgres" if os.geteuid() == 0 else None

    def _as_pg(self) -> dict[str, Any]:
        """Popen arguments: as root, run as the ``postgres`` OS user (postgres refuses
        root), as a direct child so the postmaster's PID is ours to signal."""
        return {"user": self.user, "group": self.user} if self.user else {}

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        if self.user:
            shutil.chown(self.root, self.user)
        subprocess.run(
            [str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
             "--no-sync"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.root,
            **self._as_pg(),
        )  # fmt: skip
        self.proc = subprocess.Popen(
            [str(PG_BIN / "postgres"), "-D", str(self.data), "-p", str(self.port),
             "-k", str(self.root), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.root,
            **self._as_pg(),
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self.url, connect_timeout=1) as conn:
                    conn.execute("SELECT 1")
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def pids(self) -> list[int]:
        """The postmaster (our child) and its children (backends, checkpointer, ...)."""
        assert self.proc is not None
        root = self.proc.pid
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == root:
                    children.append(int(entry.name))
        return [root, *children]

    def freeze(self) -> list[int]:
        pids = self.pids()
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        return pids

    @staticmethod
    def thaw(pids: list[int]) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None:
            try:
                pids = self.pids()
            except OSError:
                pids = []
            self.thaw(pids)
            if pids:
                os.kill(pids[0], signal.SIGQUIT)  # immediate shutdown of this server only
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="module")
def hung_pg() -> Iterator[PgProcess]:
    server = PgProcess()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def frozen(hung_pg: PgProcess) -> Iterator[Callable[[], None]]:
    """Call it to SIGSTOP the server; it is resumed after the test whatever happens."""
    stopped: list[int] = []

    def freeze() -> None:
        stopped.extend(hung_pg.freeze())

    yield freeze
    hung_pg.thaw(stopped)


def _schema_url(base: str, schema: str, **params: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in {"schema": schema, **params}.items())
    return f"{base}?{query}"


def test_frozen_postgres_raises_typed_error_and_opens_the_breaker(
    hung_pg: PgProcess, frozen: Callable[[], None]
) -> None:
    schema = f"hung_{uuid.uuid4().hex[:8]}"
    url = _schema_url(hung_pg.url, schema, read_timeout=READ_TIMEOUT, probe_interval=1)
    metrics = Metrics()
    mem = UserMemory(
        StorageSpec(records=url, vectors="sqlite:///:memory:"),
        embedder=HashingEmbedder(),
        metrics=metrics,
    )
    try:
        mem.observe("u", "I live in Berlin.", session_id="s1")
        frozen()
        err, _ = bounded(lambda: mem.observe("u", "My budget is 5000.", session_id="s1"), 30)
        assert isinstance(err, BackendError), err
        assert mem.records.breaker.healthy is False  # type: ignore[attr-defined]
        # while the breaker is open, calls fail at once: no wait for another read bound
        for call in (lambda: mem.profile("u"), lambda: mem.remember("u", "diet", "vegan")):
            err, elapsed = bounded(call, 30)
            assert isinstance(err, BackendUnavailableError), err
            assert elapsed < READ_TIMEOUT
    finally:
        hung_pg.thaw(hung_pg.pids())
    try:
        time.sleep(1.1)  # the probe interval: the next call tries the server again
        result, _ = bounded(lambda: mem.remember("u", "diet", "vegan"), 30)
        assert not isinstance(result, BaseException), result
        assert mem.profile("u") == {"location.city": "Berlin", "diet": "vegan"}
        assert mem.records.breaker.healthy is True  # type: ignore[attr-defined]
        assert metrics.value("backend_degraded_total", backend="postgresql") == 1
        assert metrics.value("backend_recovered_total", backend="postgresql") == 1
    finally:
        mem.close()


def test_opening_a_store_on_a_frozen_server_gives_up(
    hung_pg: PgProcess, frozen: Callable[[], None]
) -> None:
    frozen()
    err, _ = bounded(
        lambda: PostgresRecordStore(
            hung_pg.url, schema="never", connect_timeout=1, timeout=2, read_timeout=READ_TIMEOUT
        ),
        30,
    )
    assert isinstance(err, BackendUnavailableError), err


def test_slow_statement_is_cancelled_by_the_server_without_opening_the_breaker(
    hung_pg: PgProcess,
) -> None:
    schema = f"slow_{uuid.uuid4().hex[:8]}"
    store = PostgresRecordStore(hung_pg.url, schema=schema, read_timeout=READ_TIMEOUT, max_size=1)
    try:
        with pytest.raises(BackendUnavailableError), store.transaction() as conn:
            conn.execute("SELECT pg_sleep(30)")
        assert store.breaker.healthy is True
        with store.transaction() as conn:  # the same (only) pooled connection still works
            assert conn.execute("SELECT 1").fetchone() == (1,)
        assert store.fence("u").epoch == 0
    finally:
        store.close()
        with psycopg.connect(hung_pg.url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
