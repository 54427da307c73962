"""The decoded-record cache of SqliteRecordStore (and the vector index's external-write check).

The cache must never answer with a stale row or another user's row: every test compares
the cached store with an uncached reader of the same file (``max_cached_records=0``),
after writes through the cached store, through another store on the same connection, and
through another connection (another process, as far as SQLite can tell).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from contract.record_store_contract import T0, rec, uid
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_core.entities import AuditEntry, Kind, MemoryRecord, Provenance, Scope, Status
from shared_core.errors import BackendError
from shared_core.storage import lexical, sqlite_base
from shared_core.storage.protocols import RecordFilter, VectorItem, WriteBatch
from shared_core.storage.sqlite import SqliteRecordStore
from shared_core.storage.sqlite_base import SqliteDatabase, decode_record
from shared_core.storage.vectors import SqliteVectorIndex

FILTERS: tuple[dict[str, Any], ...] = (
    {},
    {"system_context": None, "statuses": None},
    {"statuses": None},
    {"statuses": (Status.SUPERSEDED, Status.REVOKED)},
    {"kinds": (Kind.CONSTRAINT,)},
    {"exclude_kinds": (Kind.EPISODE,), "statuses": None},
    {"keys": ("diet", "contact.call")},
    {"key_prefixes": ("contact.",), "statuses": None},
    {"key_prefixes": ("CONTACT.",)},  # LIKE is case-insensitive; the match must not be
    {"key_prefixes": ("",)},
    {"scope_refs": ("", "device:d1")},
    {"value_normalized": "sms"},
    {"limit": 2, "statuses": None},
    {"limit": 0},
    {"system_context": "work", "statuses": None},
)


def same(a: list[MemoryRecord], b: list[MemoryRecord]) -> None:
    assert [r.to_dict() for r in a] == [r.to_dict() for r in b]


def check_same_view(cached: SqliteRecordStore, plain: SqliteRecordStore, users: list[str]) -> None:
    """Every read of the cached store equals the uncached store's."""
    for u in users:
        all_rows = plain.find(RecordFilter(user_id=u, system_context=None, statuses=None))
        for kw in FILTERS:
            flt = RecordFilter(user_id=u, **kw)
            same(cached.find(flt), plain.find(flt))
        ids = [r.id for r in all_rows] + ["no-such-id"]
        key = lambda r: r.id  # noqa: E731
        same(sorted(cached.get(ids), key=key), sorted(plain.get(ids), key=key))
        for ctx in ("default", "work"):
            for q in ("sms text", "peanut allergy", "call me"):
                for sts in ((Status.ACTIVE,), (Status.ACTIVE, Status.SUPERSEDED)):
                    assert cached.lexical_search(u, ctx, q, limit=5, statuses=sts) == (
                        plain.lexical_search(u, ctx, q, limit=5, statuses=sts)
                    )


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[SqliteRecordStore, SqliteRecordStore]]:
    cached = SqliteRecordStore(tmp_path / "m.db")
    plain = SqliteRecordStore(tmp_path / "m.db", max_cached_records=0)
    yield cached, plain
    cached.close()
    plain.close()


def test_decode_record_equals_the_generic_path() -> None:
    r = rec(
        "u1",
        "allergy.medication",
        "Penicillin 青霉素",
        kind=Kind.CONSTRAINT,
        hard=True,
        permanent=True,
        scope=Scope.DEVICE,
        scope_ref="device:d1",
        valid_until=T0 + timedelta(days=3),
        provenance=Provenance(session_id="s", turn_index=2, at=T0, span="I'm allergic"),
        metadata={"a": [1, "x"], "n": None},
        supersedes="old",
    )
    with SqliteRecordStore(max_cached_records=0) as s:
        s.apply(WriteBatch(records=[r]))
        row = s.db.conn.execute("SELECT * FROM records").fetchone()
        cols = [d[0] for d in s.db.conn.execute("SELECT * FROM records").description]
    d = dict(zip(cols, row, strict=True))
    fast = decode_record([d[c] for c in cols if c not in ("uid", "lex")])
    assert fast == r
    assert fast.to_dict() == r.to_dict()
    empty = rec("u1", "diet", "vegan")
    with SqliteRecordStore() as s:
        s.apply(WriteBatch(records=[empty]))
        got = s.get([empty.id])[0]
    assert got == empty and got.metadata == {} and got.provenance == Provenance()


_PROVENANCE_TEXTS = (
    json.dumps(
        Provenance(
            session_id="s", turn_id="t1", turn_index=2, at=T0, span="x", role="user"
        ).to_dict(),
        sort_keys=True,
    ),
    ' {"at": null}',  # leading whitespace: the generic path
    '{"at": "2026-01-01T00:00:00+08:00", "extra": 1}',
    "{}",
    '{"span": "a\\u0000b", "turn_index": 3} ',
)


@pytest.mark.parametrize("text", _PROVENANCE_TEXTS)
def test_provenance_parse_equals_the_generic_path(text: str) -> None:
    fast = sqlite_base._provenance.__wrapped__(text)  # not the memoised one
    slow = Provenance.from_dict(json.loads(text))
    assert fast == slow and fast.to_dict() == slow.to_dict()


@pytest.mark.parametrize("text", ["[]", '{"at": 5', "nope", '{"at": "bad"}', "{} x"])
def test_a_corrupt_provenance_fails_like_the_generic_path(text: str) -> None:
    with pytest.raises(Exception) as fast:
        sqlite_base._provenance.__wrapped__(text)
    with pytest.raises(Exception) as slow:
        Provenance.from_dict(json.loads(text))
    assert type(fast.value) is type(slow.value)


def test_decoded_metadata_is_a_new_dict_per_read() -> None:
    flat = rec("u1", "diet", "vegan", metadata={"role": "user", "n": 2})
    nested = rec("u1", "seat", "aisle", metadata={"tags": ["a"]})
    with SqliteRecordStore(max_cached_records=0) as s:
        s.apply(WriteBatch(records=[flat, nested]))
        first = {r.id: r for r in s.get([flat.id, nested.id])}
        first[flat.id].metadata["role"] = "changed"  # type: ignore[index]
        first[nested.id].metadata["tags"].append("b")
        again = {r.id: r for r in s.get([flat.id, nested.id])}
    assert again[flat.id].metadata == {"role": "user", "n": 2}
    assert again[nested.id].metadata == {"tags": ["a"]}


def test_an_audit_batch_drops_reads_dated_before_each_users_erasure(tmp_path: Path) -> None:
    erased, other = uid(), uid()
    with SqliteRecordStore(tmp_path / "m.db") as s:
        s.apply(WriteBatch(records=[rec(erased, "diet", "vegan"), rec(other, "diet", "vegan")]))
        s.erase_user(erased, at=T0 + timedelta(hours=1))
        reads = [
            AuditEntry(user_id=u, action="read", actor="recall", at=T0 + timedelta(minutes=m))
            for u, m in ((erased, 30), (other, 30), (erased, 90), (other, 90))
        ]
        s.apply(WriteBatch(audit=reads))
        kept = {(a.user_id, a.at) for a in s.audit_log(erased) + s.audit_log(other)}
    assert (erased, T0 + timedelta(minutes=30)) not in kept
    assert {(erased, T0 + timedelta(minutes=90)), (other, T0 + timedelta(minutes=30))} <= kept
    assert (other, T0 + timedelta(minutes=90)) in kept


def test_audit_ids_sort_by_creation_time() -> None:
    ids = []
    for _ in range(3):
        ids.append(AuditEntry(user_id="u", action="read", at=T0).id)
        time.sleep(0.002)
    assert ids == sorted(ids) and len(set(ids)) == 3
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in ids)


def test_decode_record_rejects_a_corrupt_row() -> None:
    with SqliteRecordStore(max_cached_records=0) as s:
        r = rec("u1", "diet", "vegan")
        s.apply(WriteBatch(records=[r]))
        s.db.conn.execute("UPDATE records SET kind = 'nonsense'")
        with pytest.raises(BackendError, match="corrupt"):
            s.get([r.id])


def test_warm_reads_issue_no_record_queries(tmp_path: Path) -> None:
    u = uid()
    with SqliteRecordStore(tmp_path / "m.db") as s:
        s.apply(WriteBatch(records=[rec(u, f"k{i}", f"value {i}", minutes=i) for i in range(30)]))
        k7 = s.find(RecordFilter(user_id=u, keys=("k7",)))[0]  # fills the cache: one query
        sql: list[str] = []
        s.db.conn.set_trace_callback(sql.append)
        try:
            found = s.find(RecordFilter(user_id=u, key_prefixes=("k1",)))
            first = [q for q in sql if "FROM records" in q]
            sql.clear()
            again = s.find(RecordFilter(user_id=u, key_prefixes=("k1",)))
            got = s.get([r.id for r in found])
            hits = s.lexical_search(u, "default", "value 7", limit=3)
        finally:
            s.db.conn.set_trace_callback(None)
        assert [r.key for r in found] == [
            f"k{i}" for i in (19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 1)
        ]
        same(again, found)
        assert len(got) == len(found)
        assert hits[0].record_id == k7.id
        # rows decoded for the first time: one read of their details, by id
        assert len(first) == 1 and all(r.id in first[0] for r in found) and k7.id not in first[0]
        assert not [q for q in sql if "FROM records" in q], sql
        assert s.cache_stats["users"] == 1 and s.cache_stats["rows"] == 30


def test_a_cold_read_lists_rows_without_their_details(tmp_path: Path) -> None:
    """The first read of a user reads the listing columns of every row; the details
    (value, provenance, metadata...) only of the rows it returns."""
    u = uid()
    with SqliteRecordStore(tmp_path / "m.db") as s:
        s.apply(WriteBatch(records=[rec(u, f"k{i}", f"value {i}", minutes=i) for i in range(6)]))
        s.forget_user(u)
        sql: list[str] = []
        s.db.conn.set_trace_callback(sql.append)
        try:
            hits = s.lexical_search(u, "default", "value 3", limit=1)
            found = s.find(RecordFilter(user_id=u, statuses=(), also_ids=(hits[0].record_id,)))
        finally:
            s.db.conn.set_trace_callback(None)
        reads = [q for q in sql if "FROM records" in q]
        assert [r.key for r in found] == ["k3"]
        assert len(reads) == 2
        assert "value" not in reads[0].split("FROM")[0]  # the listing: no value column
        assert reads[1].count("'") == 2 and found[0].id in reads[1]  # details of k3 only


def test_details_read_after_another_connections_commit_are_not_mixed(tmp_path: Path) -> None:
    """A commit by another connection between the listing and the details read drops the
    cache and the read answers from SQLite (no row mixes two versions)."""
    u = uid()
    path = tmp_path / "m.db"
    with SqliteRecordStore(path) as s, SqliteRecordStore(path, max_cached_records=0) as other:
        r = rec(u, "diet", "vegan")
        s.apply(WriteBatch(records=[r]))
        s.forget_user(u)
        assert s.lexical_search(u, "default", "vegan", limit=1)  # listed, details unread
        changed = r.replace(value="vegetarian", key="diet.new", version=2)
        real_sync = s._sync
        s._sync = lambda: None  # type: ignore[method-assign]  # the commit lands after the check
        try:
            other.apply(WriteBatch(records=[changed]))
            got = s.find(RecordFilter(user_id=u, keys=("diet",)))
        finally:
            s._sync = real_sync  # type: ignore[method-assign]
        assert got == []  # the listing said "diet"; the file now says "diet.new"
        assert [x.value for x in s.find(RecordFilter(user_id=u))] == ["vegetarian"]


def test_writes_through_the_store_update_the_cache(
    pair: tuple[SqliteRecordStore, SqliteRecordStore],
) -> None:
    cached, plain = pair
    u, v = uid(), uid()
    a = rec(u, "contact.call", "SMS", minutes=1)
    b = rec(u, "diet", "vegan", minutes=2, system_context="work")
    c = rec(v, "diet", "peanut allergy", minutes=3)
    cached.apply(WriteBatch(records=[a, b, c]))
    check_same_view(cached, plain, [u, v])  # fills the cache
    # supersede a with a2; revoke b; an audit-only batch (recall's) changes nothing
    a2 = rec(u, "contact.call", "call me", minutes=5, version=2, supersedes=a.id)
    cached.apply(WriteBatch(records=[a.replace(status=Status.SUPERSEDED), a2]))
    cached.apply(WriteBatch(records=[b.replace(status=Status.REVOKED, updated_at=T0)]))
    cached.apply(WriteBatch(user_state=None, records=[]))
    check_same_view(cached, plain, [u, v])
    assert [r.value for r in cached.find(RecordFilter(user_id=u))] == ["call me"]
    # a record id moving to another user and context must leave the first user's view
    cached.apply(WriteBatch(records=[c.replace(user_id=u, system_context="work")]))
    check_same_view(cached, plain, [u, v])
    assert cached.find(RecordFilter(user_id=v, system_context=None, statuses=None)) == []


def test_erase_drops_the_user_from_every_cache(
    pair: tuple[SqliteRecordStore, SqliteRecordStore], tmp_path: Path
) -> None:
    cached, plain = pair
    u, v = uid(), uid()
    rs = [rec(u, "diet", "vegan"), rec(v, "diet", "vegan")]
    cached.apply(WriteBatch(records=rs))
    check_same_view(cached, plain, [u, v])
    cached.erase_user(u, at=T0)
    assert cached.get([rs[0].id]) == []
    assert cached.find(RecordFilter(user_id=u)) == []
    assert cached.lexical_search(u, "default", "vegan", limit=3) == []
    assert [r.id for r in cached.get([r.id for r in rs])] == [rs[1].id]
    # erased through the other connection: the cached store notices (data_version)
    plain.erase_user(v, at=T0)
    assert cached.get([rs[1].id]) == []
    assert cached.lexical_search(v, "default", "vegan", limit=3) == []


def test_writes_by_another_connection_are_seen(
    pair: tuple[SqliteRecordStore, SqliteRecordStore],
) -> None:
    cached, plain = pair
    u = uid()
    r = rec(u, "diet", "vegan")
    cached.apply(WriteBatch(records=[r]))
    assert cached.find(RecordFilter(user_id=u))[0].value == "vegan"
    plain.apply(
        WriteBatch(
            records=[
                r.replace(status=Status.SUPERSEDED),
                rec(u, "diet", "vegetarian", minutes=1, version=2),
            ]
        )
    )
    assert [x.value for x in cached.find(RecordFilter(user_id=u))] == ["vegetarian"]
    assert cached.get([r.id])[0].status is Status.SUPERSEDED
    assert [h.record_id for h in cached.lexical_search(u, "default", "vegan", limit=3)] == []
    check_same_view(cached, plain, [u])


def test_two_stores_on_one_connection_stay_coherent(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "m.db")
    one = SqliteRecordStore(database=db)
    two = SqliteRecordStore(database=db)
    try:
        u = uid()
        r = rec(u, "diet", "vegan")
        one.apply(WriteBatch(records=[r]))
        assert two.find(RecordFilter(user_id=u))[0].value == "vegan"  # two caches u
        one.apply(WriteBatch(records=[r.replace(value="keto", normalized="keto")]))
        assert two.find(RecordFilter(user_id=u))[0].value == "keto"
        assert two.lexical_search(u, "default", "keto", limit=1)[0].record_id == r.id
        one.erase_user(u, at=T0)
        assert two.get([r.id]) == []
    finally:
        one.close()
        two.close()


def test_cache_is_bounded_by_users_and_rows(tmp_path: Path) -> None:
    users = [uid() for _ in range(6)]
    with SqliteRecordStore(tmp_path / "m.db", lexical_cache_size=3, max_cached_records=10) as s:
        for i, u in enumerate(users):
            s.apply(WriteBatch(records=[rec(u, f"k{j}", "v", minutes=j) for j in range(i + 1)]))
        for u in users[:4]:
            s.find(RecordFilter(user_id=u))
        stats = s.cache_stats
        assert stats["users"] <= 3 and stats["rows"] <= 10
        # users[5] has 6 rows; with 10 at most only it and a small one fit
        got = s.find(RecordFilter(user_id=users[5]))
        assert len(got) == 6 and s.cache_stats["rows"] <= 10


def test_a_user_larger_than_the_cache_reads_sqlite(tmp_path: Path) -> None:
    u = uid()
    with (
        SqliteRecordStore(tmp_path / "m.db", max_cached_records=5) as s,
        SqliteRecordStore(tmp_path / "m.db", max_cached_records=0) as plain,
    ):
        s.apply(WriteBatch(records=[rec(u, f"k{j}", f"v {j}", minutes=j) for j in range(12)]))
        check_same_view(s, plain, [u])
        assert s.cache_stats["rows"] == 0
        s.apply(WriteBatch(records=[rec(u, "k99", "v late", minutes=99)]))
        assert s.find(RecordFilter(user_id=u, limit=1))[0].key == "k99"
        assert s.lexical_search(u, "default", "late", limit=1)


def test_threads_never_see_a_half_applied_write(tmp_path: Path) -> None:
    u = uid()
    with SqliteRecordStore(tmp_path / "m.db") as s:
        first = rec(u, "diet", "v0")
        s.apply(WriteBatch(records=[first]))
        errors: list[str] = []
        stop = threading.Event()

        def reader() -> None:
            while not stop.is_set():
                active = s.find(RecordFilter(user_id=u, keys=("diet",)))
                if len(active) != 1:
                    errors.append(f"{len(active)} active versions")

        threads = [threading.Thread(target=reader) for _ in range(2)]
        for t in threads:
            t.start()
        prev = first
        for i in range(1, 60):
            new = rec(u, "diet", f"v{i}", minutes=i, version=i + 1)
            s.apply(WriteBatch(records=[prev.replace(status=Status.SUPERSEDED), new]))
            prev = new
        stop.set()
        for t in threads:
            t.join()
        assert errors == []
        assert s.find(RecordFilter(user_id=u))[0].value == "v59"


_KEYS = ("diet", "contact.call", "contact.email", "allergy")
_VALUES = ("sms", "vegan", "peanut allergy", "call me", "text")


@st.composite
def _ops(draw: st.DrawFn) -> list[tuple[Any, ...]]:
    op = st.one_of(
        st.tuples(
            st.just("add"),
            st.sampled_from(range(3)),
            st.sampled_from(_KEYS),
            st.sampled_from(_VALUES),
            st.sampled_from(("default", "work")),
            st.sampled_from(("", "device:d1")),
            st.sampled_from((Kind.PREFERENCE, Kind.CONSTRAINT, Kind.EPISODE)),
        ),
        st.tuples(st.just("supersede"), st.integers(0, 50), st.sampled_from(_VALUES)),
        st.tuples(st.just("revoke"), st.integers(0, 50)),
        st.tuples(st.just("move"), st.integers(0, 50), st.sampled_from(range(3))),
        st.tuples(st.just("erase"), st.sampled_from(range(3))),
        st.tuples(st.just("external"), st.integers(0, 50), st.sampled_from(_VALUES)),
    )
    return draw(st.lists(op, min_size=1, max_size=14))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=_ops())
def test_random_histories_match_an_uncached_reader(ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.db"
        cached = SqliteRecordStore(path, lexical_cache_size=3, max_cached_records=12)
        plain = SqliteRecordStore(path, max_cached_records=0)
        users = ["alice", "bob", "carol"]
        live: dict[str, MemoryRecord] = {}  # record id -> last written version
        try:
            for step, op in enumerate(ops):
                if op[0] == "add":
                    _, ui, key, value, ctx, ref, kind = op
                    r = rec(users[ui], key, value, minutes=step, system_context=ctx)
                    r = r.replace(scope_ref=ref, kind=kind, status=Status.PENDING)
                    cached.apply(WriteBatch(records=[r]))
                    live[r.id] = r
                elif live and op[0] in ("supersede", "revoke", "move", "external"):
                    old = list(live.values())[op[1] % len(live)]
                    if op[0] == "supersede":
                        new = old.replace(
                            value=op[2], normalized=op[2], updated_at=T0 + timedelta(minutes=step)
                        )
                        cached.apply(WriteBatch(records=[new]))
                    elif op[0] == "revoke":
                        new = old.replace(status=Status.REVOKED)
                        cached.apply(WriteBatch(records=[new]))
                    elif op[0] == "move":
                        new = old.replace(user_id=users[op[2]])
                        cached.apply(WriteBatch(records=[new]))
                    else:
                        new = old.replace(value=op[2], normalized=op[2], version=old.version + 1)
                        plain.apply(WriteBatch(records=[new]))
                    live[new.id] = new
                elif op[0] == "erase":
                    cached.erase_user(users[op[1]], at=T0)
                    live = {k: r for k, r in live.items() if r.user_id != users[op[1]]}
                check_same_view(cached, plain, users)
        finally:
            cached.close()
            plain.close()


def test_vector_index_sees_writes_by_another_connection(tmp_path: Path) -> None:
    def item(rid: str, vec: list[float]) -> VectorItem:
        return VectorItem(
            record_id=rid,
            user_id="u",
            system_context="default",
            kind=Kind.FACT,
            key="k",
            vector=np.asarray(vec, dtype=np.float32),
        )

    with (
        SqliteVectorIndex(tmp_path / "v.db") as a,
        SqliteVectorIndex(tmp_path / "v.db") as b,
    ):
        a.upsert([item("r1", [1.0, 0.0])])
        ones = np.ones(2, dtype=np.float32)
        assert [h.record_id for h in a.search("u", "default", ones, k=5)] == ["r1"]
        b.upsert([item("r2", [0.0, 1.0])])
        got = a.search("u", "default", np.asarray([0.0, 1.0], dtype=np.float32), k=5)
        assert [h.record_id for h in got] == ["r2", "r1"]
        b.delete(["r1", "r2"])
        assert a.search("u", "default", ones, k=5) == []


def test_english_only_process_never_imports_jieba(tmp_path: Path) -> None:
    code = f"""
import sys
from shared_core.storage.sqlite import SqliteRecordStore
from shared_core.storage.protocols import RecordFilter, WriteBatch
from shared_core.storage import lexical, sqlite_base
sys.path.insert(0, {str(Path(__file__).parents[2])!r})
from contract.record_store_contract import rec
with SqliteRecordStore({str(tmp_path / "m.db")!r}) as s:
    s.apply(WriteBatch(records=[rec("u", "diet", "I am vegan, no peanuts")]))
    assert s.lexical_search("u", "default", "what do I eat? vegan", limit=3)
    assert lexical.tokenize("Grüße, café, ÄÖÜ full-width ＡＢＣ") 
assert "jieba" not in sys.modules, "jieba was imported"
assert not lexical.jieba_loaded()
lexical.warm_up()
assert "jieba" in sys.modules and lexical.jieba_loaded()
assert "青霉素" in lexical.tokenize("我对青霉素过敏")
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr


def test_warm_up_is_idempotent() -> None:
    lexical.warm_up()
    first = lexical._get_jieba()
    lexical.warm_up()
    assert lexical._get_jieba() is first and lexical.jieba_loaded()


def test_callers_cannot_corrupt_the_cache_through_metadata(tmp_path: Path) -> None:
    u = uid()
    with SqliteRecordStore(tmp_path / "m.db") as s:
        a = rec(u, "diet", "vegan", metadata={"tags": ["x"]})
        b = rec(u, "contact.call", "sms")
        s.apply(WriteBatch(records=[a, b]))
        for got in (s.get([a.id, b.id]), s.find(RecordFilter(user_id=u))):
            for r in got:
                r.metadata.clear()  # type: ignore[attr-defined]
                r.metadata["evil"] = 1  # type: ignore[index]
        again = {r.id: r for r in s.get([a.id, b.id])}
        assert again[a.id].metadata == {"tags": ["x"]} and again[b.id].metadata == {}


def test_warm_loads_a_user_before_the_first_read(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "m.db")
    records, vectors = SqliteRecordStore(database=db), SqliteVectorIndex(database=db)
    try:
        u = uid()
        r = rec(u, "diet", "vegan")
        records.apply(WriteBatch(records=[r]))
        vec = np.asarray([0.6, 0.8], dtype=np.float32)
        vectors.upsert(
            [
                VectorItem(
                    record_id=r.id,
                    user_id=u,
                    system_context="default",
                    kind=Kind.PREFERENCE,
                    key="diet",
                    vector=vec,
                )
            ]
        )
        assert records.warm(u) is True and vectors.warm(u) == 1
        assert records.cache_stats["users"] == 1 and vectors.cached_users == 1
        sql: list[str] = []
        db.conn.set_trace_callback(sql.append)
        try:
            assert [h.record_id for h in records.lexical_search(u, "default", "vegan", limit=1)]
            assert vectors.search(u, "default", vec, k=1)[0].record_id == r.id
        finally:
            db.conn.set_trace_callback(None)
        assert [q for q in sql if "PRAGMA" not in q] == []
        with SqliteRecordStore(database=db, max_cached_records=0) as off:
            assert off.warm(u) is False
    finally:
        records.close()
        vectors.close()
