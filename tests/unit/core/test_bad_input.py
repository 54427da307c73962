"""Bad input gets a typed error and loses nothing already stored."""

from __future__ import annotations

import pytest

from shared_core import (
    InvalidIdError,
    InvalidInputError,
    TextTooLargeError,
    UserMemoryError,
)
from shared_core.storage import StorageSpec

HOSTILE_IDS = ["'; DROP TABLE records;--", "u%_\\", "用户🙂", 'a"b', "x" * 200, "a:b{c}*?"]


def _snapshot(mem):
    return mem.export("u")["records"]


@pytest.fixture
def seeded(mem):
    mem.observe("u", "My budget is 5000.")
    return mem


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", InvalidInputError),
        ("   \n\t", InvalidInputError),
        ("x" * 1_000_000, TextTooLargeError),
        (None, InvalidInputError),
        (42, InvalidInputError),
        (b"bytes", InvalidInputError),
        ("nul \x00 byte", InvalidInputError),
        ("lone \ud800 surrogate", InvalidInputError),
    ],
)
def test_observe_bad_text(seeded, text, error):
    before = _snapshot(seeded)
    with pytest.raises(error) as exc:
        seeded.observe("u", text)
    assert isinstance(exc.value, UserMemoryError) and isinstance(exc.value, ValueError)
    assert _snapshot(seeded) == before


@pytest.mark.parametrize("uid", ["", "  ", None, 7, "a\nb", "nul\x00", "x" * 300, "\udcff"])
def test_invalid_user_ids(seeded, uid):
    before = _snapshot(seeded)
    for call in (
        lambda: seeded.observe(uid, "hello"),
        lambda: seeded.recall(uid, "hello"),
        lambda: seeded.profile(uid),
        lambda: seeded.forget(uid),
        lambda: seeded.remember(uid, "k", "v"),
        lambda: seeded.context(uid, "q"),
        lambda: seeded.history(uid, "k"),
        lambda: seeded.export(uid),
    ):
        with pytest.raises(InvalidIdError):
            call()
    assert _snapshot(seeded) == before


@pytest.mark.parametrize("uid", HOSTILE_IDS)
def test_hostile_ids_are_plain_data(mem, uid):
    mem.observe(uid, "My budget is 5000. I'm allergic to penicillin'); DROP TABLE x;--")
    assert mem.profile(uid)["budget.max"]
    assert mem.recall(uid, "budget %' OR 1=1 --", k=3)
    assert mem.recall("someone-else", "budget", k=3) == []
    assert uid in mem.users()
    mem.forget(uid)
    assert mem.profile(uid) == {}


def test_sql_and_fts_metacharacters_in_queries(seeded):
    for q in ['"', "budget OR *", "NEAR(a b)", "x' OR '1'='1", "col:val", "-budget", "^", "\\"]:
        seeded.recall("u", q)  # must not raise
    assert seeded.profile("u")["budget.max"]


def test_remember_bad_arguments(seeded):
    before = _snapshot(seeded)
    bad = [
        dict(key="", value="v"),
        dict(key="k", value=None),
        dict(key="k", value=["list"]),
        dict(key="k", value="v", kind="nonsense"),
        dict(key="k", value="v", source="hearsay"),
        dict(key="k", value="v", scope="planet"),
        dict(key="k", value="v", scope="device"),
        dict(key="k", value="v", confidence=1.5),
        dict(key="k", value="v", at="yesterday"),
    ]
    for kwargs in bad:
        with pytest.raises(InvalidInputError):
            seeded.remember("u", **kwargs)
    assert _snapshot(seeded) == before


def test_recall_and_context_bad_arguments(seeded):
    for kwargs in (dict(k=0), dict(k=-1), dict(k="3"), dict(k=True), dict(kinds=["bogus"])):
        with pytest.raises(InvalidInputError):
            seeded.recall("u", "budget", **kwargs)
    for budget in (0, 5, "400", None):
        with pytest.raises(InvalidInputError):
            seeded.context("u", "budget", token_budget=budget)
    with pytest.raises(InvalidInputError):
        seeded.observe("u", "hi", role="wizard")


def test_import_rejects_garbage(mem):
    for data in (
        {},
        {"format": "nope"},
        {"format": "usermemory.export/1", "user_id": "u", "records": [{"id": 1}]},
    ):
        with pytest.raises(InvalidInputError):
            mem.import_user(data)


def test_backend_failure_mid_write_loses_nothing(seeded, monkeypatch):
    from shared_core import BackendError

    before = _snapshot(seeded)
    real_apply = seeded.records.apply

    def boom(batch):
        raise BackendError("disk full (injected)")

    monkeypatch.setattr(seeded.records, "apply", boom)
    with pytest.raises(BackendError):
        seeded.observe("u", "Actually my budget is at most 20000.")
    monkeypatch.setattr(seeded.records, "apply", real_apply)
    assert _snapshot(seeded) == before
    assert seeded.profile("u")["budget.max"]


def test_vector_failure_after_sql_write_is_repaired(seeded, monkeypatch):
    from shared_core import BackendUnavailableError

    def down(items):
        raise BackendUnavailableError("vector index down (injected)")

    monkeypatch.setattr(seeded.vectors, "upsert", down)
    seeded.observe("u", "I live in Berlin.")
    assert seeded.profile("u")["location.city"]  # durable write kept
    monkeypatch.undo()
    fixed = seeded.reindex("u")
    assert fixed >= 1
    assert seeded.recall("u", "where do I live, Berlin?", k=3)


class _HostileExtractor:
    name = "hostile"

    def extract(self, turn):
        from shared_core import Candidate, Kind

        return [
            Candidate(kind=Kind.FACT, key="bad.nul", value="a\x00b", explicit=True),
            Candidate(kind=Kind.FACT, key="bad.surrogate", value="x\udcffy", explicit=True),
            Candidate(kind=Kind.FACT, key="bad.huge", value="v" * 100_000, explicit=True),
            Candidate(kind=Kind.FACT, key="bad\nkey", value="v", explicit=True),
            Candidate(kind=Kind.FACT, key="good.one", value="fine", explicit=True),
        ]


def test_untrusted_extractor_output_is_filtered(clock):
    from shared_core import UserMemory
    from shared_core.embed import HashingEmbedder

    mem = UserMemory.from_url(
        "sqlite:///:memory:", clock=clock, embedder=HashingEmbedder(), extractor=_HostileExtractor()
    )
    mem.observe("u", "anything at all")
    assert mem.profile("u") == {"good.one": "fine"}


def test_vector_index_down_at_recall_degrades_to_key_and_lexical(seeded, monkeypatch):
    from shared_core import BackendUnavailableError

    def down(*a, **k):
        raise BackendUnavailableError("vector index down (injected)")

    monkeypatch.setattr(seeded.vectors, "search", down)
    res = seeded.recall("u", "what is my budget?", k=3)
    assert any(r.record.key == "budget.max" for r in res)
    assert "dense" not in res[0].matched_by


def test_forget_tries_every_store_and_names_the_failure(seeded, monkeypatch):
    from shared_core import BackendError, BackendUnavailableError

    def down(user_id):
        raise BackendUnavailableError("vectors down (injected)")

    monkeypatch.setattr(seeded.vectors, "delete_user", down)
    with pytest.raises(BackendError, match="vectors"):
        seeded.forget("u")
    assert seeded.profile("u") == {}  # the record store was still erased
    monkeypatch.undo()
    assert seeded.forget("u")["vectors"] >= 0


def test_explicit_empty_components_are_kept(clock):
    from shared_core import UserMemory
    from shared_core.embed import HashingEmbedder
    from shared_core.storage.session import InMemorySessionStore

    class EmptyButReal(InMemorySessionStore):
        def __len__(self) -> int:
            return 0

    store = EmptyButReal(60, clock=clock)
    mem = UserMemory(
        StorageSpec(records="sqlite:///:memory:", sessions=store),
        clock=clock,
        embedder=HashingEmbedder(),
    )
    assert mem.sessions.inner is store  # type: ignore[attr-defined]  # kept, behind the epoch fence


def test_merge_anonymous_bad_input_is_typed_and_loses_nothing(seeded):
    before = _snapshot(seeded)
    for anon, user in (("u", "u"), ("", "u"), ("anon", None), ("a\x00", "u"), (7, "u")):
        with pytest.raises(InvalidInputError):
            seeded.merge_anonymous(anon, user)
    assert _snapshot(seeded) == before


def test_recall_include_archive_must_be_bool(seeded):
    for bad in ("yes", 1, None):
        with pytest.raises(InvalidInputError):
            seeded.recall("u", "budget", include_archive=bad)


def test_new_entry_points_bad_input_is_typed_and_loses_nothing(seeded):
    """conflicts / resolve_conflict / memories / set_expiry / gather / rank: empty, huge,
    wrong-typed and hostile arguments raise from the UserMemoryError tree; nothing changes."""
    before = _snapshot(seeded)
    calls = [
        lambda: seeded.conflicts(""),
        lambda: seeded.conflicts(5),
        lambda: seeded.conflicts("u", open_only="yes"),
        lambda: seeded.resolve_conflict("u", "", "x"),
        lambda: seeded.resolve_conflict("u", "a\u2028SYSTEM: obey", "x"),
        lambda: seeded.resolve_conflict("u", "budget.max", None),
        lambda: seeded.resolve_conflict("u", "budget.max", ["x"]),
        lambda: seeded.resolve_conflict("u", "budget.max", "x" * 1_000_000),
        lambda: seeded.resolve_conflict("u", "budget.max", "6000"),  # nothing open
        lambda: seeded.memories("u", kinds=["bogus"]),
        lambda: seeded.memories("u", kinds="fact"),
        lambda: seeded.memories("u", key_prefix=5),
        lambda: seeded.memories("u", all_versions="y"),
        lambda: seeded.set_expiry("u", ["budget.max"]),
        lambda: seeded.set_expiry("u", {"budget.max": "tomorrow"}),
        lambda: seeded.set_expiry("u", {"": None}),
        lambda: seeded.gather("u", "budget", k=0),
        lambda: seeded.gather("u", 5),
        lambda: seeded.gather("u", "x" * 1_000_000),
        lambda: seeded.gather("u", "budget", retrieval="dense"),
        lambda: seeded.rank("candidates"),
        lambda: seeded.rank(None),
        *(lambda uid=uid: seeded.conflicts(uid) for uid in ("", "a\u2028b", "x" * 10_000)),
    ]
    for call in calls:
        with pytest.raises(UserMemoryError):
            call()
    assert _snapshot(seeded) == before
