"""Issue 12's reported misses: negative imperatives, compound sentences, and answer-style
preferences learned from repeated behaviour (the consensus rule)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared_core import FakeClock, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.entities import ChangeAction, Turn
from shared_core.ingest._rulebase import is_self_question
from shared_core.ingest.extract import RuleExtractor

AT = datetime(2026, 4, 15, 9, 0, tzinfo=UTC)


def extract(text: str) -> list[tuple[str, str]]:
    turn = Turn(user_id="u", text=text, session_id="s", turn_id="t", at=AT)
    return [(c.key, c.normalized) for c in RuleExtractor().extract(turn) if not c.signals]


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Do not ever recommend credit cards to me.", False),
        ("Don't recommend crypto to me.", False),
        ("Do never call me.", False),
        ("Do you know my name?", True),
        ("Do I have any allergies", True),
    ],
)
def test_negative_imperatives_are_not_questions(text: str, question: bool) -> None:
    assert is_self_question(text) is question


def test_negative_imperative_stores_the_constraint() -> None:
    assert extract("Do not ever recommend credit cards to me.") == [
        ("recommend.credit_cards", "never")
    ]
    assert extract("不要给我推荐理财产品。") == [("recommend.理财产品", "never")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My name is Ada and I live in Berlin.", [("name", "ada"), ("location.city", "berlin")]),
        ("I love jazz and my wife is Jane.", [("taste.jazz", "like"), ("family.wife", "jane")]),
    ],
)
def test_compound_sentences_keep_every_clause(text: str, expected: list[tuple[str, str]]) -> None:
    assert extract(text) == expected


@pytest.fixture
def mem() -> UserMemory:
    return UserMemory.from_url(
        "sqlite:///:memory:", clock=FakeClock(AT), embedder=HashingEmbedder()
    )


def test_a_request_about_answer_length_is_a_preference(mem: UserMemory) -> None:
    mem.observe("u", "Could you keep answers short?")
    assert mem.history("u", "response.length")[0].normalized == "short"


@pytest.mark.parametrize("complaint", ["Shorter please, too long.", "太长了，说重点。"])
def test_repeated_complaints_become_a_preference_after_consensus(
    mem: UserMemory, complaint: str
) -> None:
    actions = []
    for i in range(3):
        changes = mem.observe("u", complaint, session_id=f"s{i}")
        actions.append([c.action for c in changes if c.key == "response.length"])
    assert actions[:2] == [[ChangeAction.PENDING], [ChangeAction.PENDING]]
    assert actions[2] == [ChangeAction.ADDED]
    active = [r for r in mem.history("u", "response.length") if r.status.value == "active"]
    assert [(r.normalized, r.explicit) for r in active] == [("short", False)]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I'm left-handed.", "note.left_handed"),
        ("I work night shifts.", "note.work_night_shifts"),
        ("我不会开车。", "note.不会开车"),
    ],
)
def test_a_durable_statement_no_rule_reads_is_kept_as_a_note(
    mem: UserMemory, text: str, key: str
) -> None:
    mem.observe("u", text)
    (record,) = mem.history("u", key)
    assert record.value == text.rstrip(".。") and record.confidence <= 0.75
    assert any(h.record.key == key for h in mem.recall("u", text))
    assert key in mem.context("u", text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm tired today.",
        "I think it will rain.",
        "I'm basically a professional napper, haha",
        'As the song goes, "I\'m on a highway to hell."',
        "I have a question.",
        "I'm allergic to Mondays lol",
        "我对周一过敏 🙃",
    ],
)
def test_passing_states_jokes_and_quotes_store_nothing(mem: UserMemory, text: str) -> None:
    mem.observe("u", text)
    assert mem.profile("u") == {}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm lactose intolerant.", [("intolerance", "lactose")]),
        ("我乳糖不耐受。", [("intolerance", "乳糖")]),
        ("I have two cats.", [("pet.species", "cat")]),
        ("我家养了一只猫。", [("pet.species", "cat")]),
    ],
)
def test_item_pack_rows(text: str, expected: list[tuple[str, str]]) -> None:
    assert extract(text) == expected


def test_a_negated_statement_is_not_a_note(mem: UserMemory) -> None:
    mem.observe("u", "I'm not lactose intolerant anymore.")
    assert mem.profile("u") == {}
