"""PostgresRecordStore against the real PostgreSQL 15 (one schema per test)."""

from __future__ import annotations

import threading
import uuid
from datetime import datetime, timedelta
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import sql

from shared_core.clock import FakeClock
from shared_core.entities import (
    AuditEntry,
    Conflict,
    Kind,
    MemoryRecord,
    Provenance,
    Scope,
    Source,
    Status,
    UserState,
)
from shared_core.errors import (
    BackendUnavailableError,
    ConfigError,
    ConflictError,
    InvalidInputError,
)
from shared_core.storage.postgres import PostgresRecordStore, open_postgres
from shared_core.storage.postgres_sql import POSTGRES_MIGRATIONS, split_postgres_url, user_hash
from shared_core.storage.protocols import RecordFilter, RecordStore, WriteBatch

pytestmark = pytest.mark.integration


def rec(
    clock: FakeClock, user: str = "u1", key: str = "contact.call", value: str = "sms", **kw: Any
) -> MemoryRecord:
    now = kw.pop("at", clock.now())
    return MemoryRecord(
        user_id=user,
        kind=kw.pop("kind", Kind.PREFERENCE),
        key=key,
        value=value,
        normalized=kw.pop("normalized", value.lower()),
        created_at=now,
        updated_at=now,
        **kw,
    )


def supersede(
    store: PostgresRecordStore, old: MemoryRecord, value: str, at: datetime
) -> MemoryRecord:
    new = old.replace(
        id=uuid.uuid4().hex,
        value=value,
        normalized=value.lower(),
        version=old.version + 1,
        supersedes=old.id,
        created_at=at,
        updated_at=at,
    )
    store.apply(WriteBatch(records=[old.replace(status=Status.SUPERSEDED, updated_at=at), new]))
    return new


def test_is_a_record_store(pg_store: PostgresRecordStore) -> None:
    assert isinstance(pg_store, RecordStore)


def test_migrations_recorded_and_idempotent(pg_url: str, pg_schema: str) -> None:
    first = PostgresRecordStore(pg_url, schema=pg_schema)
    try:
        names = [m.name for m in POSTGRES_MIGRATIONS]
        assert first.applied == names
        assert names[:2] == ["initial_schema", "profile_functions"]
        assert first.applied_migrations() == [(m.id, m.name) for m in POSTGRES_MIGRATIONS]
    finally:
        first.close()
    second = PostgresRecordStore(pg_url, schema=pg_schema)
    try:
        assert second.applied == []
        assert second.migrate() == []
        assert [name for _, name in second.applied_migrations()] == names
    finally:
        second.close()
    with psycopg.connect(pg_url) as conn:
        n = conn.execute(
            sql.SQL("SELECT count(*) FROM {}._usermemory_migrations").format(
                sql.Identifier(pg_schema)
            )
        ).fetchone()
        assert n == (len(POSTGRES_MIGRATIONS),)


def test_concurrent_openers_migrate_once(pg_url: str, pg_schema: str) -> None:
    results: list[list[str]] = []
    errors: list[BaseException] = []

    def opener() -> None:
        try:
            s = PostgresRecordStore(pg_url, schema=pg_schema, max_size=1)
            results.append(s.applied)
            s.close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(len(r) for r in results) == [0, 0, 0, len(POSTGRES_MIGRATIONS)]


def test_roundtrip_preserves_every_field(pg_store: PostgresRecordStore, clock: FakeClock) -> None:
    r = rec(
        clock,
        value="Text me — 不要打电话",
        source=Source.TOOL_PARSE,
        confidence=0.8125,
        valid_until=clock.now() + timedelta(days=3),
        permanent=True,
        hard=True,
        explicit=False,
        scope=Scope.DEVICE,
        scope_ref="device:phone",
        system_context="work",
        evidence=3,
        provenance=Provenance(
            session_id="s1",
            turn_id="t1",
            turn_index=4,
            at=clock.now(),
            span="text me",
            role="user",
            actor="user",
        ),
        metadata={"nested": {"a": [1, 2]}, "flag": True},
    )
    pg_store.apply(WriteBatch(records=[r]))
    assert pg_store.get([r.id]) == [r]
    assert pg_store.find(RecordFilter(user_id="u1", system_context="work")) == [r]
    assert pg_store.find(RecordFilter(user_id="u1")) == []  # other context
    assert pg_store.history("u1", "contact.call") == [r]


def ids(records: list[MemoryRecord]) -> list[str]:
    return [r.id for r in records]


def test_find_filters(pg_store: PostgresRecordStore, clock: FakeClock) -> None:
    a = rec(clock, key="contact.call", value="sms")
    clock.advance(seconds=1)
    b = rec(clock, key="contact.email", value="weekly", kind=Kind.FACT)
    clock.advance(seconds=1)
    c = rec(clock, key="contactless", value="yes", scope=Scope.DEVICE, scope_ref="device:d1")
    clock.advance(seconds=1)
    d = rec(clock, key="diet", value="vegan", status=Status.PENDING)
    pg_store.apply(WriteBatch(records=[a, b, c, d]))
    assert ids(pg_store.find(RecordFilter(user_id="u1"))) == [c.id, b.id, a.id]
    assert ids(pg_store.find(RecordFilter(user_id="u1", key_prefixes=("contact.",)))) == [
        b.id,
        a.id,
    ]
    assert ids(pg_store.find(RecordFilter(user_id="u1", kinds=(Kind.FACT,)))) == [b.id]
    assert ids(pg_store.find(RecordFilter(user_id="u1", exclude_kinds=(Kind.FACT,)))) == [
        c.id,
        a.id,
    ]
    assert ids(pg_store.find(RecordFilter(user_id="u1", scope_refs=("",)))) == [b.id, a.id]
    assert ids(pg_store.find(RecordFilter(user_id="u1", statuses=None))) == [d.id, c.id, b.id, a.id]
    assert ids(pg_store.find(RecordFilter(user_id="u1", value_normalized="sms"))) == [a.id]
    assert ids(pg_store.find(RecordFilter(user_id="u1", limit=1))) == [c.id]
    assert ids(
        pg_store.find(RecordFilter(user_id="u1", keys=("diet",), statuses=(Status.PENDING,)))
    ) == [d.id]
    # LIKE metacharacters in a prefix are literal
    assert pg_store.find(RecordFilter(user_id="u1", key_prefixes=("contact%",))) == []
    assert pg_store.find(RecordFilter(user_id="u2")) == []


def test_unique_active_slot_is_enforced(pg_store: PostgresRecordStore, clock: FakeClock) -> None:
    a = rec(clock, value="sms")
    pg_store.apply(WriteBatch(records=[a]))
    b = rec(clock, value="call")  # same slot, new id, also active
    audit = AuditEntry(user_id="u1", action="create", record_id=b.id, at=clock.now())
    with pytest.raises(ConflictError):
        pg_store.apply(WriteBatch(records=[b], audit=[audit]))
    assert pg_store.get([b.id]) == []
    assert pg_store.audit_log("u1") == []  # the whole batch rolled back
    # the same key in another scope, kind or context is another slot
    others = [
        rec(clock, value="x", scope=Scope.DEVICE, scope_ref="device:d"),
        rec(clock, value="y", kind=Kind.FACT),
        rec(clock, value="z", system_context="work"),
    ]
    pg_store.apply(WriteBatch(records=others))
    assert len(pg_store.find(RecordFilter(user_id="u1", system_context=None))) == 4


def test_optimistic_lock_on_version(pg_store: PostgresRecordStore, clock: FakeClock) -> None:
    v1 = rec(clock, value="sms")
    pg_store.apply(WriteBatch(records=[v1]))
    # writer A replaces v1 by v2; writer B, who also read v1, tries the same
    v2 = supersede(pg_store, v1, "email", clock.advance(minutes=1))
    stale = v1.replace(id=uuid.uuid4().hex, value="call", version=2, supersedes=v1.id)
    with pytest.raises(ConflictError):
        pg_store.apply(WriteBatch(records=[v1.replace(status=Status.SUPERSEDED), stale]))
    # a write carrying another version than the stored row touches nothing
    with pytest.raises(ConflictError, match="changed concurrently"):
        pg_store.apply(WriteBatch(records=[v2.replace(version=7, value="hacked")]))
    assert [r.value for r in pg_store.find(RecordFilter(user_id="u1"))] == ["email"]
    # same version: an in-place update (e.g. reinforcement) applies
    pg_store.apply(WriteBatch(records=[v2.replace(evidence=2, confidence=0.99)]))
    assert pg_store.get([v2.id])[0].evidence == 2


def test_concurrent_writers_one_wins(pg_store: PostgresRecordStore, clock: FakeClock) -> None:
    base = rec(clock, value="sms")
    pg_store.apply(WriteBatch(records=[base]))
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def writer(i: int) -> None:
        new = base.replace(id=uuid.uuid4().hex, value=f"v{i}", version=2, supersedes=base.id)
        barrier.wait()
        try:
            pg_store.apply(WriteBatch(records=[base.replace(status=Status.SUPERSEDED), new]))
            outcomes.append("ok")
        except ConflictError:
            outcomes.append("conflict")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "conflict", "conflict", "ok"]
    assert len(pg_store.find(RecordFilter(user_id="u1"))) == 1


def test_failed_batch_leaves_nothing(pg_store: PostgresRecordStore, clock: FakeClock) -> None:
    good = rec(clock, key="a", value="fine")
    lone = rec(clock, key="c", value="surrogate \udc80")
    with pytest.raises(InvalidInputError):
        pg_store.apply(WriteBatch(records=[good, lone]))
    with pytest.raises(InvalidInputError):
        pg_store.apply(
            WriteBatch(records=[good, rec(clock, key="d", value="x", metadata={"o": object()})])
        )
    with pytest.raises(InvalidInputError):
        pg_store.apply(
            WriteBatch(records=[good, rec(clock, key="e", value="x").replace(kind="nope")])
        )
    assert pg_store.find(RecordFilter(user_id="u1", statuses=None)) == []
    assert pg_store.users() == []


def test_nul_and_escape_characters_round_trip(
    pg_store: PostgresRecordStore, clock: FakeClock
) -> None:
    # PostgreSQL text/jsonb cannot hold NUL: the store escapes it reversibly (U+E000 prefix).
    user = "nul\x00user\ue000"
    r = rec(
        clock,
        user=user,
        key="k\x00.\ue000e",
        value="a\x00b \ue0000 penicillin",
        provenance=Provenance(span="sp\x00an"),
        metadata={"k\x00": ["v\x00", "\ue000"]},
    )
    a = AuditEntry(
        user_id=user, action="create", record_id=r.id, at=clock.now(), detail={"x": "\x00"}
    )
    pg_store.apply(WriteBatch(records=[r], audit=[a]))
    assert pg_store.get([r.id]) == [r]
    assert pg_store.find(RecordFilter(user_id=user, key_prefixes=("k\x00",))) == [r]
    assert pg_store.find(RecordFilter(user_id=user, key_prefixes=("k\ue000",))) == []
    assert pg_store.audit_log(user) == [a]
    assert [
        h.record_id for h in pg_store.lexical_search(user, "default", "penicillin", limit=2)
    ] == [r.id]
    assert pg_store.users() == [user]
    assert pg_store.find(RecordFilter(user_id="nul\ue0000user\ue000e")) == []  # no aliasing


def test_a_schema_with_the_profile_document_loses_only_that(
    pg_url: str, pg_schema: str, clock: FakeClock
) -> None:
    # a schema migrated by a version that kept the JSONB profile (migrations 1-2), with data
    from shared_core.storage.migrations import run_migrations
    from shared_core.storage.postgres_sql import POSTGRES_MIGRATIONS, postgres_dialect

    ident = sql.Identifier(pg_schema)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(ident))
        conn.execute(sql.SQL("SET search_path TO {}").format(ident))
        run_migrations(conn, POSTGRES_MIGRATIONS[:2], dialect=postgres_dialect(pg_schema))
        conn.execute(
            "INSERT INTO profiles VALUES ('u1', %s, now())",
            ('{"default": {"global": {"k": "v"}}}',),
        )
    with PostgresRecordStore(pg_url, schema=pg_schema, clock=clock) as store:
        assert store.applied == [m.name for m in POSTGRES_MIGRATIONS[2:]]  # 3 drops it
        r = rec(clock)
        store.apply(WriteBatch(records=[r]))
        assert store.get([r.id]) == [r]
    with psycopg.connect(pg_url) as conn:
        left = conn.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = %s AND c.relname = 'profiles'",
            (pg_schema,),
        ).fetchone()
        functions = conn.execute(
            "SELECT count(*) FROM pg_proc WHERE proname LIKE 'um_jsonb_%%'"
            " AND pronamespace = %s::regnamespace",
            (pg_schema,),
        ).fetchone()
    assert left == (0,) and functions == (0,)


def test_conflicts_audit_and_user_state(pg_store: PostgresRecordStore, clock: FakeClock) -> None:
    a = rec(clock)
    c = Conflict(
        user_id="u1",
        system_context="default",
        key="contact.call",
        record_ids=(a.id, "x"),
        reason="contradiction",
        question="SMS or call?",
        detected_at=clock.now(),
    )
    entries = [
        AuditEntry(user_id="u1", action="create", record_id=a.id, at=clock.now(), detail={"v": 1}),
        AuditEntry(user_id="u1", action="conflict", at=clock.now(), detail={"v": 2}),
    ]
    state = UserState(
        user_id="u1",
        memory_enabled=False,
        sessions=2,
        turns=9,
        first_seen=clock.now(),
        last_seen=clock.now(),
        last_session_id="s9",
    )
    pg_store.apply(WriteBatch(records=[a], audit=entries, conflicts=[c], user_state=state))
    assert pg_store.conflicts("u1") == [c]
    assert pg_store.user_state("u1") == state
    assert [e.detail["v"] for e in pg_store.audit_log("u1")] == [1, 2]
    assert [e.detail["v"] for e in pg_store.audit_log("u1", limit=1)] == [2]
    when = clock.advance(minutes=5)
    pg_store.apply(WriteBatch(resolved_conflicts=[(c.id, when)]))
    assert pg_store.conflicts("u1") == []
    assert pg_store.conflicts("u1", None, open_only=False)[0].resolved_at == when
    assert pg_store.users() == ["u1"]
    assert pg_store.user_state("nobody") is None


EN_ZH = [
    ("allergy.medication", "I am allergic to penicillin"),
    ("allergy.food", "我对青霉素过敏"),
    ("contact.call", "Text me, don't call"),
    ("hobby", "周末喜欢去爬山"),
]


def _seed_lexical(store: PostgresRecordStore, clock: FakeClock) -> dict[str, str]:
    ids: dict[str, str] = {}
    for key, value in EN_ZH:
        r = rec(clock, key=key, value=value)
        ids[key] = r.id
        store.apply(WriteBatch(records=[r]))
        clock.advance(seconds=1)
    other = rec(clock, user="u2", key="allergy.medication", value="penicillin 青霉素")
    ctx = rec(clock, key="allergy.x", value="penicillin 青霉素", system_context="work")
    store.apply(WriteBatch(records=[other, ctx]))
    return ids


def test_lexical_search_english_and_chinese(
    pg_store: PostgresRecordStore, clock: FakeClock
) -> None:
    ids = _seed_lexical(pg_store, clock)
    en = pg_store.lexical_search("u1", "default", "penicillin allergies?", limit=5)
    assert en[0].record_id == ids["allergy.medication"]
    assert all(h.score > 0 for h in en)
    zh = pg_store.lexical_search("u1", "default", "青霉素过敏吗", limit=5)
    assert zh[0].record_id == ids["allergy.food"]
    assert ids["hobby"] not in {h.record_id for h in zh}
    hike = pg_store.lexical_search("u1", "default", "爬山", limit=5)
    assert [h.record_id for h in hike] == [ids["hobby"]]
    # isolation: the other user's and the other context's rows never come back
    every = {
        h.record_id
        for q in ("penicillin", "青霉素", "allergy")
        for h in pg_store.lexical_search("u1", "default", q, limit=50)
    }
    assert every <= set(ids.values())
    assert pg_store.lexical_search("u1", "default", "penicillin", limit=0) == []
    assert pg_store.lexical_search("u1", "default", "   ", limit=5) == []
    assert pg_store.lexical_search("u1", "default", "", limit=5) == []


HOSTILE = [
    "'",
    "''",
    "\\",
    "\\'",
    "a & b | !c",
    "penicillin:*",
    "(penicillin",
    "penicillin) | (",
    "!!!",
    "&|!:*()",
    "'penicillin' & '青霉素'",
    "' OR 1=1 --",
    "<-> <2> penicillin",
    "penicillin\\",
    "'; DROP TABLE records; --",
    '"penicillin"',
    "青霉素' | '",
    "\x00penicillin",
]


@pytest.mark.parametrize("query", HOSTILE)
def test_lexical_search_treats_syntax_as_text(
    pg_store: PostgresRecordStore, clock: FakeClock, query: str
) -> None:
    ids = _seed_lexical(pg_store, clock)
    hits = pg_store.lexical_search("u1", "default", query, limit=5)
    assert {h.record_id for h in hits} <= set(ids.values())
    if "penicillin" in query:
        assert ids["allergy.medication"] in {h.record_id for h in hits}
    assert len(pg_store.find(RecordFilter(user_id="u1"))) == 4  # nothing dropped


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=40))
def test_lexical_search_never_raises_on_any_text(pg_store: PostgresRecordStore, text: str) -> None:
    pg_store.lexical_search("u1", "default", text, limit=3)


def test_records_with_hostile_text_are_indexed(
    pg_store: PostgresRecordStore, clock: FakeClock
) -> None:
    r = rec(clock, key="weird", value="it's a \\back\\slash & (pipe|bang!) :* test")
    pg_store.apply(WriteBatch(records=[r]))
    assert [
        h.record_id
        for h in pg_store.lexical_search("u1", "default", "backslash? slash pipe", limit=3)
    ] == [r.id]


def _seed_archive(store: PostgresRecordStore, clock: FakeClock) -> dict[str, MemoryRecord]:
    old = clock.now()
    rs = {
        "superseded": rec(clock, key="k.sup", value="old-sup", status=Status.SUPERSEDED),
        "revoked": rec(clock, key="k.rev", value="old-rev", status=Status.REVOKED),
        "episode": rec(clock, key="episode.1", value="old talk about zanzibar", kind=Kind.EPISODE),
        "implicit": rec(
            clock, key="k.imp", value="likes jazz", explicit=False, source=Source.INFERRED
        ),
        "expired": rec(clock, key="k.exp", value="in paris", valid_until=old + timedelta(days=2)),
        "explicit": rec(clock, key="k.keep", value="vegetarian"),
        "permanent": rec(
            clock, key="k.perm", value="never call", permanent=True, status=Status.SUPERSEDED
        ),
        "hard": rec(clock, key="k.hard", value="no peanuts", hard=True, status=Status.REVOKED),
    }
    store.apply(WriteBatch(records=list(rs.values())))
    clock.advance(days=200)
    rs["recent"] = rec(clock, key="k.new", value="recent-sup", status=Status.SUPERSEDED)
    store.apply(WriteBatch(records=[rs["recent"]]))
    return rs


def test_archive_moves_exactly_the_stale_rows(
    pg_store: PostgresRecordStore, clock: FakeClock
) -> None:
    rs = _seed_archive(pg_store, clock)
    moved = pg_store.archive_older_than(180, now=clock.now())
    assert moved == 5
    live = {r.id for r in pg_store.find(RecordFilter(user_id="u1", statuses=None))}
    assert live == {rs[n].id for n in ("explicit", "permanent", "hard", "recent")}
    everything = {
        r.id for r in pg_store.find(RecordFilter(user_id="u1", statuses=None), include_archive=True)
    }
    assert everything == {r.id for r in rs.values()}
    assert pg_store.get([rs["episode"].id]) == []
    assert pg_store.get([rs["episode"].id], include_archive=True) == [rs["episode"]]
    assert pg_store.history("u1", "k.sup") == [rs["superseded"]]
    # lexical search finds archived rows only when asked
    assert pg_store.lexical_search("u1", "default", "zanzibar", limit=3) == []
    hits = pg_store.lexical_search("u1", "default", "zanzibar", limit=3, include_archive=True)
    assert [h.record_id for h in hits] == [rs["episode"].id]
    assert [a.detail["count"] for a in pg_store.audit_log("u1") if a.action == "archive"] == [5]
    assert pg_store.archive_older_than(180, now=clock.now()) == 0
    # writing an archived record brings it back (no duplicate id in both tables)
    back = rs["implicit"].replace(updated_at=clock.now(), evidence=2)
    pg_store.apply(WriteBatch(records=[back]))
    assert pg_store.get([back.id]) == [back]
    assert len(pg_store.get([back.id], include_archive=True)) == 1


def test_archive_is_one_transaction(pg_url: str, pg_schema: str, clock: FakeClock) -> None:
    with PostgresRecordStore(pg_url, schema=pg_schema, clock=clock) as store:
        _check_archive_atomic(store, pg_url, clock)


def _check_archive_atomic(pg_store: PostgresRecordStore, pg_url: str, clock: FakeClock) -> None:
    _seed_archive(pg_store, clock)
    ident = sql.Identifier(pg_store.schema)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL(
                "CREATE FUNCTION {}.boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                "IF NEW.key = 'k.exp' THEN RAISE EXCEPTION 'injected failure'; END IF; "
                "RETURN NEW; END $$"
            ).format(ident)
        )
        conn.execute(
            sql.SQL(
                "CREATE TRIGGER boom BEFORE INSERT ON {}.records_archive FOR EACH ROW "
                "EXECUTE FUNCTION {}.boom()"
            ).format(ident, ident)
        )
    before = pg_store.find(RecordFilter(user_id="u1", statuses=None))
    with pytest.raises(Exception, match="injected failure"):
        pg_store.archive_older_than(180, now=clock.now())
    assert pg_store.find(RecordFilter(user_id="u1", statuses=None)) == before
    assert pg_store.find(RecordFilter(user_id="u1", statuses=None), include_archive=True) == before
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP TRIGGER boom ON {}.records_archive").format(ident))
    assert pg_store.archive_older_than(180, now=clock.now()) == 5


def _rows_mentioning(pg_url: str, schema: str, needle: str) -> dict[str, int]:
    found: dict[str, int] = {}
    with psycopg.connect(pg_url) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
                "AND table_type = 'BASE TABLE'",
                (schema,),
            )
        ]
        assert "records" in tables and "tombstones" in tables
        for t in tables:
            q = sql.SQL("SELECT count(*) FROM {}.{} t WHERE row_to_json(t)::text ILIKE %s").format(
                sql.Identifier(schema), sql.Identifier(t)
            )
            row = conn.execute(q, (f"%{needle}%",)).fetchone()
            assert row is not None
            if row[0]:
                found[t] = row[0]
    return found


def test_erase_user_leaves_only_a_tombstone(
    pg_store: PostgresRecordStore, pg_url: str, clock: FakeClock
) -> None:
    user = "erase-me-Ω-42"
    values = ["Zanzibar-Avenue-17", "瓦尔登湖边的小屋", "penicillinXYZ"]
    recs = [
        rec(clock, user=user, key=f"k{i}", value=v, provenance=Provenance(span=v))
        for i, v in enumerate(values)
    ]
    audit = [
        AuditEntry(
            user_id=user, action="create", record_id=r.id, at=clock.now(), detail={"value": r.value}
        )
        for r in recs
    ]
    conflict = Conflict(
        user_id=user,
        system_context="default",
        key="k0",
        record_ids=(recs[0].id,),
        reason=values[0],
        question=f"{values[0]}?",
        detected_at=clock.now(),
    )
    state = UserState(user_id=user, sessions=1, turns=3, last_session_id="s1")
    keeper = rec(clock, user="keeper", key="k0", value="stays")
    pg_store.apply(
        WriteBatch(records=[*recs, keeper], audit=audit, conflicts=[conflict], user_state=state)
    )
    clock.advance(days=400)
    pg_store.apply(WriteBatch(records=[recs[0].replace(status=Status.SUPERSEDED)]))
    clock.advance(days=400)
    assert pg_store.archive_older_than(180, now=clock.now()) == 1
    for needle in [user, *values]:
        assert _rows_mentioning(pg_url, pg_store.schema, needle), needle  # the scan sees them

    counts = pg_store.erase_user(user, at=clock.now())
    assert counts["records"] == 2 and counts["records_archive"] == 1
    assert counts["audit"] == 4 and counts["conflicts"] == 1
    assert counts["users"] == 1 and "profiles" not in counts
    for needle in [user, *values, recs[0].id]:
        assert _rows_mentioning(pg_url, pg_store.schema, needle) == {}, needle
    assert pg_store.erased_at(user) == clock.now()
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            sql.SQL("SELECT user_hash FROM {}.tombstones").format(sql.Identifier(pg_store.schema))
        ).fetchall()
    assert rows == [(user_hash(user),)]
    assert user not in pg_store.users() and "keeper" in pg_store.users()
    assert [r.value for r in pg_store.find(RecordFilter(user_id="keeper"))] == ["stays"]
    assert pg_store.export_user(user)["records"] == []


def test_export_user(pg_store: PostgresRecordStore, clock: FakeClock) -> None:
    rs = _seed_archive(pg_store, clock)
    pg_store.archive_older_than(180, now=clock.now())
    data = pg_store.export_user("u1")
    assert {r["id"] for r in data["records"]} == {r.id for r in rs.values()}
    assert len(data["archived_ids"]) == 5
    assert "profile" not in data  # derived from the records, not stored
    assert data["audit"][0]["action"] == "archive"


def test_pool_reconnects_after_backends_are_terminated(
    pg_url: str, pg_schema: str, clock: FakeClock
) -> None:
    app = f"um-reconnect-{uuid.uuid4().hex[:8]}"
    store = PostgresRecordStore(
        pg_url, schema=pg_schema, clock=clock, min_size=2, max_size=2, application_name=app
    )
    try:
        r = rec(clock)
        store.apply(WriteBatch(records=[r]))
        with psycopg.connect(pg_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = %s",
                (app,),
            ).fetchone()
        assert killed is not None and killed[0] >= 1
        for _ in range(3):  # every pooled connection was dead; each call still succeeds
            assert store.get([r.id]) == [r]
        store.apply(WriteBatch(records=[rec(clock, key="after", value="restart")]))
        assert len(store.find(RecordFilter(user_id="u1"))) == 2
    finally:
        store.close()


def test_unreachable_server_is_backend_unavailable() -> None:
    with pytest.raises(BackendUnavailableError):
        PostgresRecordStore(
            "postgresql://postgres@127.0.0.1:1/test", timeout=1.5, connect_timeout=1
        )


def test_config_errors(pg_url: str) -> None:
    with pytest.raises(ConfigError):
        PostgresRecordStore(pg_url, schema="Bad-Schema; DROP")
    with pytest.raises(ConfigError):
        open_postgres("mysql://x/y")
    with pytest.raises(ConfigError):
        open_postgres(pg_url + "?pool_max=lots")
    url, ours = split_postgres_url("postgres://u@h:1/db?schema=abc&sslmode=disable&pool_max=3")
    assert url == "postgresql://u@h:1/db?sslmode=disable"
    assert ours == {"schema": "abc", "pool_max": "3"}


def test_open_postgres_from_url(pg_url: str, pg_schema: str, clock: FakeClock) -> None:
    store = open_postgres(f"{pg_url}?schema={pg_schema}&pool_max=2", clock=clock)
    try:
        assert store.schema == pg_schema
        store.apply(WriteBatch(records=[rec(clock)]))
        assert store.users() == ["u1"]
    finally:
        store.close()
