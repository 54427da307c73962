"""Fixtures for the PostgreSQL backend tests.

- ``pg_url``: a throwaway database created for the test session in the real PostgreSQL
  (``postgresql://postgres@127.0.0.1:5432/test``; ``USERMEMORY_TEST_PG_URL`` overrides)
  and dropped afterwards. Each test gets its own schema in it (``pg_schema``).
- ``pgvector_url``: PostgreSQL 16 + pgvector started from the ``pgserver`` package
  (unix socket, data dir under /tmp readable by the ``pgserver`` OS user it creates
  when run as root), stopped at the end of the session.

Unreachable servers fail the run under ``CI=true`` and skip locally with the reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

from shared_core.clock import FakeClock
from shared_core.storage.postgres import PostgresRecordStore

DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def unavailable(reason: str) -> None:
    """Fail under CI=true, skip otherwise."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def with_database(url: str, dbname: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + dbname, parts.query, ""))


@pytest.fixture(scope="session")
def pg_admin_url() -> str:
    url = os.environ.get("USERMEMORY_TEST_PG_URL", DEFAULT_PG_URL)
    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        unavailable(
            f"PostgreSQL is not reachable at {url} ({exc}); start it (e.g. `service postgresql "
            "start`) or set USERMEMORY_TEST_PG_URL"
        )
    return url


@pytest.fixture(scope="session")
def pg_url(pg_admin_url: str) -> Iterator[str]:
    """A fresh database for this test session, dropped at the end."""
    dbname = f"um_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    try:
        yield with_database(pg_admin_url, dbname)
    finally:
        with psycopg.connect(pg_admin_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(dbname))
            )


@pytest.fixture
def pg_schema(pg_url: str) -> Iterator[str]:
    """A schema name unique to the test, dropped afterwards."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    yield schema
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


START = datetime(2026, 1, 1, tzinfo=UTC)
DATA_TABLES = (
    "records",
    "records_archive",
    "audit",
    "conflicts",
    "users",
    "tombstones",
)


@pytest.fixture(scope="module")
def module_store(pg_url: str) -> Iterator[PostgresRecordStore]:
    """One migrated schema per test module (creating a schema costs ~0.3 s of DDL)."""
    schema = f"m_{uuid.uuid4().hex[:12]}"
    store = PostgresRecordStore(pg_url, schema=schema, clock=FakeClock(START), max_size=4)
    yield store
    store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def clock(module_store: PostgresRecordStore) -> FakeClock:
    """The module store's clock, reset to :data:`START` for every test."""
    clk = module_store.clock
    assert isinstance(clk, FakeClock)
    clk.set(START)
    return clk


@pytest.fixture
def pg_store(module_store: PostgresRecordStore, clock: FakeClock) -> PostgresRecordStore:
    """The module's store, emptied (DELETE is ~100x faster than TRUNCATE on tiny tables)."""
    with module_store.transaction() as conn:
        for table in DATA_TABLES:
            conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(table)))
    return module_store


@pytest.fixture(scope="session")
def pgserver_instance() -> Iterator[Any]:
    """PostgreSQL 16 + pgvector from the ``pgserver`` wheel, for this session."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR
            import pgserver
    except ImportError:
        unavailable("pgserver is not installed: pip install pgserver (PostgreSQL 16 + pgvector)")
    root = tempfile.mkdtemp(prefix="um_pgserver_", dir="/tmp")
    os.chmod(root, 0o777)  # as root, pgserver runs postgres as the 'pgserver' user
    server = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pgserver.get_server(os.path.join(root, "data"), cleanup_mode="stop")
        with psycopg.connect(server.get_uri(), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except Exception as exc:
        unavailable(f"could not start PostgreSQL 16 + pgvector with pgserver: {exc}")
    try:
        yield server
    finally:
        if server is not None:
            # Stop through pg_ctl first: after a test restarts the server, pgserver's own
            # cleanup only knows the old postmaster pid and would leave the new one running.
            with contextlib.suppress(Exception):
                pgserver.pg_ctl(
                    ["-w", "-m", "fast", "stop"],
                    pgdata=server.pgdata,
                    user=server.system_user,
                    timeout=60,
                )
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                server.cleanup()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def pgvector_url(pgserver_instance: Any) -> str:
    """URI (unix socket) of the pgserver PostgreSQL 16 with the ``vector`` extension."""
    return str(pgserver_instance.get_uri())


@pytest.fixture
def pgvector_schema(pgvector_url: str) -> Iterator[str]:
    schema = f"v_{uuid.uuid4().hex[:12]}"
    yield schema
    with psycopg.connect(pgvector_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
