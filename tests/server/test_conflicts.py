"""Answering a confirmation question: the core's ``resolve_conflict`` and ``conflicts``,
the same over REST with the client, and an end-user token answering its own question."""

from __future__ import annotations

import pytest
from server_support import auth

from shared_core import MemoryDisabledError, NotFoundError, Status, UserMemory
from shared_core.server import UserMemoryClient


def contradict(mem) -> None:
    mem.observe("u1", "Never call me, text me instead.", session_id="s1")
    mem.observe("u1", "You can call me now.", session_id="s2")


def test_the_answer_replaces_a_permanent_value_and_closes_the_question():
    mem = UserMemory("sqlite:///:memory:")
    contradict(mem)
    [open_] = mem.conflicts("u1")
    assert open_.key == "contact.call" and open_.resolved_at is None
    assert mem.profile("u1")["contact.call"] == "never"  # permanent until answered

    rec = mem.resolve_conflict("u1", "contact.call", "allowed")
    assert rec.value == "allowed" and rec.status is Status.ACTIVE
    assert rec.source.value == "user_declare" and rec.provenance.actor == "user"
    assert mem.profile("u1")["contact.call"] == "allowed"
    assert mem.conflicts("u1") == []
    [closed] = mem.conflicts("u1", open_only=False)
    assert closed.id == open_.id and closed.resolved_at is not None
    # nothing is left waiting for confirmation, nothing was deleted
    statuses = [r.status for r in mem.history("u1", "contact.call")]
    assert Status.PENDING not in statuses and len(statuses) == 3
    assert "resolve" in [a.action for a in mem.audit_log("u1")]
    # the answer does not open a new question
    assert mem.conflicts("u1") == []
    mem.close()


def test_keeping_the_old_value_revokes_the_pending_one():
    mem = UserMemory("sqlite:///:memory:")
    contradict(mem)
    mem.resolve_conflict("u1", "contact.call", "never")
    assert mem.profile("u1")["contact.call"] == "never"
    assert mem.conflicts("u1") == []
    by_value = {r.value: r.status for r in mem.history("u1", "contact.call")}
    assert by_value["allowed"] is Status.REVOKED
    mem.close()


def test_no_open_question_and_paused_memory_are_typed_errors():
    mem = UserMemory("sqlite:///:memory:")
    with pytest.raises(NotFoundError):
        mem.resolve_conflict("u1", "contact.call", "allowed")
    contradict(mem)
    mem.set_memory_enabled("u1", False)
    with pytest.raises(MemoryDisabledError):
        mem.resolve_conflict("u1", "contact.call", "allowed")
    assert len(mem.conflicts("u1")) == 1  # nothing written
    mem.close()


def test_resolve_over_the_wire_with_the_client_and_an_end_user_token(http, server):
    _, key = server.key("acme")
    with UserMemoryClient("http://testserver", key, http_client=http) as client:
        contradict(client)
        [c] = client.conflicts("u1")
        assert c.user_id == "u1" and c.key == "contact.call"  # the tenant never leaks
        with pytest.raises(NotFoundError):
            client.resolve_conflict("u1", "diet", "vegan")
        token, _ = client.user_token("u1")
    # the person answers with their own token; another user's question is out of reach
    server.mem.observe("acme/u2", "Never call me.", session_id="x1")
    server.mem.observe("acme/u2", "You can call me now.", session_id="x2")
    r = http.post(
        "/v1/resolve_conflict",
        json={"user_id": "u2", "key": "contact.call", "value": "allowed"},
        headers=auth(token),
    )
    assert r.status_code == 403
    r = http.post(
        "/v1/resolve_conflict",
        json={"user_id": "u1", "key": "contact.call", "value": "allowed"},
        headers=auth(token),
    )
    assert r.status_code == 200, r.text
    assert r.json()["provenance"]["actor"].startswith("user:")
    assert server.mem.conflicts("acme/u1") == [] and len(server.mem.conflicts("acme/u2")) == 1
    assert server.mem.profile("acme/u1")["contact.call"] == "allowed"
