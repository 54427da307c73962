"""ONE contract suite, run on every backend combination (see conftest.COMBOS).

``TestCoreStories`` is the core's own story suite (``tests/unit/core/test_scenarios.py``:
session-3 preference recalled at session 50 with its date, never-call / emergency
exception, budget newer wins with history, hard constraint over inferred interest,
allergy correction v1/v2, jokes and "never mind" not stored, implicit preference after
3 signals, tenant / system_context isolation, device scope, audit, versioning, export
round trip, forget, anonymous merge, ...), collected here with ``mem``/``clock`` bound to
each combination. The tests below add what only matters across stores: verifiable
erase, export from every store, no stale cached profile, the change stream, and the
outbox/pgvector fallback wiring.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from contract_env import Deployment, redis_value
from unit.core import test_scenarios as core

from shared_core import ChangeAction, Kind
from shared_core.storage.redis import RedisKeys

pytestmark = pytest.mark.integration

# the SQLite-file check is replaced by test_forget_erases_every_store (all stores, all files)
_NOT_HERE = {"test_forget_leaves_nothing_in_the_database_file"}


class TestCoreStories:
    """The core's story tests, bound to the combination's ``mem`` and ``clock``."""


for _name in sorted(vars(core)):
    if _name.startswith("test_") and _name not in _NOT_HERE:
        setattr(TestCoreStories, _name, staticmethod(getattr(core, _name)))


def test_every_core_story_is_in_the_contract() -> None:
    stories = {n for n in vars(core) if n.startswith("test_")}
    assert len(stories) >= 25
    assert stories - _NOT_HERE <= set(vars(TestCoreStories))


USER = "erase-me-7c1f"
OTHER = "keep-me-2b9d"
SECRETS = ["zyxwpenicillin", "93817", "Quetzalburg"]


def _fill(mem: Any) -> None:
    mem.observe(USER, "I'm allergic to zyxwpenicillin.", session_id="s1", system_context="health")
    mem.observe(USER, "My budget is 93817.", session_id="s2")
    mem.observe(USER, "I live in Quetzalburg.", session_id="s2", device_id="dev-77")
    mem.remember(USER, "notification.sound", "silent", scope="device", device_id="dev-77")
    mem.end_session(USER, "s1")
    assert mem.recall(USER, "budget", k=3)
    assert mem.profile(USER)  # fills the hot cache where there is one
    mem.observe(OTHER, "I live in Berlin.", session_id="o1")
    assert mem.profile(OTHER)


def test_forget_erases_every_store(deployment: Deployment) -> None:
    mem = deployment.mem
    _fill(mem)
    before = deployment.scan([USER, *SECRETS])
    assert before, "the scanners must see the user's data before the erase"
    if deployment.name != "embedded":
        stores = {h.split()[0] for h in before}
        assert {"postgres", "redis"} <= stores, before
    report = mem.forget(USER)
    vector_rows = {k: v for k, v in report.items() if "vector" in k or "embedding" in k}
    assert sum(vector_rows.values()) > 0, report  # same-database indexes erase with the rows
    assert sum(v for k, v in report.items() if k.startswith("records.")) > 0
    if deployment.name != "embedded":
        assert report["sessions"] >= 1 and report["events"] > 0
    mem.close()  # flush files (WAL/outbox) before reading their bytes
    leftovers = deployment.scan([USER, *SECRETS])
    assert leftovers == []
    # the other user is untouched
    assert any("berlin" in h.lower() for h in deployment.scan(["Berlin"]))


def test_forget_report_and_reads_after_erase(mem: Any) -> None:
    _fill(mem)
    mem.forget(USER)
    assert mem.profile(USER) == {}
    assert mem.recall(USER, "budget 93817", k=5) == []
    assert mem.audit_log(USER) == []
    assert mem.session_turns(USER, "s2") == []
    assert USER not in mem.users()
    assert mem.vectors.ids_for_user(USER) == set()
    assert mem.profile(OTHER)["location.city"] == "Berlin"


def test_export_covers_every_store(mem: Any) -> None:
    mem.observe(USER, "My budget is 93817.", session_id="live")
    mem.remember(USER, "tier", "gold", source="admin_set", kind="fact")
    dump = mem.export(USER)
    values = {r["key"]: r["value"] for r in dump["records"] if r["kind"] != Kind.EPISODE.value}
    assert values["budget.max"] == "93817" and values["tier"] == "gold"
    assert [t["text"] for t in dump["sessions"]["live"]] == ["My budget is 93817."]
    assert dump["vectors"] == len(mem.vectors.ids_for_user(USER)) >= 2
    assert any(a["action"] == "create" for a in dump["audit"])
    assert dump["state"]["turns"] == 1


def test_no_stale_profile_after_a_write(mem: Any) -> None:
    mem.remember(USER, "contact.channel", "email")
    assert mem.profile(USER)["contact.channel"] == "email"  # cached now
    assert mem.profile(USER)["contact.channel"] == "email"  # served from the cache
    mem.remember(USER, "contact.channel", "sms")
    assert mem.profile(USER)["contact.channel"] == "sms"
    mem.observe(USER, "My budget is 5000.")
    assert mem.profile(USER)["budget.max"] == "5000"


def test_changes_are_published_without_values(deployment: Deployment) -> None:
    if deployment.redis_client is None:
        pytest.skip("the embedded combination has no change feed")
    mem = deployment.mem
    mem.observe(USER, "My budget is 93817.")
    stream = RedisKeys(deployment.prefix).stream
    entries = redis_value(deployment.redis_client, stream)
    events = [fields for _, fields in entries]
    assert any(e["key"] == "budget.max" and e["user_id"] == USER for e in events)
    assert "93817" not in str(events)


def test_user_and_context_isolation_in_the_vector_index(mem: Any) -> None:
    mem.observe("alice", "I'm allergic to penicillin.", system_context="health")
    mem.observe("bob", "I'm allergic to pollen.", system_context="health")
    alice = mem.vectors.ids_for_user("alice")
    bob = mem.vectors.ids_for_user("bob")
    assert alice and bob and not alice & bob
    res = mem.recall("bob", "allergic to penicillin", system_context="health", k=5)
    assert res and all(r.record.user_id == "bob" for r in res)


def test_versioning_keeps_every_version(mem: Any, clock: Any) -> None:
    for i, budget in enumerate((5000, 7000, 9000)):
        clock.advance(days=1)
        ch = mem.observe(USER, f"Actually, my budget is {budget} now.", session_id=f"v{i}")
        assert any(c.action in (ChangeAction.ADDED, ChangeAction.UPDATED) for c in ch)
    hist = mem.history(USER, "budget.max")
    assert [h.version for h in hist] == [1, 2, 3]
    assert [h.normalized for h in hist] == ["5000", "7000", "9000"]
    assert sum(1 for h in hist if h.status.value == "active") == 1


def test_postgresql_url_gets_pgvector_or_a_logged_in_process_index(
    deployment: Deployment, caplog: pytest.LogCaptureFixture
) -> None:
    if deployment.name not in ("redis_pg", "redis_pg_pgvector"):
        pytest.skip("only the PostgreSQL 15 / 16 combinations decide about pgvector")
    from shared_core.storage.pgvector import PgVectorIndex
    from shared_core.storage.registry import open_component
    from shared_core.storage.vectors import SqliteVectorIndex

    e = deployment.env
    assert e.records is not None and e.pg_url is not None
    url = f"{e.pg_url}{'&' if '?' in e.pg_url else '?'}schema={e.schema}"
    with caplog.at_level(logging.WARNING):
        idx = open_component(url, "vectors", clock=e.clock)
    try:
        if deployment.name == "redis_pg":
            assert isinstance(idx, SqliteVectorIndex)
            assert any(
                "no pgvector extension" in r.getMessage() and "lost on restart" in r.getMessage()
                for r in caplog.records
            )
        else:
            assert isinstance(idx, PgVectorIndex) and idx.schema == e.schema
    finally:
        idx.close()


def test_redis_cluster_url_scheme_opens_cluster_stores(deployment: Deployment) -> None:
    if not deployment.env.cluster:
        pytest.skip("only the Redis Cluster combination")
    import redis.cluster

    from shared_core.entities import SessionTurn
    from shared_core.storage.registry import open_component

    url = f"{deployment.env.redis_url}?prefix={deployment.prefix}"
    store = open_component(url, "sessions")
    try:
        assert isinstance(store.client, redis.cluster.RedisCluster)
        turn = SessionTurn(role="user", text="hi", turn_id="t1", at=deployment.env.clock.now())
        store.append(USER, "s", turn)
        assert [t.text for t in store.turns(USER, "s")] == ["hi"]
    finally:
        store.close()


def test_resilient_spec_assembles_and_falls_back(
    pg_url: str, redis_url: str, tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    import uuid

    from contract_env import _drop_schema

    from shared_core import UserMemory
    from shared_core.embed import HashingEmbedder
    from shared_core.storage import StorageSpec, open_backend
    from shared_core.storage.outbox import OutboxVectorIndex
    from shared_core.storage.resilient import ResilientSessionStore

    schema = f"p_{uuid.uuid4().hex[:10]}"
    prefix = f"umc:{uuid.uuid4().hex[:10]}:"
    with caplog.at_level(logging.WARNING):
        redis = f"{redis_url}?prefix={prefix}"
        backends = open_backend(
            StorageSpec(
                records=f"{pg_url}?schema={schema}",
                sessions=redis,
                cache=redis,
                events=redis,
                resilient=True,
                outbox=str(tmp_path / "outbox.db"),
            )
        )
    assert any("no pgvector extension" in r.getMessage() for r in caplog.records)
    assert isinstance(backends.vectors, OutboxVectorIndex)
    assert isinstance(backends.sessions, ResilientSessionStore)
    assert backends.metrics is not None
    mem = UserMemory(backends, embedder=HashingEmbedder())
    assert mem.metrics is backends.metrics
    try:
        mem.observe(USER, "My budget is 93817.", session_id="p1")
        assert mem.profile(USER)["budget.max"] == "93817"
        assert [r.record.key for r in mem.recall(USER, "budget", k=1)] == ["budget.max"]
        assert mem.forget(USER)["sessions"] == 1
    finally:
        mem.close()
        _drop_schema(pg_url, schema)
