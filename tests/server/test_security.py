"""Auth and tenancy cannot be bypassed: tenants, context scopes, end-user tokens, revocation,
body limits, malformed input and rate limits. Every refusal writes nothing."""

from __future__ import annotations

import time

import jwt
import pytest
from fastapi.testclient import TestClient
from server_support import auth, make_server

# one body per endpoint that names a user (all of them take user_id the same way)
ENDPOINTS: dict[str, dict[str, object]] = {
    "observe": {"text": "My name is Mallory. I live in Oslo."},
    "observe_messages": {"messages": [{"role": "user", "content": "I live in Oslo."}]},
    "conflicts": {},
    "resolve_conflict": {"key": "diet", "value": "hacked"},
    "memories": {},
    "set_expiry": {"expiries": {"0123456789abcdef": None}},
    "merge_anonymous": {"anon_id": "visitor-1"},
    "remember": {"key": "diet", "value": "hacked"},
    "recall": {"query": "diet"},
    "context": {"query": "diet"},
    "profile": {},
    "history": {"key": "diet"},
    "forget_key": {"key": "diet"},
    "forget": {},
    "export": {},
    "import": {"data": {}},
    "end_session": {"session_id": "s1"},
    "session_turns": {"session_id": "s1"},
    "set_memory_enabled": {"enabled": False},
    "audit": {},
    "tokens": {},
}


def _seed(http, key: str, user: str = "u1") -> None:
    r = http.post(
        "/v1/observe",
        json={"user_id": user, "text": "I'm vegetarian and never call me.", "session_id": "s1"},
        headers=auth(key),
    )
    assert r.status_code == 200, r.text


def _snapshot(server) -> list:
    """Everything stored, across all users (compared before and after refused calls)."""
    out = []
    for uid in sorted(server.mem.users()):
        d = server.mem.export(uid)
        out.append((uid, d["state"], d["records"], d["conflicts"], d["sessions"]))
    return out


def test_two_tenants_u1_never_meet(http, server):
    _, key_a = server.key("tenant-a")
    _, key_b = server.key("tenant-b")
    _seed(http, key_b)  # B's u1 is vegetarian
    http.post(
        "/v1/remember",
        json={"user_id": "u1", "key": "diet", "value": "carnivore"},
        headers=auth(key_a),
    )
    prof_a = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(key_a)).json()
    prof_b = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(key_b)).json()
    assert prof_a["profile"] == {"diet": "carnivore"}
    assert prof_b["profile"]["diet"] == "vegetarian"
    assert sorted(server.mem.users()) == ["tenant-a/u1", "tenant-b/u1"]


def test_tenant_a_key_cannot_read_write_or_erase_tenant_b(http, server):
    _, key_a = server.key("tenant-a")
    _, key_b = server.key("tenant-b")
    _seed(http, key_b)
    b_before = server.mem.export("tenant-b/u1")
    for name, body in ENDPOINTS.items():
        # tenant A asks for "u1" (its own namespace) and for B's stored id spelled out
        for user in ("u1", "tenant-b/u1", "../tenant-b/u1"):
            payload = {"user_id": user, **body}
            if name == "import":  # a valid export of A's own (empty) user
                payload["data"] = {"format": "usermemory.export/1", "user_id": user, "records": []}
            r = http.post(f"/v1/{name}", json=payload, headers=auth(key_a))
            text = r.text
            assert "vegetarian" not in text, (name, user, text)  # B's data never shows
    b_after = server.mem.export("tenant-b/u1")
    assert b_after["records"] == b_before["records"]
    assert b_after["state"]["memory_enabled"] is True
    assert b_after["sessions"] == b_before["sessions"]
    users_a = http.post("/v1/users", json={}, headers=auth(key_a)).json()["users"]
    # A's writes landed in A's namespace only (even for the id spelled "tenant-b/u1")
    assert all(u.startswith("tenant-a/") for u in server.mem.users() if u not in ("tenant-b/u1",))
    assert "tenant-b/u1" not in [f"tenant-a/{u}" for u in users_a]


def test_context_scoped_key_stays_in_its_contexts(http, server):
    _, support = server.key("acme", contexts=("support",))
    _, admin = server.key("acme")
    ok = http.post(
        "/v1/remember",
        json={"user_id": "u1", "key": "plan", "value": "pro", "system_context": "support"},
        headers=auth(support),
    )
    assert ok.status_code == 200
    http.post(
        "/v1/remember",
        json={"user_id": "u1", "key": "salary", "value": "100k", "system_context": "hr"},
        headers=auth(admin),
    )
    before = _snapshot(server)
    for name, extra in (
        ("remember", {"key": "x", "value": "y", "system_context": "hr"}),
        ("observe", {"text": "I live in Oslo.", "system_context": "hr"}),
        ("recall", {"query": "salary", "system_context": "hr"}),
        ("context", {"query": "salary", "system_context": "hr"}),
        ("profile", {"system_context": "hr"}),
        ("forget_key", {"key": "salary", "system_context": "hr"}),
        (
            "observe_messages",
            {"messages": [{"role": "user", "content": "hi"}], "system_context": "hr"},
        ),
        ("resolve_conflict", {"key": "salary", "value": "1", "system_context": "hr"}),
        ("conflicts", {"system_context": "hr"}),
        ("memories", {"system_context": "hr"}),
        ("set_expiry", {"expiries": {}, "system_context": "hr"}),
        ("history", {"key": "salary", "system_context": "hr"}),
        # user-wide calls span every context: a scoped key may not make them
        ("forget", {}),
        ("export", {}),
        ("set_memory_enabled", {"enabled": False}),
        ("audit", {}),
        ("tokens", {}),
        ("merge_anonymous", {"anon_id": "visitor-1"}),
    ):
        r = http.post(f"/v1/{name}", json={"user_id": "u1", **extra}, headers=auth(support))
        assert r.status_code == 403, (name, r.text)
        assert r.json()["code"] == "context_forbidden"
    # history without a context filters out what the key may not see
    hist = http.post(
        "/v1/history", json={"user_id": "u1", "key": "salary"}, headers=auth(support)
    ).json()
    assert hist["records"] == []
    assert _snapshot(server) == before


def _token(http, key: str, user: str, **extra) -> str:
    r = http.post("/v1/tokens", json={"user_id": user, **extra}, headers=auth(key))
    assert r.status_code == 200, r.text
    return r.json()["token"]


def test_end_user_token_reaches_only_its_own_user(http, server):
    _, key = server.key("acme")
    _seed(http, key, "alice")
    _seed(http, key, "bob")
    tok = _token(http, key, "alice")
    before = _snapshot(server)
    for name, body in ENDPOINTS.items():
        payload = {"user_id": "bob", **body}
        if name == "import":
            payload["data"] = {**server.mem.export("acme/bob"), "user_id": "bob"}
        r = http.post(f"/v1/{name}", json=payload, headers=auth(tok))
        assert r.status_code == 403, (name, r.status_code, r.text)
    assert _snapshot(server) == before
    # what it may do: its own user, and nothing tenant-wide
    own = http.post("/v1/profile", json={"user_id": "alice"}, headers=auth(tok))
    assert own.status_code == 200 and own.json()["profile"]["diet"] == "vegetarian"
    assert http.post("/v1/users", json={}, headers=auth(tok)).json() == {"users": ["alice"]}
    r = http.post("/v1/requests", json={}, headers=auth(tok))
    assert r.status_code == 403
    r = http.post("/v1/tokens", json={"user_id": "alice"}, headers=auth(tok))
    assert r.status_code == 403
    # nor can it pull another user's memory into its own by a merge
    r = http.post(
        "/v1/merge_anonymous", json={"user_id": "alice", "anon_id": "bob"}, headers=auth(tok)
    )
    assert r.status_code == 403
    assert _snapshot(server) == before


def test_every_user_endpoint_is_in_the_security_tables(server):
    # a new endpoint that takes a user_id must be added to ENDPOINTS (and so to every
    # refusal test above) before this passes
    paths = server.app.openapi()["paths"]
    routes = {p.removeprefix("/v1/") for p in paths if p.startswith("/v1/")}
    assert routes - {"users", "requests"} == set(ENDPOINTS)


def test_tampered_expired_and_foreign_tokens_are_refused(http, server):
    _kid, key = server.key("acme")
    tok = _token(http, key, "alice", ttl_seconds=1)
    claims = jwt.decode(tok, options={"verify_signature": False})
    forged = jwt.encode(
        {**claims, "sub": "bob"}, "not-the-secret-but-long-enough-for-hs256-x", algorithm="HS256"
    )
    none_alg = jwt.encode({**claims, "sub": "bob"}, None, algorithm="none")
    for bad in (forged, none_alg, tok[:-3] + "abc", "garbage"):
        r = http.post("/v1/profile", json={"user_id": "bob"}, headers=auth(bad))
        assert r.status_code == 401, bad
    time.sleep(2.1)
    r = http.post("/v1/profile", json={"user_id": "alice"}, headers=auth(tok))
    assert (r.status_code, r.json()["code"]) == (401, "token_expired")


def test_revoked_key_and_its_tokens_are_refused(http, server):
    kid, key = server.key("acme")
    tok = _token(http, key, "alice")
    assert http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(key)).status_code == 200
    server.keys.revoke(kid)
    before = _snapshot(server)
    for cred in (key, tok):
        r = http.post(
            "/v1/remember",
            json={"user_id": "alice", "key": "diet", "value": "vegan"},
            headers=auth(cred),
        )
        assert (r.status_code, r.json()["code"]) == (401, "unauthorized")
    assert _snapshot(server) == before
    # a key with the right id but the wrong secret is no key
    _other_kid, other = server.key("acme")
    prefix, secret = other.split(".")
    wrong = f"{prefix}.{'y' if secret[0] == 'x' else 'x'}{secret[1:]}"  # one character off
    assert wrong != other
    r = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(wrong))
    assert r.status_code == 401


def test_revocation_by_another_process_takes_effect_within_the_cache_window(tmp_path):
    from shared_core.server import KeyStore

    srv = make_server(tmp_path)
    kid, key = srv.key("acme")
    with TestClient(srv.app) as http:
        assert http.post("/v1/users", json={}, headers=auth(key)).status_code == 200
        other = KeyStore(f"sqlite:///{tmp_path / 'keys.db'}")  # as `usermemory keys revoke`
        other.revoke(kid)
        other.close()
        time.sleep(1.1)
        assert http.post("/v1/users", json={}, headers=auth(key)).status_code == 401
    srv.keys.close()
    srv.mem.close()


def test_oversized_and_malformed_bodies_get_4xx_and_write_nothing(tmp_path):
    srv = make_server(tmp_path, max_body_bytes=4096)
    _, key = srv.key("acme")
    with TestClient(srv.app) as http:
        big = {"user_id": "u1", "text": "I live in Oslo. " * 1000}
        r = http.post("/v1/observe", json=big, headers=auth(key))
        assert (r.status_code, r.json()["code"]) == (413, "body_too_large")

        def chunks():
            yield b'{"user_id": "u1", "text": "'
            for _ in range(100):
                yield b"I live in Oslo. " * 10
            yield b'"}'

        # no Content-Length: counted while streaming
        r = http.post(
            "/v1/observe",
            content=chunks(),
            headers={**auth(key), "Content-Type": "application/json"},
        )
        assert r.status_code == 413
        for raw in (
            b"{",
            b"[]",
            b'{"user_id": "u1", "text": "x", "extra": 1}',
            b"\xff\xfe",
            b'{"user_id": ["u1"], "text": "hi"}',
            b'{"user_id": "u1", "text": null}',
            b'{"user_id": "u1", "text": "a\\u0000b"}',
            b"null",
            b'"text"',
        ):
            r = http.post(
                "/v1/observe",
                content=raw,
                headers={**auth(key), "Content-Type": "application/json"},
            )
            assert 400 <= r.status_code < 500, (raw, r.status_code, r.text)
            assert r.json()["code"] in ("malformed_request", "invalid_input"), raw
        nested = b'{"user_id": "u1", "data": ' + b"[" * 5000 + b"]" * 5000 + b"}"
        r = http.post(
            "/v1/import", content=nested, headers={**auth(key), "Content-Type": "application/json"}
        )
        assert 400 <= r.status_code < 500
        r = http.post(
            "/v1/remember",
            json={"user_id": "u1", "key": "k", "value": {"nested": "object"}},
            headers=auth(key),
        )
        assert r.status_code == 422
        r = http.post(
            "/v1/set_memory_enabled", json={"user_id": "u1", "enabled": "no"}, headers=auth(key)
        )
        assert r.status_code == 422  # "no" is not silently read as true
    assert srv.mem.users() == []
    srv.keys.close()
    srv.mem.close()


def test_rate_limit_per_key(tmp_path):
    srv = make_server(tmp_path, rate_limit_per_minute=5)
    _, key = srv.key("acme")
    _, other = srv.key("acme")
    with TestClient(srv.app) as http:
        codes = [
            http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(key)).status_code
            for _ in range(8)
        ]
        assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
        r = http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(key))
        assert r.json()["code"] == "rate_limited" and "retry-after" in r.headers
        # another key has its own budget
        assert (
            http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(other)).status_code == 200
        )
    srv.keys.close()
    srv.mem.close()


@pytest.mark.parametrize("tenant", ["", "A", "a/b", "a b", "x" * 64, "../etc", "ü"])
def test_bad_tenant_names_are_refused(server, tenant):
    from shared_core import InvalidInputError

    with pytest.raises(InvalidInputError):
        server.keys.create_key(tenant)


def test_keys_are_hashed_at_rest(server, tmp_path):
    import sqlite3

    _, plain = server.key("acme")
    secret = plain.split(".", 1)[1]
    raw = (tmp_path / "keys.db").read_bytes()
    assert secret.encode() not in raw
    con = sqlite3.connect(tmp_path / "keys.db")
    stored = [r[0] for r in con.execute("SELECT secret_hash FROM api_keys")]
    con.close()
    assert stored and all(secret not in s for s in stored)
