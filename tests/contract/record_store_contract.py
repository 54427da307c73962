"""Behaviour every :class:`~shared_core.storage.protocols.RecordStore` must have.

Use it like cachetools' ``CacheTestMixin``: subclass it in a ``Test*`` class and provide a
``store`` fixture that yields a fresh, empty store::

    class TestSqliteRecordStore(RecordStoreContract):
        @pytest.fixture
        def store(self) -> Iterator[RecordStore]:
            s = SqliteRecordStore(":memory:")
            yield s
            s.close()

Every test uses fresh random user ids, so a backend may share one database between tests.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

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
    new_id,
)
from shared_core.errors import ConflictError, InvalidInputError
from shared_core.storage.protocols import RecordFilter, RecordStore, WriteBatch

T0 = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)

HOSTILE_IDS = (
    "o'brien\"; DROP TABLE records; --",
    "100%_done",
    "back\\slash",
    "nul\x00byte",
    "emoji 🧠👩‍🔬",
    "   spaced   ",
    "用户-七",
)


def uid(prefix: str = "u") -> str:
    """A fresh user id, so tests never see each other's rows."""
    return f"{prefix}-{new_id()[:12]}"


def rec(user_id: str, key: str, value: str, *, minutes: float = 0, **kw: Any) -> MemoryRecord:
    """A record created/updated ``minutes`` after :data:`T0`."""
    at = T0 + timedelta(minutes=minutes)
    kw.setdefault("kind", Kind.PREFERENCE)
    kw.setdefault("normalized", value.lower())
    return MemoryRecord(user_id=user_id, key=key, value=value, created_at=at, updated_at=at, **kw)


class RecordStoreContract:
    """The RecordStore contract; subclasses provide the ``store`` fixture."""

    # ------------------------------------------------------------------ basics
    def test_is_a_record_store(self, store: RecordStore) -> None:
        assert isinstance(store, RecordStore)

    def test_round_trip_keeps_every_field(self, store: RecordStore) -> None:
        u = uid()
        r = MemoryRecord(
            user_id=u,
            kind=Kind.CONSTRAINT,
            key="allergy.medication",
            value="Penicillin",
            normalized="penicillin",
            source=Source.TOOL_PARSE,
            confidence=0.8125,
            version=3,
            status=Status.ACTIVE,
            created_at=T0,
            updated_at=T0 + timedelta(seconds=1.5),
            valid_until=T0 + timedelta(days=30),
            permanent=True,
            hard=True,
            explicit=False,
            scope=Scope.DEVICE,
            scope_ref="device:phone-1",
            system_context="health",
            provenance=Provenance(
                session_id="s1",
                turn_id="t1",
                turn_index=4,
                at=T0,
                span="I'm allergic",
                role="user",
                actor="extractor:rules",
            ),
            evidence=2,
            supersedes="older-id",
            metadata={"lang": "en", "n": [1, 2], "nested": {"ok": True}},
        )
        store.apply(WriteBatch(records=[r]))
        (got,) = store.get([r.id])
        assert got == r
        assert got.created_at.tzinfo is not None

    def test_get_skips_unknown_ids(self, store: RecordStore) -> None:
        r = rec(uid(), "food.likes", "ramen")
        store.apply(WriteBatch(records=[r]))
        assert [x.id for x in store.get([r.id, "nope", r.id])] == [r.id]
        assert store.get([]) == []

    def test_empty_batch_is_a_no_op(self, store: RecordStore) -> None:
        store.apply(WriteBatch())
        assert not WriteBatch()

    # ------------------------------------------------------------------ versions / slots
    def test_supersede_keeps_history_and_one_active(self, store: RecordStore) -> None:
        u = uid()
        v1 = rec(u, "contact.call", "phone", minutes=0)
        store.apply(WriteBatch(records=[v1]))
        v2 = rec(u, "contact.call", "sms", minutes=5, version=2, supersedes=v1.id)
        # New active version listed first: the store must demote before it promotes.
        store.apply(WriteBatch(records=[v2, v1.replace(status=Status.SUPERSEDED)]))
        active = store.find(RecordFilter(user_id=u))
        assert [x.id for x in active] == [v2.id]
        hist = store.history(u, "contact.call")
        assert [(x.id, x.status) for x in hist] == [
            (v1.id, Status.SUPERSEDED),
            (v2.id, Status.ACTIVE),
        ]

    def test_second_active_in_a_slot_is_a_conflict_and_writes_nothing(
        self, store: RecordStore
    ) -> None:
        u = uid()
        first = rec(u, "name", "Ann")
        store.apply(WriteBatch(records=[first]))
        other = rec(u, "city", "Oslo")
        dup = rec(u, "name", "Anna", minutes=1)
        audit = AuditEntry(user_id=u, action="create", key="city", at=T0)
        with pytest.raises(ConflictError):
            store.apply(WriteBatch(records=[other, dup], audit=[audit]))
        assert store.get([other.id, dup.id]) == []
        assert store.audit_log(u) == []
        assert [x.value for x in store.find(RecordFilter(user_id=u))] == ["Ann"]

    def test_slots_differ_by_scope_kind_and_context(self, store: RecordStore) -> None:
        u = uid()
        rows = [
            rec(u, "tone", "formal"),
            rec(u, "tone", "casual", scope=Scope.DEVICE, scope_ref="device:d1"),
            rec(u, "tone", "brief", kind=Kind.FACT),
            rec(u, "tone", "warm", system_context="support"),
        ]
        store.apply(WriteBatch(records=rows))
        assert len(store.find(RecordFilter(user_id=u, system_context=None))) == 4

    def test_invalid_record_rejects_the_whole_batch(self, store: RecordStore) -> None:
        u = uid()
        good = rec(u, "pet", "cat")
        bad = rec(u, "pet2", "dog").replace(kind="not-a-kind")
        with pytest.raises(InvalidInputError):
            store.apply(WriteBatch(records=[good, bad]))
        unserialisable = rec(u, "pet3", "fish", metadata={"x": object()})
        with pytest.raises(InvalidInputError):
            store.apply(WriteBatch(records=[good, unserialisable]))
        assert store.get([good.id]) == []
        assert store.find(RecordFilter(user_id=u, statuses=None)) == []

    def test_lone_surrogate_is_invalid_input_and_nothing_is_stored(
        self, store: RecordStore
    ) -> None:
        u = uid()
        good = rec(u, "a", "fine")
        with pytest.raises(InvalidInputError):
            store.apply(WriteBatch(records=[good, rec(u, "b", "bad \ud800 text")]))
        assert store.get([good.id]) == []

    # ------------------------------------------------------------------ find
    def test_find_filters(self, store: RecordStore) -> None:
        u = uid()
        a = rec(u, "contact.call", "phone", minutes=1)
        b = rec(u, "contact.email", "a@b.c", minutes=2)
        c = rec(u, "contacts", "many", minutes=3, kind=Kind.FACT)
        d = rec(u, "food", "ramen", minutes=4, scope=Scope.DEVICE, scope_ref="device:d1")
        e = rec(u, "ep", "we talked", minutes=5, kind=Kind.EPISODE)
        f = rec(u, "old", "x", minutes=6, status=Status.SUPERSEDED)
        g = rec(u, "ctx", "y", minutes=7, system_context="work")
        store.apply(WriteBatch(records=[a, b, c, d, e, f, g]))

        def ids(**kw: Any) -> list[str]:
            return [x.id for x in store.find(RecordFilter(user_id=u, **kw))]

        assert ids() == [e.id, d.id, c.id, b.id, a.id]  # active, default context, newest first
        assert ids(kinds=(Kind.FACT,)) == [c.id]
        assert ids(exclude_kinds=(Kind.EPISODE,)) == [d.id, c.id, b.id, a.id]
        assert ids(keys=("food", "contact.call")) == [d.id, a.id]
        assert ids(key_prefixes=("contact.",)) == [b.id, a.id]
        assert ids(key_prefixes=("contact",)) == [c.id, b.id, a.id]
        assert ids(key_prefixes=("contact.call",)) == [a.id]
        assert ids(scope_refs=("device:d1",)) == [d.id]
        assert ids(scope_refs=("",)) == [e.id, c.id, b.id, a.id]
        assert ids(value_normalized="ramen") == [d.id]
        assert ids(statuses=(Status.SUPERSEDED,)) == [f.id]
        assert ids(statuses=None) == [f.id, e.id, d.id, c.id, b.id, a.id]
        assert ids(system_context=None) == [g.id, e.id, d.id, c.id, b.id, a.id]
        assert ids(system_context="work") == [g.id]
        assert ids(limit=2) == [e.id, d.id]

    def test_find_with_empty_tuples_matches_nothing(self, store: RecordStore) -> None:
        u = uid()
        store.apply(WriteBatch(records=[rec(u, "k", "v")]))
        kws: list[dict[str, Any]] = [
            {"keys": ()},
            {"kinds": ()},
            {"statuses": ()},
            {"key_prefixes": ()},
        ]
        for kw in kws:
            assert store.find(RecordFilter(user_id=u, **kw)) == []
        assert len(store.find(RecordFilter(user_id=u, exclude_kinds=()))) == 1

    def test_key_prefix_is_literal_and_case_sensitive(self, store: RecordStore) -> None:
        u = uid()
        keys = ["a%b.x", "azb.x", "a_b.x", "aqb.x", "a\\b.x", "Contact.call", "contact.call"]
        rows = [rec(u, k, k, minutes=i) for i, k in enumerate(keys)]
        store.apply(WriteBatch(records=rows))

        def keys_for(prefix: str) -> set[str]:
            return {x.key for x in store.find(RecordFilter(user_id=u, key_prefixes=(prefix,)))}

        assert keys_for("a%b.") == {"a%b.x"}
        assert keys_for("a_b") == {"a_b.x"}
        assert keys_for("a\\b") == {"a\\b.x"}
        assert keys_for("contact.") == {"contact.call"}
        assert keys_for("Contact.") == {"Contact.call"}
        assert keys_for("%") == set()

    def test_users_are_isolated_even_with_hostile_ids(self, store: RecordStore) -> None:
        suffix = new_id()[:6]
        users = [f"{h}{suffix}" for h in HOSTILE_IDS]
        for i, u in enumerate(users):
            store.apply(
                WriteBatch(
                    records=[rec(u, f"key'%_{i}", f"value \x00 {i} 🧠", minutes=i)],
                    audit=[AuditEntry(user_id=u, action="create", at=T0)],
                )
            )
        for i, u in enumerate(users):
            got = store.find(RecordFilter(user_id=u))
            assert [(x.user_id, x.key, x.value) for x in got] == [
                (u, f"key'%_{i}", f"value \x00 {i} 🧠")
            ]
            assert [x.key for x in store.history(u, f"key'%_{i}")] == [f"key'%_{i}"]
            assert len(store.audit_log(u)) == 1
        assert set(users) <= set(store.users())
        assert store.find(RecordFilter(user_id=f"%{suffix}")) == []

    # ------------------------------------------------------------------ history
    def test_history_spans_kinds_and_scopes_oldest_first(self, store: RecordStore) -> None:
        u = uid()
        a = rec(u, "tone", "formal", minutes=3)
        b = rec(u, "tone", "casual", minutes=1, scope=Scope.DEVICE, scope_ref="device:d")
        c = rec(u, "tone", "brief", minutes=2, kind=Kind.FACT, system_context="work")
        store.apply(WriteBatch(records=[a, b, c, rec(u, "other", "z")]))
        assert [x.id for x in store.history(u, "tone")] == [b.id, c.id, a.id]
        assert [x.id for x in store.history(u, "tone", system_context="work")] == [c.id]
        assert store.history(u, "missing") == []
        assert store.history(uid(), "tone") == []

    # ------------------------------------------------------------------ lexical
    def test_lexical_search_ranks_matches(self, store: RecordStore) -> None:
        u = uid()
        tea = rec(u, "drink.morning", "green tea with lemon")
        coffee = rec(u, "drink.evening", "decaf coffee")
        span = rec(
            u, "food", "noodles", provenance=Provenance(span="I slurp noodles at the harbour")
        )
        store.apply(WriteBatch(records=[tea, coffee, span]))
        hits = store.lexical_search(u, "default", "what tea do I drink?", limit=5)
        assert hits[0].record_id == tea.id
        assert all(h.score > 0 for h in hits)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert [h.record_id for h in store.lexical_search(u, "default", "harbour", limit=5)] == [
            span.id
        ]
        # key words are searchable too ("drink.evening" -> "drink", "evening")
        assert store.lexical_search(u, "default", "evening", limit=5)[0].record_id == coffee.id
        assert len(store.lexical_search(u, "default", "drink", limit=1)) == 1
        assert store.lexical_search(u, "default", "zebra", limit=5) == []
        assert store.lexical_search(u, "default", "   ", limit=5) == []

    def test_lexical_search_is_scoped_to_user_context_and_status(self, store: RecordStore) -> None:
        u, other = uid(), uid()
        mine = rec(u, "pet", "a tabby cat")
        old = rec(u, "pet.old", "a grey cat", status=Status.SUPERSEDED)
        work = rec(u, "pet", "office cat", system_context="work")
        theirs = rec(other, "pet", "a cat too")
        store.apply(WriteBatch(records=[mine, old, work, theirs]))
        assert [h.record_id for h in store.lexical_search(u, "default", "cat", limit=9)] == [
            mine.id
        ]
        got = store.lexical_search(
            u, "default", "cat", limit=9, statuses=(Status.ACTIVE, Status.SUPERSEDED)
        )
        assert {h.record_id for h in got} == {mine.id, old.id}
        assert [h.record_id for h in store.lexical_search(u, "work", "cat", limit=9)] == [work.id]

    def test_lexical_query_syntax_is_plain_text(self, store: RecordStore) -> None:
        u = uid()
        r = rec(u, "meeting.place", 'near the "old" station-hall')
        store.apply(WriteBatch(records=[r]))
        for q in [
            '"old',
            "station*",
            "NEAR(old station",
            "old OR",
            "-station",
            "hall)",
            "a:b ^ {x}",
        ]:
            hits = store.lexical_search(u, "default", q, limit=3)
            if q != "a:b ^ {x}":
                assert [h.record_id for h in hits] == [r.id], q
            else:
                assert hits == []

    def test_lexical_search_chinese(self, store: RecordStore) -> None:
        u = uid()
        allergy = rec(u, "allergy.medication", "我对青霉素过敏", kind=Kind.CONSTRAINT)
        home = rec(u, "home.city", "我住在北京市海淀区", kind=Kind.FACT)
        store.apply(WriteBatch(records=[allergy, home]))
        assert (
            store.lexical_search(u, "default", "青霉素过敏吗", limit=3)[0].record_id == allergy.id
        )
        assert store.lexical_search(u, "default", "你住在北京吗", limit=3)[0].record_id == home.id

    def test_lexical_search_sees_new_writes(self, store: RecordStore) -> None:
        u = uid()
        v1 = rec(u, "drink", "espresso")
        store.apply(WriteBatch(records=[v1]))
        assert store.lexical_search(u, "default", "espresso", limit=3)[0].record_id == v1.id
        v2 = rec(u, "drink", "matcha", minutes=1, version=2, supersedes=v1.id)
        store.apply(WriteBatch(records=[v1.replace(status=Status.SUPERSEDED), v2]))
        assert store.lexical_search(u, "default", "espresso", limit=3) == []
        assert store.lexical_search(u, "default", "matcha", limit=3)[0].record_id == v2.id

    # ------------------------------------------------------------------ audit / conflicts / state
    def test_audit_log_oldest_first_with_limit(self, store: RecordStore) -> None:
        u = uid()
        entries = [
            AuditEntry(
                user_id=u,
                action=f"a{i}",
                at=T0 + timedelta(seconds=i),
                record_id=f"r{i}",
                key="k",
                actor="user",
                session_id="s",
                turn_id=f"t{i}",
                detail={"i": i},
            )
            for i in range(5)
        ]
        store.apply(WriteBatch(audit=entries[3:]))
        store.apply(WriteBatch(audit=entries[:3]))
        assert store.audit_log(u) == entries
        assert [e.action for e in store.audit_log(u, limit=2)] == ["a3", "a4"]
        assert store.audit_log(uid()) == []

    def test_conflicts_open_and_resolved(self, store: RecordStore) -> None:
        u = uid()
        c1 = Conflict(
            user_id=u,
            system_context="default",
            key="city",
            record_ids=("r1", "r2"),
            reason="contradiction",
            question="Oslo or Bergen?",
            detected_at=T0,
        )
        c2 = Conflict(
            user_id=u,
            system_context="work",
            key="tone",
            record_ids=("r3",),
            reason="r",
            question="q?",
            detected_at=T0 + timedelta(minutes=1),
        )
        store.apply(WriteBatch(conflicts=[c1, c2]))
        assert store.conflicts(u) == [c1]
        assert store.conflicts(u, None) == [c1, c2]
        when = T0 + timedelta(hours=1)
        store.apply(WriteBatch(resolved_conflicts=[(c1.id, when)]))
        assert store.conflicts(u) == []
        assert store.conflicts(u, open_only=False) == [dataclasses.replace(c1, resolved_at=when)]

    def test_user_state_round_trip(self, store: RecordStore) -> None:
        u = uid()
        assert store.user_state(u) is None
        store.apply(WriteBatch(records=[rec(u, "k", "v")]))
        assert store.user_state(u) is None  # records alone do not invent a state
        assert u in store.users()
        st = UserState(
            user_id=u,
            memory_enabled=False,
            sessions=3,
            turns=17,
            first_seen=T0,
            last_seen=T0 + timedelta(days=2),
            last_session_id="s-3",
        )
        store.apply(WriteBatch(user_state=st))
        assert store.user_state(u) == st
        st2 = UserState(user_id=u, memory_enabled=True, sessions=4, turns=20, first_seen=T0)
        store.apply(WriteBatch(user_state=st2))
        assert store.user_state(u) == st2

    def test_users_lists_everyone_with_data(self, store: RecordStore) -> None:
        a, b, c = uid("a"), uid("b"), uid("c")
        store.apply(WriteBatch(records=[rec(a, "k", "v")]))
        store.apply(WriteBatch(audit=[AuditEntry(user_id=b, action="read", at=T0)]))
        store.apply(WriteBatch(user_state=UserState(user_id=c)))
        assert {a, b, c} <= set(store.users())

    # ------------------------------------------------------------------ erase
    def test_erase_user_removes_everything_but_a_tombstone(self, store: RecordStore) -> None:
        u, keep = uid(), uid()
        r = rec(u, "secret", "zyxw-penicillin-4711")
        store.apply(
            WriteBatch(
                records=[r, rec(u, "old", "x", status=Status.SUPERSEDED)],
                audit=[AuditEntry(user_id=u, action="create", record_id=r.id, at=T0)],
                conflicts=[
                    Conflict(
                        user_id=u,
                        system_context="default",
                        key="secret",
                        record_ids=(r.id,),
                        reason="r",
                        question="q",
                        detected_at=T0,
                    )
                ],
                user_state=UserState(user_id=u, turns=2),
            )
        )
        other = rec(keep, "secret", "keep me")
        store.apply(WriteBatch(records=[other]))
        counts = store.erase_user(u, at=T0 + timedelta(days=1))
        assert counts["records"] == 2
        assert counts["audit"] == 1 and counts["conflicts"] == 1
        assert store.get([r.id]) == []
        assert store.find(RecordFilter(user_id=u, statuses=None, system_context=None)) == []
        assert store.history(u, "secret") == []
        assert store.audit_log(u) == []
        assert store.conflicts(u, None, open_only=False) == []
        assert store.user_state(u) is None
        assert store.lexical_search(u, "default", "penicillin", limit=3) == []
        assert u not in store.users()
        assert store.get([other.id]) == [other]
        again = store.erase_user(u, at=T0 + timedelta(days=2))
        assert sum(again.values()) == 0
