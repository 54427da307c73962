"""Recall can opt into the PostgreSQL archive (``include_archive=True``).

A real PostgreSQL record store (one schema per test), the embedded SQLite vector index
and session store, the offline :class:`HashingEmbedder` and a :class:`FakeClock`:
memories are written, the clock moves 200 days, ``archive_older_than(180)`` moves the
stale rows, and recall finds them again only when asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from shared_core import AsyncUserMemory, UserMemory
from shared_core.clock import FakeClock
from shared_core.config import MemoryConfig
from shared_core.embed import HashingEmbedder
from shared_core.entities import Kind, Status
from shared_core.errors import InvalidInputError
from shared_core.recall.retrieve import supports_archive
from shared_core.storage import StorageSpec
from shared_core.storage.postgres import PostgresRecordStore
from shared_core.storage.protocols import ArchiveRecordStore

pytestmark = pytest.mark.integration

START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def clk() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def store(pg_url: str, pg_schema: str, clk: FakeClock) -> Iterator[PostgresRecordStore]:
    with PostgresRecordStore(pg_url, schema=pg_schema, clock=clk, max_size=2) as s:
        yield s


@pytest.fixture
def mem(store: PostgresRecordStore, clk: FakeClock) -> Iterator[UserMemory]:
    """PostgreSQL records; SQLite (in memory) vectors and sessions."""
    m = UserMemory(
        StorageSpec(records=store),
        clock=clk,
        embedder=HashingEmbedder(),
        config=MemoryConfig(),
    )
    yield m
    m.close()


def _seed(mem: UserMemory, clk: FakeClock) -> dict[str, str]:
    """A past conversation about Zanzibar, an explicit preference and an inferred interest."""
    turn = mem.observe("u1", "We talked about planning a trip to Zanzibar with my sister.",
                       session_id="s1")  # fmt: skip
    episode = mem.end_session("u1", "s1")
    assert episode is not None
    pref = mem.remember("u1", "drink.coffee", "oat milk flat white")
    interest = mem.remember(
        "u1", "interest.jazz", "jazz records", kind="preference", source="inferred", confidence=0.9
    )
    assert interest.explicit is False
    assert turn[0].record is not None
    return {
        "turn": turn[0].record.id,
        "episode": episode.id,
        "pref": pref.id,
        "interest": interest.id,
    }


def _age_and_archive(store: PostgresRecordStore, clk: FakeClock) -> int:
    clk.advance(days=200)
    return store.archive_older_than(180, now=clk.now())


def test_postgres_store_declares_its_archive(store: PostgresRecordStore) -> None:
    assert store.supports_archive is True
    assert isinstance(store, ArchiveRecordStore)
    assert supports_archive(store)
    assert store.archived_ids([]) == set()
    assert store.archived_ids(["no-such-id"]) == set()


def test_archived_episode_is_recalled_only_with_include_archive(
    mem: UserMemory, store: PostgresRecordStore, clk: FakeClock
) -> None:
    ids = _seed(mem, clk)
    before = {s.record.id for s in mem.recall("u1", "Zanzibar trip", k=5)}
    assert {ids["turn"], ids["episode"]} <= before  # the query does reach them while live

    moved = _age_and_archive(store, clk)
    assert moved == 3  # the turn, the session episode, the inferred interest
    assert store.archived_ids(list(ids.values())) == {ids["turn"], ids["episode"], ids["interest"]}

    plain = mem.recall("u1", "Zanzibar trip", k=5)
    assert {s.record.id for s in plain}.isdisjoint({ids["turn"], ids["episode"]})

    hits = mem.recall("u1", "Zanzibar trip", k=5, include_archive=True)
    by_id = {s.record.id: s for s in hits}
    assert {ids["turn"], ids["episode"]} <= set(by_id)
    for rid in (ids["turn"], ids["episode"]):
        hit = by_id[rid]
        assert hit.record.kind is Kind.EPISODE
        assert hit.record.status is Status.ACTIVE
        assert hit.record.metadata["archived"] is True
        assert hit.components["archived"] == 1.0
        assert "Zanzibar" in hit.record.value
    # reading the archive does not restore or rewrite the rows
    assert store.get([ids["turn"]]) == []
    archived_row = store.get([ids["turn"]], include_archive=True)
    assert len(archived_row) == 1 and "archived" not in archived_row[0].metadata


def test_live_hits_are_not_marked_archived(
    mem: UserMemory, store: PostgresRecordStore, clk: FakeClock
) -> None:
    ids = _seed(mem, clk)
    _age_and_archive(store, clk)
    assert store.get([ids["pref"]]) != []  # active explicit memories never move
    hits = mem.recall("u1", "how do I like my coffee", include_archive=True)
    assert [s.record.id for s in hits][:1] == [ids["pref"]]
    assert "archived" not in hits[0].components
    assert "archived" not in hits[0].record.metadata


def test_archived_inferred_memory_needs_the_flag(
    mem: UserMemory, store: PostgresRecordStore, clk: FakeClock
) -> None:
    ids = _seed(mem, clk)
    _age_and_archive(store, clk)
    # an inferred interest has faded after 200 days; recall as of the day after it was
    # inferred (``at``) so decay keeps it, and only the archive can still serve it
    then = START + timedelta(hours=6)
    assert ids["interest"] not in {
        s.record.id for s in mem.recall("u1", "jazz records", k=5, at=then)
    }
    hits = mem.recall("u1", "jazz records", k=5, at=then, include_archive=True)
    by_id = {s.record.id: s for s in hits}
    assert ids["interest"] in by_id
    hit = by_id[ids["interest"]]
    assert hit.record.source.value == "inferred"
    assert hit.components["archived"] == 1.0 and hit.record.metadata["archived"] is True
    # today it has faded: even the archive does not resurrect a faded inference
    now_ids = {s.record.id for s in mem.recall("u1", "jazz records", k=5, include_archive=True)}
    assert ids["interest"] not in now_ids


def test_archived_superseded_versions_stay_out_of_recall(
    mem: UserMemory, store: PostgresRecordStore, clk: FakeClock
) -> None:
    old = mem.remember("u1", "diet.type", "vegetarian diet")
    clk.advance(hours=1)
    new = mem.remember("u1", "diet.type", "vegan diet")
    assert _age_and_archive(store, clk) == 1  # the superseded version
    assert store.archived_ids([old.id, new.id]) == {old.id}
    hits = mem.recall("u1", "what diet do I follow", k=5, include_archive=True)
    got = [s.record.id for s in hits]
    assert new.id in got and old.id not in got
    assert [r.status for r in mem.history("u1", "diet.type")] == [
        Status.SUPERSEDED,
        Status.ACTIVE,
    ]


def test_context_can_inject_archived_conversations(
    mem: UserMemory, store: PostgresRecordStore, clk: FakeClock
) -> None:
    _seed(mem, clk)
    _age_and_archive(store, clk)
    assert "Zanzibar" not in mem.context("u1", "the Zanzibar trip")
    assert "Zanzibar" in mem.context("u1", "the Zanzibar trip", include_archive=True)


async def test_async_twin_passes_include_archive(
    mem: UserMemory, store: PostgresRecordStore, clk: FakeClock
) -> None:
    ids = _seed(mem, clk)
    _age_and_archive(store, clk)
    amem = AsyncUserMemory.wrap(mem)  # shares mem's stores; the fixture closes them
    plain = await amem.recall("u1", "Zanzibar trip", k=5)
    assert ids["turn"] not in {s.record.id for s in plain}
    hits = await amem.recall("u1", "Zanzibar trip", k=5, include_archive=True)
    assert ids["turn"] in {s.record.id for s in hits}
    assert "Zanzibar" in await amem.context("u1", "the Zanzibar trip", include_archive=True)


# -- stores without an archive (no PostgreSQL needed) --------------------------------------


@pytest.fixture
def sqlite_mem() -> Iterator[UserMemory]:
    m = UserMemory(
        "sqlite:///:memory:",
        clock=FakeClock(START),
        embedder=HashingEmbedder(),
        config=MemoryConfig(),
    )
    yield m
    m.close()


def test_embedded_sqlite_has_no_archive(sqlite_mem: UserMemory) -> None:
    sqlite_mem.remember("u1", "drink.coffee", "oat milk flat white")
    assert not supports_archive(sqlite_mem.records)
    with pytest.raises(InvalidInputError, match="no archive"):
        sqlite_mem.recall("u1", "coffee", include_archive=True)
    with pytest.raises(InvalidInputError, match="no archive"):
        sqlite_mem.context("u1", "coffee", include_archive=True)
    with pytest.raises(InvalidInputError, match="must be a bool"):
        sqlite_mem.recall("u1", "coffee", include_archive="yes")  # type: ignore[arg-type]
    # the default path is untouched and nothing was lost
    assert [s.record.key for s in sqlite_mem.recall("u1", "coffee")] == ["drink.coffee"]
    assert sqlite_mem.profile("u1") == {"drink.coffee": "oat milk flat white"}


async def test_async_twin_rejects_archive_on_sqlite(sqlite_mem: UserMemory) -> None:
    amem = AsyncUserMemory.wrap(sqlite_mem)
    with pytest.raises(InvalidInputError, match="no archive"):
        await amem.recall("u1", "coffee", include_archive=True)
    with pytest.raises(InvalidInputError, match="no archive"):
        await amem.context("u1", "coffee", include_archive=True)
