"""The read path reads once (issue 15, item 3): one records read per recall()/context(),
the query parsed once, a channel left out of the RetrievalConfig never queried, and a
public gather/rank seam that the evaluation benchmark uses instead of private steps."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shared_core import (
    Candidates,
    FakeClock,
    InvalidInputError,
    Kind,
    MemoryConfig,
    MemoryRecord,
    RecordFilter,
    RetrievalConfig,
    Status,
    UserMemory,
)
from shared_core.embed import HashingEmbedder
from shared_core.recall import rewrite as rewrite_module
from shared_core.storage.registry import Backends
from shared_core.storage.session import InMemorySessionStore
from shared_core.storage.sqlite import SqliteDatabase, SqliteRecordStore
from shared_core.storage.vectors import SqliteVectorIndex
from tests.counting import Counting as CountingProxy

ROOT = Path(__file__).resolve().parents[3]
T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)
RECORD_READS = ("find", "get", "history")


class Counting(CountingProxy):
    """Counts calls on a real store; ``reads()`` sums the record reads."""

    def reads(self) -> int:
        return sum(self.calls[m] for m in RECORD_READS)


class SpyEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        return super().embed(texts)


def _open(
    cached_rows: int = 100_000, **config: Any
) -> tuple[UserMemory, Counting, Counting, SpyEmbedder]:
    db = SqliteDatabase(":memory:")
    records = Counting(SqliteRecordStore(database=db, max_cached_records=cached_rows))
    vectors = Counting(SqliteVectorIndex(database=db))
    emb = SpyEmbedder()
    mem = UserMemory(
        Backends(records=records, vectors=vectors, sessions=InMemorySessionStore()),
        embedder=emb,
        clock=FakeClock(T0),
        config=MemoryConfig(**config),
    )
    db.release()
    return mem, records, vectors, emb


def _seed(mem: UserMemory) -> None:
    turns = [
        ("s1", "Please text me, I prefer SMS. Never call me after 9pm."),
        ("s1", "I'm allergic to penicillin and I love jazz."),
        ("s2", "We're going to Lisbon in May, keep hotels under 150 euros."),
        ("s2", "Actually email is fine too."),
        ("s3", "What was that jazz bar you recommended?"),
    ]
    for i, (sid, text) in enumerate(turns):
        mem.observe("ada", text, session_id=sid, at=T0 + timedelta(days=i))
        mem.observe(
            "ada",
            f"Noted: {text[:20]}",
            role="assistant",
            session_id=sid,
            at=T0 + timedelta(days=i),
        )
    mem.observe("bob", "Please text me, my name is Bob.", session_id="b1")


@pytest.fixture
def seeded() -> Iterator[tuple[UserMemory, Counting, Counting, SpyEmbedder]]:
    got = _open()
    _seed(got[0])
    got[1].calls.clear()
    got[2].calls.clear()
    got[3].calls = 0
    yield got
    got[0].close()


QUERIES = [
    "How will you tell me my order is ready?",  # no key named: standing profile
    "how should I contact you",  # names contact.: asked keys, stale turns
    "what did we talk about on April 3rd?",  # a named day: the day's episodes
    "what jazz bar did you recommend last time",  # speaker + recency
    "我对什么过敏？",  # Chinese, no dense
]


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("cached_rows", [100_000, 0])
def test_context_and_recall_read_the_users_records_once(query: str, cached_rows: int) -> None:
    mem, records, vectors, _ = _open(cached_rows)
    try:
        _seed(mem)
        records.calls.clear()
        block = mem.context("ada", query, at=T0 + timedelta(days=9))
        assert records.reads() == 1, records.calls
        assert records.calls["lexical_search"] <= 1
        assert vectors.calls["search"] <= 1
        assert "email" in block  # the current contact channel (standing profile or asked key)
        assert "penicillin" in block  # the hard constraint
        records.calls.clear()
        cand = mem.gather("ada", query, k=5, at=T0 + timedelta(days=9))
        # recall() reads the hard rules in a second read only when an inference they could
        # suppress (an interest or a taste) is a candidate and the one read did not list
        # them (a query naming a day reads every record of the context)
        suppressible = any(r.key.startswith(("interest.", "taste.")) for r in cand.records.values())
        second = suppressible and not cand.query.intent.dates
        assert records.reads() == (2 if second else 1), records.calls
    finally:
        mem.close()


def test_context_reads_a_postgres_users_records_once() -> None:
    """The same one read on PostgreSQL (the round trips the one read saves)."""
    store, done = _pg_store()
    records = Counting(store)
    mem = UserMemory(
        Backends(
            records=records,
            vectors=SqliteVectorIndex(":memory:"),
            sessions=InMemorySessionStore(),
        ),
        embedder=HashingEmbedder(),
        clock=FakeClock(T0),
    )
    try:
        _seed(mem)
        for query in QUERIES:
            records.calls.clear()
            block = mem.context("ada", query, at=T0 + timedelta(days=9))
            assert records.reads() == 1, (query, records.calls)
            assert "penicillin" in block
    finally:
        mem.close()
        done()


def test_the_query_is_parsed_once_per_context(seeded: Any, monkeypatch: Any) -> None:
    mem = seeded[0]
    counts: Counter[str] = Counter()
    real_rewrite, real_intent = rewrite_module.rewrite, rewrite_module.detect_intent

    def rewrite(q: str) -> Any:
        counts["rewrite"] += 1
        return real_rewrite(q)

    def detect_intent(q: str) -> Any:
        counts["intent"] += 1
        return real_intent(q)

    monkeypatch.setattr(rewrite_module, "rewrite", rewrite)
    monkeypatch.setattr(rewrite_module, "detect_intent", detect_intent)
    mem.context("ada", "how should I contact you last time?")
    assert counts == {"rewrite": 1, "intent": 1}


@pytest.mark.parametrize(
    ("channels", "lexical", "dense"),
    [(("key",), 0, 0), (("lexical",), 1, 0), (("dense",), 0, 1), (("key", "dense"), 0, 1)],
)
def test_a_channel_left_out_is_not_queried(
    channels: tuple[str, ...], lexical: int, dense: int
) -> None:
    mem, records, vectors, emb = _open(retrieval=RetrievalConfig(channels=channels))
    try:
        _seed(mem)
        records.calls.clear()
        vectors.calls.clear()
        emb.calls = 0
        hits = mem.recall("ada", "how should I contact you about SMS", k=5)
        assert records.calls["lexical_search"] == lexical
        assert vectors.calls["search"] == dense
        assert emb.calls == dense  # the query is embedded only for the dense channel
        assert all(set(h.matched_by) <= set(channels) | {"date"} for h in hits)
        cand = mem.gather("ada", "how should I contact you about SMS", k=5)
        assert [c.name for c in cand.channels] == [
            c for c in ("key", "lexical", "dense") if c in channels
        ]
    finally:
        mem.close()


def test_a_hard_never_still_suppresses_an_inferred_interest() -> None:
    mem, records, _, _ = _open()
    try:
        mem.observe("u", "Please don't ever recommend credit cards to me.", at=T0)
        for n in (8, 12, 15):
            at = T0 + timedelta(days=n)
            mem.observe("u", "I've been looking at credit cards lately.", at=at, session_id=f"s{n}")
        hist = mem.history("u", "interest.credit_cards")
        assert any(h.status is Status.ACTIVE for h in hist)
        records.calls.clear()
        cand = mem.gather("u", "which credit card should I recommend?", k=5)
        assert any(r.key == "interest.credit_cards" for r in cand.records.values())
        assert records.reads() == 2  # the interest is a candidate: the hard rules were read
        assert not any(s.record.key.startswith("interest.") for s in mem.rank(cand))
    finally:
        mem.close()


def test_gather_then_rank_is_recall(seeded: Any) -> None:
    mem = seeded[0]
    for q in QUERIES:
        cand = mem.gather("ada", q, k=5)
        assert isinstance(cand, Candidates)
        assert all(r.user_id == "ada" for r in cand.records.values())
        ranked = [(s.record.id, s.score) for s in mem.rank(cand)]
        assert ranked == [(s.record.id, s.score) for s in mem.recall("ada", q, k=5)]
    lexical = mem.gather("ada", "SMS", retrieval=RetrievalConfig(channels=("lexical",)))
    assert [c.name for c in lexical.channels] == ["lexical"]
    assert all(s.matched_by == ("lexical",) for s in mem.rank(lexical))
    with pytest.raises(InvalidInputError):
        mem.gather("ada", "SMS", retrieval="lexical")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        mem.rank(["not", "candidates"])  # type: ignore[arg-type]


def _pg_store() -> Any:
    """A PostgreSQL record store in a throwaway schema of the shared server (or skip)."""
    import os
    import uuid

    psycopg = pytest.importorskip("psycopg")
    from shared_core.storage.postgres import PostgresRecordStore

    url = os.environ.get("USERMEMORY_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as exc:
        pytest.skip(f"PostgreSQL not reachable at {url}: {exc}")
    schema = f"recall2_{uuid.uuid4().hex[:10]}"
    store = PostgresRecordStore(url, schema=schema, clock=FakeClock(T0), max_size=2)

    def drop() -> None:
        store.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

    return store, drop


@pytest.mark.parametrize("backend", ["sqlite-cached", "sqlite-uncached", "postgres"])
def test_also_ids_lists_the_hits_with_the_predicate(backend: str) -> None:
    if backend == "postgres":
        store, done = _pg_store()
    else:
        store = SqliteRecordStore(
            ":memory:", max_cached_records=100_000 if backend == "sqlite-cached" else 0
        )
        done = store.close
    try:
        from shared_core import WriteBatch

        def rec(rid: str, user: str, kind: Kind, key: str, ctx: str = "default") -> MemoryRecord:
            return MemoryRecord(
                id=rid, user_id=user, kind=kind, key=key, value=key, system_context=ctx,
                created_at=T0, updated_at=T0,
            )  # fmt: skip

        store.apply(
            WriteBatch(
                records=[
                    rec("c1", "ada", Kind.CONSTRAINT, "allergy.drug"),
                    rec("e1", "ada", Kind.EPISODE, "turn:s1:t0"),
                    rec("e2", "ada", Kind.EPISODE, "turn:s1:t1"),
                    rec("e3", "ada", Kind.EPISODE, "turn:s1:t2", ctx="work"),
                    rec("b1", "bob", Kind.EPISODE, "turn:b1:t0"),
                ]
            )
        )
        flt = RecordFilter(user_id="ada", kinds=(Kind.CONSTRAINT,), also_ids=("e2", "e3", "b1"))
        assert {r.id for r in store.find(flt)} == {"c1", "e2"}  # same user and context only
        none = RecordFilter(user_id="ada", statuses=(), also_ids=("e1",))
        assert [r.id for r in store.find(none)] == ["e1"]
        plain = RecordFilter(user_id="ada", kinds=(Kind.CONSTRAINT,))
        assert {r.id for r in store.find(plain)} == {"c1"}
        assert all(r.status is Status.ACTIVE for r in store.find(flt))
    finally:
        done()


def test_evaluate_uses_only_the_public_api() -> None:
    """benchmarks/evaluate.py builds its ablations on gather/rank, not on private steps."""
    tree = ast.parse((ROOT / "benchmarks" / "evaluate.py").read_text("utf-8"))
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    core = {m for m in modules if m.split(".")[0] == "shared_core"}
    assert core <= {"shared_core", "shared_core.embed"}, core
    private = [
        n.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")
    ]
    assert not private, private
    src = (ROOT / "benchmarks" / "evaluate.py").read_text("utf-8")
    assert ".gather(" in src and ".rank(" in src
