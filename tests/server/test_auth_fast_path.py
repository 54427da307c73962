"""The key check on the event loop (no thread hop when the key was read within the cache
window) keeps every refusal, and the request log never makes the loop wait for a write."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient
from server_support import auth, make_server

from shared_core.server import KeyStore
from shared_core.server import api as api_module
from shared_core.server.auth import AuthError


def test_cached_check_answers_only_from_a_fresh_read_and_keeps_every_refusal(tmp_path):
    keys = KeyStore(f"sqlite:///{tmp_path / 'keys.db'}", cache_seconds=60)
    try:
        key, plain = keys.create_key("acme")
        assert keys.authenticate_cached(plain) is None  # never read: the caller reads it
        p = keys.authenticate(plain)
        assert keys.authenticate_cached(plain) == p  # now from the cache, same principal
        wrong = plain[:-1] + ("A" if plain[-1] != "A" else "B")
        with pytest.raises(AuthError):  # right id, wrong secret: refused on the fast path
            keys.authenticate_cached(wrong)
        with pytest.raises(AuthError):
            keys.authenticate_cached("umk_nonsense")
        token, _ = keys.mint_token(key, "alice")
        assert keys.authenticate_cached(token).user_id == "alice"
        keys.revoke(key.id)  # a revoke through this store takes effect at once
        assert keys.authenticate_cached(plain) is None  # the cache was dropped
        for cred in (plain, token):
            with pytest.raises(AuthError):
                keys.authenticate(cred)
            with pytest.raises(AuthError):  # and the refusal is cached, for keys and tokens
                keys.authenticate_cached(cred)
    finally:
        keys.close()


def test_requests_with_a_cached_key_skip_the_worker_thread(tmp_path, monkeypatch):
    srv = make_server(tmp_path)
    _, key = srv.key("acme")
    hops: list[str] = []
    real = api_module.run_in_threadpool

    async def counting(fn, *args, **kwargs):
        hops.append(getattr(fn, "__name__", "?"))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(api_module, "run_in_threadpool", counting)
    try:
        with TestClient(srv.app) as http:
            for _ in range(5):
                r = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(key))
                assert r.status_code == 200
    finally:
        srv.keys.close()
        srv.mem.close()
    assert hops.count("authenticate") <= 1  # the first request reads the key; the rest not


def test_log_request_does_not_wait_for_a_database_write(tmp_path):
    keys = KeyStore(f"sqlite:///{tmp_path / 'keys.db'}")
    try:
        done = threading.Event()

        def log_one() -> None:
            keys.log_request(
                key_id="k", tenant="t", user_id="u", method="POST", path="/v1/x", status=200, ms=1
            )
            done.set()

        with keys._lock:  # a flush (or any statement) is writing
            threading.Thread(target=log_one, daemon=True).start()
            assert done.wait(5), "log_request waited for the database connection"
        assert [r["path"] for r in keys.request_log()] == ["/v1/x"]
    finally:
        keys.close()
