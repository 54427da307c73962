"""The REST API through the Python clients: the library's methods, entities and errors."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from server_support import auth

from shared_core import (
    AuditEntry,
    Change,
    ChangeAction,
    InvalidIdError,
    InvalidInputError,
    MemoryDisabledError,
    MemoryRecord,
    NotFoundError,
    ScoredMemory,
    TextTooLargeError,
)
from shared_core.server import AsyncUserMemoryClient, UserMemoryClient

ROOT = Path(__file__).resolve().parents[2]


def test_sync_client_mirrors_the_library(live):
    _, key = live.key("acme")
    with UserMemoryClient(live.url, key) as mem:
        changes = mem.observe("u1", "Never call me, text me instead.", session_id="s1")
        assert all(isinstance(c, Change) for c in changes)
        assert {c.key for c in changes if c.action is ChangeAction.ADDED} >= {"contact.call"}
        assert all(c.record.user_id == "u1" for c in changes if c.record is not None)

        assert mem.profile("u1")["contact.call"] == "never"
        hits = mem.recall("u1", "how should we contact you?", k=3)
        assert hits and all(isinstance(h, ScoredMemory) for h in hits)
        assert hits[0].record.user_id == "u1"
        block = mem.context("u1", "how should we contact you?")
        assert 'contact.call = "never"' in block
        assert '"u1"' in block and "acme/" not in block  # the tenant never leaks into the prompt

        rec = mem.remember("u1", "diet", "vegetarian", kind="preference")
        assert isinstance(rec, MemoryRecord) and rec.value == "vegetarian"
        assert rec.provenance.actor.startswith("key:")  # who wrote it over the wire
        assert [r.value for r in mem.history("u1", "diet")] == ["vegetarian"]

        revoked = mem.forget_key("u1", "diet")
        assert any(c.action is ChangeAction.REVOKED for c in revoked)
        assert "diet" not in mem.profile("u1")

        batch = mem.observe_messages(
            "u1",
            [
                {"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": "I live in Berlin.", "id": "m1"},
                {"role": "assistant", "content": "Noted, Berlin!", "id": "m2"},
            ],
            session_id="s2",
        )
        assert batch and all(isinstance(c, Change) for c in batch)
        assert mem.profile("u1")["location.city"] == "Berlin"
        # the system prompt is skipped, both turns are kept in the one session, in order
        assert [t.text for t in mem.session_turns("u1", "s2")] == [
            "I live in Berlin.",
            "Noted, Berlin!",
        ]
        # the same message ids again are a no-op, as in the library
        mem.observe_messages(
            "u1", [{"role": "user", "content": "I live in Berlin.", "id": "m1"}], session_id="s2"
        )
        assert len(mem.session_turns("u1", "s2")) == 2
        # every message is checked before any is written: a bad role writes nothing
        with pytest.raises(InvalidInputError):
            mem.observe_messages(
                "u1",
                [
                    {"role": "user", "content": "I live in Rome."},
                    {"role": "robot", "content": "beep"},
                ],
            )
        assert mem.profile("u1")["location.city"] == "Berlin"
        assert mem.session_turns("u1", "s1")[0].text == "Never call me, text me instead."
        episode = mem.end_session("u1", "s1")
        assert episode is None or isinstance(episode, MemoryRecord)

        audit = mem.audit_log("u1")
        assert audit and all(isinstance(a, AuditEntry) and a.user_id == "u1" for a in audit)
        assert mem.users() == ["u1"]

        mem.set_memory_enabled("u1", False)
        with pytest.raises(MemoryDisabledError):
            mem.remember("u1", "diet", "vegan")
        mem.set_memory_enabled("u1", True)

        dump = mem.export("u1")
        assert dump["user_id"] == "u1"
        assert all(r["user_id"] == "u1" for r in dump["records"])
        erased = mem.forget("u1")
        assert sum(erased.values()) > 0
        assert mem.profile("u1") == {} and mem.users() == []
        assert mem.import_user(dump) == len(dump["records"])
        assert mem.profile("u1")["contact.call"] == "never"
    # stored under the tenant's namespace, never the bare id
    assert live.mem.users() == ["acme/u1"]


def test_merge_memories_and_expiry_over_the_wire(http, server):
    from datetime import timedelta

    _, key = server.key("acme")
    with UserMemoryClient("http://testserver", key, http_client=http) as mem:
        mem.observe("visitor-7", "I'm vegetarian.")
        changes = mem.merge_anonymous("visitor-7", "ada")
        assert all(isinstance(c, Change) for c in changes)
        assert mem.profile("ada")["diet"] == "vegetarian" and mem.profile("visitor-7") == {}
        [rec] = mem.memories("ada", kinds=["preference"], key_prefix="diet")
        assert rec.user_id == "ada" and rec.key == "diet"
        until = datetime(2030, 1, 1, tzinfo=UTC)
        [updated] = mem.set_expiry("ada", {rec.id: until}, metadata={rec.id: {"note": "x"}})
        assert (updated.id, updated.version, updated.valid_until) == (rec.id, rec.version, until)
        assert mem.memories("ada", key_prefix="diet")[0].metadata["note"] == "x"
        # past its expiry the memory is no longer current
        mem.set_expiry("ada", {rec.id: datetime.now(UTC) - timedelta(days=1)})
        assert "diet" not in mem.profile("ada")
        with pytest.raises(NotFoundError):
            mem.set_expiry("ada", {"0123456789abcdef": None})
    assert sorted(server.mem.users()) == ["acme/ada"]


async def test_async_client_mirrors_the_library(live):
    _, key = live.key("acme")
    async with AsyncUserMemoryClient(live.url, key) as mem:
        await mem.observe("u1", "I'm allergic to penicillin.")
        assert (await mem.profile("u1"))["allergy.medication"] == "penicillin"
        hits = await mem.recall("u1", "which medicine is unsafe?")
        assert hits[0].record.key == "allergy.medication"
        assert "penicillin" in await mem.context("u1", "medicine")
        at = datetime(2026, 1, 2, tzinfo=UTC)
        rec = await mem.remember("u1", "city", "Paris", kind="fact", at=at)
        assert rec.created_at == at


def test_errors_come_back_as_the_library_classes(live):
    _, key = live.key("acme")
    with UserMemoryClient(live.url, key) as mem:
        with pytest.raises(InvalidInputError):
            mem.observe("u1", "   ")
        with pytest.raises(TextTooLargeError):
            mem.observe("u1", "x" * 40_000)
        with pytest.raises(InvalidIdError):
            mem.observe("", "hello")
        with pytest.raises(InvalidInputError):
            mem.remember("u1", "diet", "vegan", kind="nonsense")
        with pytest.raises(InvalidInputError):  # wrong JSON type: schema error, typed
            mem.observe("u1", 42)  # type: ignore[arg-type]
    assert live.mem.users() == []  # nothing was written by any of them


def test_problem_details_have_stable_codes(http, server):
    _, key = server.key("acme")
    r = http.post("/v1/observe", json={"user_id": "u1", "text": ""}, headers=auth(key))
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    doc = r.json()
    assert doc["code"] == "invalid_input" and doc["type"].endswith(":invalid_input")
    assert doc["status"] == 422 and doc["detail"]

    r = http.post("/v1/profile", json={"user_id": "u1"})
    assert (r.status_code, r.json()["code"]) == (401, "unauthorized")
    assert r.headers["www-authenticate"] == "Bearer"

    r = http.post("/v1/recall", json={"user_id": "u1"}, headers=auth(key))
    assert (r.status_code, r.json()["code"]) == (422, "malformed_request")
    assert ["body", "query"] in [e["loc"] for e in r.json()["errors"]]

    r = http.post("/v1/nope", json={}, headers=auth(key))
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    r = http.get("/v1/observe", headers=auth(key))
    assert (r.status_code, r.json()["code"]) == (405, "method_not_allowed")


def test_every_request_is_logged_with_its_key(http, server):
    kid, key = server.key("acme")
    other_kid, other = server.key("acme")
    http.post("/v1/observe", json={"user_id": "u1", "text": "I like tea."}, headers=auth(key))
    http.post("/v1/profile", json={"user_id": "u1"}, headers=auth(other))
    http.post("/v1/profile", json={"user_id": "u1"}, headers=auth("umk_0000000000000000.nope" * 1))
    rows = server.keys.request_log()
    seen = {(r["key_id"], r["path"], r["status"]) for r in rows}
    assert (kid, "/v1/observe", 200) in seen
    assert (other_kid, "/v1/profile", 200) in seen
    assert (None, "/v1/profile", 401) in seen  # refused requests are logged too
    assert all(r["user_id"] in ("u1", None) for r in rows)
    mine = http.post("/v1/requests", json={"limit": 10}, headers=auth(key)).json()["requests"]
    assert {r["key_id"] for r in mine} <= {kid, other_kid, None}
    # the core's own audit log names the key that wrote
    http.post(
        "/v1/remember", json={"user_id": "u1", "key": "diet", "value": "vegan"}, headers=auth(key)
    )
    entries = server.mem.audit_log("acme/u1")
    assert any(e.actor == f"key:{kid}" for e in entries)


def test_health_readiness_metrics_and_openapi(http, server):
    assert http.get("/healthz").json() == {"status": "ok"}
    ready = http.get("/readyz")
    assert ready.status_code == 200
    assert set(ready.json()["stores"]) >= {"records", "vectors", "sessions", "keys"}
    assert all(s["ok"] for s in ready.json()["stores"].values())
    _, key = server.key("acme")
    http.post("/v1/recall", json={"user_id": "u1", "query": "tea"}, headers=auth(key))
    metrics = http.get("/metrics").text
    assert 'usermemory_http_requests_total{method="POST",path="/v1/recall",status="200"}' in metrics
    assert "usermemory_recall_seconds" in metrics
    spec = http.get("/openapi.json").json()
    for name in (
        "observe",
        "observe_messages",
        "conflicts",
        "resolve_conflict",
        "merge_anonymous",
        "remember",
        "recall",
        "context",
        "profile",
        "history",
        "forget_key",
        "forget",
        "export",
        "import",
        "end_session",
        "set_memory_enabled",
        "audit",
    ):
        assert f"/v1/{name}" in spec["paths"], name
    assert "MemoryRecord" in spec["components"]["schemas"]
    assert http.get("/docs").status_code == 200


def test_readiness_names_a_failed_store(http, server):
    server.keys.close()  # the key store is gone
    r = http.get("/readyz")
    assert r.status_code == 503
    assert r.json()["stores"]["keys"]["ok"] is False
    assert r.json()["stores"]["records"]["ok"] is True


def test_transport_failure_is_backend_unavailable():
    from shared_core import BackendUnavailableError

    with (
        UserMemoryClient("http://127.0.0.1:9", "umk_x") as mem,
        pytest.raises(BackendUnavailableError),
    ):
        mem.profile("u1")


def test_importing_the_core_or_the_client_package_loads_no_server_framework():
    code = (
        "import sys, shared_core, shared_core.cli, shared_core.server;"
        "bad=[m for m in sys.modules if m.split('.')[0] in {"
        "'fastapi','starlette','uvicorn','mcp','jwt','httpx','pydantic','multipart'}];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_cors_headers_by_default(http):
    r = http.options(
        "/v1/profile",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in r.headers
    r = http.post("/v1/profile", json={}, headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in r.headers


def test_cors_only_for_configured_origins(tmp_path):
    from fastapi.testclient import TestClient
    from server_support import make_server

    srv = make_server(tmp_path, cors_origins=("https://app.example",))
    with TestClient(srv.app) as c:
        ok = c.options(
            "/v1/profile",
            headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"},
        )
        assert ok.headers["access-control-allow-origin"] == "https://app.example"
        bad = c.options(
            "/v1/profile",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        )
        assert "access-control-allow-origin" not in bad.headers
    srv.keys.close()
    srv.mem.close()


def test_httpx_is_the_transport(live):
    # any HTTP client works: the same call without the Python client
    _, key = live.key("acme")
    r = httpx.post(
        f"{live.url}/v1/remember",
        json={"user_id": "u1", "key": "diet", "value": "vegan"},
        headers=auth(key),
    )
    assert r.status_code == 200 and r.json()["user_id"] == "u1"
