"""A server app built before ``os.fork()`` serves in the child (gunicorn ``--preload``
with uvicorn workers: the master builds the app, each worker runs it).

Every test forks for real (``tests/forking.py``: the child reports through its exit code,
a hung child is killed after a deadline and the test fails). The app is built as
``usermemory serve`` builds it (``create_app(memory, keys=KeyStore(...))``); a parent
thread holds the server's own locks across the fork; the child runs the app's lifespan
and real requests through it, authenticating with a key the parent never read (so the
key store is read from the database, on a connection of the child's own).
"""

from __future__ import annotations

import ast
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_support import Server, auth, make_server

import shared_core.server
from tests.forking import PASSED, held_by_a_thread, start_child, wait_child

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")

CHILD_TIMEOUT = 60.0  # the child's lifespan loads jieba; a deadlock is killed at this point
_LOCK_TYPES = (type(threading.Lock()), type(threading.RLock()))


def _locks_in(obj: Any) -> list[Any]:
    return [v for v in vars(obj).values() if isinstance(v, _LOCK_TYPES)]


def server_locks(app: Any) -> list[Any]:
    """Every lock of the server's own objects a request takes: the key store's three, the
    rate limiter's, the page's template cache's and ``prometheus_client``'s (the HTTP
    metrics' registry, metrics and the values of the labels already counted)."""
    keys, limiter = app.state.keys, app.state.limiter
    locks = [keys._lock, keys._cache_lock, keys._log_lock, limiter._lock]
    locks += _locks_in(app.state.page_templates.env.cache)
    hm = app.state.http_metrics
    assert hm is not None, "prometheus_client is a test dependency"
    locks += _locks_in(hm.registry)
    for metric in (hm.requests, hm.latency):
        locks += _locks_in(metric)
        for child in metric._metrics.values():
            for value in vars(child).values():
                for part in value if isinstance(value, list) else (value,):
                    if hasattr(part, "__dict__"):
                        locks += _locks_in(part)
    return locks


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


@pytest.fixture
def srv(tmp_path: Path) -> Any:
    s = make_server(tmp_path)
    try:
        yield s
    finally:
        s.keys.close()
        s.mem.close()


def test_a_preloaded_app_serves_in_the_child_though_its_locks_were_held(
    srv: Server, tmp_path: Path
) -> None:
    app, keys = srv.app, srv.keys
    cached_id, cached = srv.key("acme")  # read by the parent before the fork: in its cache
    _, fresh = srv.key("acme")  # never read before the fork: the child reads the database
    keys.authenticate(cached)
    keys.log_request(  # queued at the fork: the parent writes it, the child must not
        key_id=cached_id,
        tenant="acme",
        user_id=None,
        method="POST",
        path="/queued",
        status=200,
        ms=1,
    )
    assert app.state.http_metrics is not None
    app.state.http_metrics.observe("POST", "/v1/observe", 200, 0.01)  # label values exist
    app.state.page_templates.env.get_template("message.html")  # the template cache is used
    inherited = keys._conn

    def child() -> None:
        with TestClient(app) as http:  # the child's lifespan: its own threads and flusher
            r = http.post(
                "/v1/observe",
                json={"user_id": "u1", "text": "I live in Berlin.", "session_id": "s1"},
                headers=auth(fresh),
            )
            assert r.status_code == 200, r.text
            assert keys._conn is not inherited  # a connection of the child's own
            r = http.post(
                "/v1/recall",
                json={"user_id": "u1", "query": "where do I live?"},
                headers=auth(fresh),
            )
            assert r.status_code == 200, r.text
            assert any(h["record"]["value"] == "Berlin" for h in r.json()["results"]), r.json()
            page = http.get("/me")  # not signed in: the page renders its message
            assert page.status_code == 401 and "<html" in page.text.lower()
            assert http.get("/metrics").status_code == 200
            keys.revoke(cached_id)
            r = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(cached))
            assert r.status_code == 401, r.text

    with held_by_a_thread(*server_locks(app)):
        pid = start_child(child)
    assert wait_child(pid, CHILD_TIMEOUT) == PASSED

    # the parent keeps working, on its own connection, and sees what the child wrote
    with TestClient(app) as http:
        r = http.post(
            "/v1/recall", json={"user_id": "u1", "query": "where do I live?"}, headers=auth(fresh)
        )
        assert r.status_code == 200, r.text
        assert any(h["record"]["value"] == "Berlin" for h in r.json()["results"])
        # the key the child revoked is refused here too, once the parent's cache (1 s) ages
        deadline = time.monotonic() + 5
        while True:
            r = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(cached))
            if r.status_code == 401 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert r.status_code == 401, r.text
        assert keys._conn is inherited
    lines = keys.request_log(tenant="acme")
    assert [line["path"] for line in lines].count("/queued") == 1  # written once
    assert {"/v1/observe", "/v1/recall"} <= {line["path"] for line in lines}  # the child's
    assert integrity(tmp_path / "keys.db") == "ok"


def test_a_key_store_in_use_at_the_fork_fails_fast_in_the_child(
    srv: Server, tmp_path: Path
) -> None:
    app, keys = srv.app, srv.keys
    _, plain = srv.key("acme")
    inside, leave = threading.Event(), threading.Event()

    def nap() -> int:  # runs inside SQLite, holding the connection, until released
        inside.set()
        leave.wait(30)
        return 1

    keys._conn.create_function("nap", 0, nap)
    reader = threading.Thread(target=keys._exec, args=("SELECT nap()",), daemon=True)
    reader.start()
    assert inside.wait(5)

    def child() -> None:
        with TestClient(app) as http:
            r = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(plain))
            assert r.status_code == 503, r.text  # never the parent's busy handle
            assert r.json()["code"] == "backend_unavailable"

    try:
        pid = start_child(child)
    finally:
        leave.set()
        reader.join(5)
    assert wait_child(pid, CHILD_TIMEOUT) == PASSED
    with TestClient(app) as http:  # the parent's connection was never touched
        r = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(plain))
        assert r.status_code == 200, r.text
    assert integrity(tmp_path / "keys.db") == "ok"


# what holds a lock, a thread or a connection: threading's and sqlite3/psycopg's, an
# executor, an HTTP client, and third-party objects with locks of their own
_STATEFUL = {
    "Lock",
    "RLock",
    "Thread",
    "ThreadPoolExecutor",
    "connect",
    "Client",
    "AsyncClient",
    "Counter",
    "Histogram",
    "CollectorRegistry",
    "Environment",
}
_CLIENT_SIDE = {"UserMemoryClient", "AsyncUserMemoryClient"}  # the SDK, not the server


def test_every_server_class_holding_locks_threads_or_connections_is_fork_aware() -> None:
    root = Path(shared_core.server.__file__).parent
    checked, missing = set(), []
    for path in sorted(root.glob("*.py")):
        for cls in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(cls, ast.ClassDef) or cls.name in _CLIENT_SIDE:
                continue
            calls = {
                n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
                for n in ast.walk(cls)
                if isinstance(n, ast.Call)
            }
            if calls & _STATEFUL:
                checked.add(cls.name)
                methods = {f.name for f in cls.body if isinstance(f, ast.FunctionDef)}
                if "after_fork" not in methods:
                    missing.append(f"{path.name}:{cls.name}")
    assert {"KeyStore", "RateLimiter", "HttpMetrics", "_Templates"} <= checked  # it scans
    assert missing == []
