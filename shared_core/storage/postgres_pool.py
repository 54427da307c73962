"""PostgreSQL connections that cannot hang a call: bounded waits and a circuit breaker.

Shared by the record store and pgvector (:class:`PgPool`). Every wait on a server bounds:

- **connect**: libpq ``connect_timeout`` (default 5 s) and the pool's wait for a free
  connection (``timeout``, default 10 s);
- **each statement, server side**: ``statement_timeout`` = ``read_timeout`` (a slow
  statement on a live server is cancelled by the server and the connection stays usable);
- **each round trip, client side**: ``read_timeout`` + 1 s. A server that accepted the
  connection but no longer answers (SIGSTOPped, a frozen VM, a network black hole: the
  kernel still acknowledges packets, so TCP keepalives and ``statement_timeout`` never
  fire) makes the wait give up; the connection is dropped, never returned to the pool.

A call whose server stopped answering, or that could not get a connection (refused,
connect timeout, no free pooled connection in time), opens a
:class:`~shared_core.storage.resilient.Breaker`: until the next probe (``probe_interval``
seconds later), calls raise :class:`~shared_core.errors.BackendUnavailableError` at once
instead of each waiting for a timeout. Statement errors (constraint violations,
conflicts) and a connection that broke with a prompt error (a restart, a terminated
backend: the pool replaces it) do not trip it.

URL parameters (``postgresql://...?read_timeout=30&connect_timeout=5&probe_interval=5``)
are ours and read by :func:`pool_options`. Migrations run on their own connection without
the read bound (building an index may legitimately take long).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import BackendUnavailableError, ConfigError
from ..metrics import Metrics
from .postgres_sql import driver, pg_errors
from .resilient import Breaker

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

__all__ = ["DEFAULT_READ_TIMEOUT", "PgPool", "pool_options"]

log = logging.getLogger(__name__)

#: Pools inherited across ``os.fork()``: never used, closed or collected by the child.
_INHERITED: list[Any] = []

#: Seconds a statement may run (server side) before it is cancelled.
DEFAULT_READ_TIMEOUT = 30.0
_CLIENT_GRACE = 1.0  # the server cancels a slow statement first; the client cuts a mute one


def pool_options(ours: Mapping[str, str], url: str) -> dict[str, Any]:
    """``read_timeout``, ``connect_timeout`` and ``probe_interval`` from a URL's parameters.

    Raises:
        ConfigError: a value that is not a positive number.
    """
    out: dict[str, Any] = {}
    try:
        if "read_timeout" in ours:
            out["read_timeout"] = float(ours["read_timeout"])
        if "connect_timeout" in ours:
            out["connect_timeout"] = int(ours["connect_timeout"])
        if "probe_interval" in ours:
            out["probe_interval"] = float(ours["probe_interval"])
    except ValueError as exc:
        raise ConfigError(f"read_timeout/connect_timeout/probe_interval in {url!r}: {exc}") from exc
    if (
        any(v <= 0 for k, v in out.items() if k != "probe_interval")
        or out.get("probe_interval", 0) < 0
    ):
        raise ConfigError(f"timeouts must be > 0 and probe_interval >= 0 in {url!r}")
    return out


@functools.cache
def _bounded_connection(client_timeout: float) -> type[Any]:
    """A ``psycopg.Connection`` whose every wait on the server ends after ``client_timeout``."""
    pg, _ = driver()
    timed_out = getattr(pg.errors, "_WaitTimeout", pg.OperationalError)

    class BoundedConnection(pg.Connection):  # type: ignore[misc,name-defined]
        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            limit = client_timeout if timeout is None else timeout
            try:
                return super().wait(gen, interval=interval, timeout=limit)
            except timed_out as exc:
                if self.pgconn.status == pg.pq.ConnStatus.BAD:
                    raise  # already lost for another reason
                self.mute = True  # PgPool: the server, not this connection, is the problem
                self.pgconn.finish()  # the pool discards it; a late answer is never read
                raise pg.OperationalError(
                    f"no answer from the server within {limit:g} s; connection dropped"
                ) from exc

    return BoundedConnection


class PgPool:
    """A psycopg pool of :func:`_bounded_connection` connections behind a breaker.

    Args:
        conninfo: libpq URL or ``key=value`` string.
        options: ``-c`` settings of every connection (``search_path``, ``timezone``).
        name: the backend's name in errors, logs and metrics (``"postgresql"``).
        min_size / max_size: connections the pool keeps open / opens at most.
        timeout: seconds to wait for a free pooled connection.
        connect_timeout: libpq connect timeout in seconds.
        read_timeout: seconds a statement may take (``None``: unbounded, not advised).
        probe_interval: seconds between attempts while the server is considered down.
        application_name: shown in ``pg_stat_activity``.
        metrics: counts ``backend_degraded`` / ``backend_recovered`` for ``name``.

    Raises:
        BackendUnavailableError: the server cannot be reached within the timeouts.
    """

    def __init__(
        self,
        conninfo: str,
        *,
        options: str,
        name: str = "postgresql",
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 10.0,
        connect_timeout: int = 5,
        read_timeout: float | None = DEFAULT_READ_TIMEOUT,
        probe_interval: float = 5.0,
        application_name: str = "usermemory",
        metrics: Metrics | None = None,
    ) -> None:
        pg, psycopg_pool = driver()
        self.name = name
        self.read_timeout = read_timeout
        if read_timeout is not None:
            options += f" -c statement_timeout={int(read_timeout * 1000)}"
        self.kwargs: dict[str, Any] = {
            "options": options,
            "connect_timeout": connect_timeout,
            "application_name": application_name,
        }
        self.breaker = Breaker(name, probe_interval=probe_interval, metrics=metrics)
        self._pool_args: dict[str, Any] = {
            "conninfo": conninfo,
            "kwargs": self.kwargs,
            "connection_class": (
                pg.Connection
                if read_timeout is None
                else _bounded_connection(read_timeout + _CLIENT_GRACE)
            ),
            "min_size": min_size,
            "max_size": max(max_size, min_size),
            "open": False,
            "timeout": timeout,
            "name": f"usermemory-{name}",
        }
        self._pid = os.getpid()
        self._opened = True  # False after a fork: the child's pool opens on first use
        self._open_lock = threading.Lock()
        self._pool: ConnectionPool[psycopg.Connection[Any]] = psycopg_pool.ConnectionPool(
            **self._pool_args
        )
        try:
            with pg_errors(name):
                self._pool.open(wait=True, timeout=timeout)
        except BaseException:
            self._pool.close()
            raise

    def after_fork(self) -> None:
        """In a child process after ``os.fork()``: a pool of this process's own.

        The inherited pool (its connections are the parent's sockets) is kept referenced
        and never used, closed or finalised by this process: closing a psycopg connection
        sends Terminate on the socket the parent still uses (garbage collection does not:
        psycopg finishes a connection only in the process that opened it). Its worker
        threads did not survive the fork. The new pool connects on its first use, so a
        forked child that never touches the database opens no connection.
        """
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        _INHERITED.append(self._pool)
        _, psycopg_pool = driver()
        self._pool = psycopg_pool.ConnectionPool(**self._pool_args)
        self._opened = False
        self._open_lock = threading.Lock()
        self.breaker.after_fork()

    def _open(self) -> None:
        """Open the pool a fork left unopened (first use in the child)."""
        with self._open_lock:
            if not self._opened:
                self._pool.open(wait=False)
                self._opened = True

    @contextmanager
    def connection(self, *, autocommit: bool = False) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection inside one transaction (committed on success).

        With ``autocommit`` there is no transaction block: each statement commits on its
        own. For a read that is ONE statement this is the same snapshot, without the
        ``BEGIN`` and ``COMMIT`` round trips (a statement's round trip is most of a small
        read's time: 4 round trips become 2, the connection check included).

        Raises:
            BackendUnavailableError: the server did not answer (now, or recently: the
                breaker is open until its next probe).
        """
        if not self.breaker.should_try():
            raise BackendUnavailableError(
                f"{self.name} is unavailable: it did not answer recently; next attempt within"
                f" {self.breaker.probe_interval:g} s"
            )
        pg, _ = driver()
        conn: psycopg.Connection[Any] | None = None
        try:
            with pg_errors(self.name):
                conn = self._checked()
                try:
                    if autocommit:
                        conn.autocommit = True
                        try:
                            yield conn
                        finally:
                            with contextlib.suppress(pg.Error):  # a broken one is discarded
                                conn.autocommit = False
                    else:
                        with conn:
                            yield conn
                finally:
                    self._pool.putconn(conn)
        except BackendUnavailableError as exc:
            # the server went mute, or no connection could be had: skip it for a while. A
            # connection that broke with a prompt error (a restart, a terminated backend)
            # does not trip it: the pool replaces that connection on the next call
            if conn is None or getattr(conn, "mute", False):
                self.breaker.failed(exc)
            raise
        self.breaker.succeeded()

    def _checked(self) -> psycopg.Connection[Any]:
        """A pooled connection that answered a ping (a connection the server dropped, e.g.
        after a restart, is replaced). A ping the server does not answer within the read
        bound fails at once, instead of waiting for the pool to connect again."""
        pg, _ = driver()
        if not self._opened:
            self._open()
        deadline = time.monotonic() + self._pool.timeout
        while True:
            conn = self._pool.getconn(timeout=max(0.0, deadline - time.monotonic()))
            try:
                self._pool.check_connection(conn)
            except pg.Error as exc:
                self._pool.putconn(conn)  # discarded: it is broken
                if getattr(conn, "mute", False) or time.monotonic() >= deadline:
                    raise
                log.info("%s: replacing a dropped connection (%s)", self.name, exc)
                time.sleep(0.05)
                continue
            return conn

    def close(self) -> None:
        """Close the pool (idempotent; after a fork, only this process's pool)."""
        self._pool.close()
