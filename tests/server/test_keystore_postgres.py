"""The key store on PostgreSQL (schema ``usermemory_server``, created by the migration
runner): keys, revocation, tokens and the request log, as on SQLite."""

from __future__ import annotations

import os
import socket
import uuid

import pytest

from shared_core.server import KeyStore
from shared_core.server.auth import AuthError

pytestmark = pytest.mark.integration
PG = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture
def store():
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=2):
            pass
    except OSError:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL is not reachable on 127.0.0.1:5432")
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    s = KeyStore(PG)
    yield s
    s.close()


def test_keys_tokens_and_log_on_postgres(store):
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    key, plain = store.create_key(tenant, name="pg", contexts=("support",))
    p = store.authenticate(plain)
    assert (p.tenant, p.key_id, p.contexts, p.user_id) == (tenant, key.id, ("support",), None)
    token, _ = store.mint_token(key, "alice")
    assert store.authenticate(token).user_id == "alice"
    again = KeyStore(PG)  # a second process sees the same key, secret and migrations
    try:
        assert again.authenticate(token).user_id == "alice"
        assert [k.id for k in again.list_keys(tenant)] == [key.id]
    finally:
        again.close()
    store.log_request(
        key_id=key.id,
        tenant=tenant,
        user_id="alice",
        method="POST",
        path="/v1/profile",
        status=200,
        ms=1.5,
    )
    rows = store.request_log(tenant=tenant)
    assert [(r["key_id"], r["path"], r["status"]) for r in rows] == [(key.id, "/v1/profile", 200)]
    store.revoke(key.id)
    for cred in (plain, token):
        with pytest.raises(AuthError):
            store.authenticate(cred)
    assert store.get(key.id).revoked_at is not None
    import psycopg

    with psycopg.connect(PG, autocommit=True) as con:  # leave no test rows behind
        con.execute("DELETE FROM usermemory_server.request_log WHERE tenant = %s", (tenant,))
        con.execute("DELETE FROM usermemory_server.api_keys WHERE tenant = %s", (tenant,))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")
def test_a_forked_child_uses_a_connection_of_its_own(store):
    from tests.forking import PASSED, held_by_a_thread, in_child

    tenant = f"t-{uuid.uuid4().hex[:8]}"
    kept, kept_plain = store.create_key(tenant, name="kept")
    gone, gone_plain = store.create_key(tenant, name="gone")
    inherited = store._conn

    def child() -> None:
        assert store.authenticate(kept_plain).key_id == kept.id  # read by the child
        assert store._conn is not inherited
        store.revoke(gone.id)
        store.close()  # closes the child's connection only

    with held_by_a_thread(store._lock, store._cache_lock, store._log_lock):
        code = in_child(child)
    assert code == PASSED
    assert store._conn is inherited and not inherited.closed  # the parent's session lives
    assert store.authenticate(kept_plain).key_id == kept.id
    assert store.get(gone.id).revoked_at is not None
    other = KeyStore(PG)  # another process's view
    try:
        with pytest.raises(AuthError):
            other.authenticate(gone_plain)
    finally:
        other.close()
