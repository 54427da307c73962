"""Precision of what the rules store: the wrong-store families MemoryBank exposed
(benchmarks/memorybank_extraction.py), tested on wordings of our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared_core.config import MemoryConfig
from shared_core.entities import Candidate, Intent, Kind, Turn
from shared_core.ingest.extract import RuleExtractor
from shared_core.ingest.gate import Verdict, gate

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _decisions(text: str) -> dict[str, Verdict]:
    turn = Turn(user_id="u", text=text, session_id="s", turn_id="t", at=AT)
    cands = RuleExtractor().extract(turn)
    return {d.candidate.key: d.verdict for d in gate(cands, role="user", config=MemoryConfig())}


def _stored(text: str) -> set[str]:
    return {k for k, v in _decisions(text).items() if v is Verdict.ACCEPT}


def _kept(text: str) -> set[str]:
    return {k for k, v in _decisions(text).items() if v is not Verdict.REJECT}


# -- a request for help is no interest, and an "always" elsewhere declares no interest ------
@pytest.mark.parametrize(
    "text",
    [
        "Do you have any tips you could give me for sourdough?",
        "Do you have any advice you can share about rent?",
        "我最近压力很大，你有什么好的办法吗？",
        "学外语有什么好处呢？",
    ],
)
def test_request_for_help_is_no_interest(text: str) -> None:
    assert not any(k.startswith("interest.") for k in _kept(text))


def test_interest_is_never_accepted_on_a_marker_elsewhere_in_the_turn() -> None:
    decided = _decisions("Tea always helps. Do you have any other teas you can suggest?")
    assert any(k.startswith("interest.") for k in decided)
    assert all(v is not Verdict.ACCEPT for k, v in decided.items() if k.startswith("interest."))


# -- conversation read as a note ------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "I have a quick question about my taxes.",
        "I have one more question, actually.",
        "I don't quite get the second chapter.",
        "I'm a bit lost, I can't find any motivation to train.",
        "Honestly, I don't know whether to move out or not.",
        "I'm still having trouble with the login page.",
        "我有一个小烦恼。",
        "我有点担心找不到房子。",
    ],
)
def test_conversation_is_no_note(text: str) -> None:
    assert not any(k.startswith("note.") for k in _kept(text))


def test_a_real_self_description_still_becomes_a_note() -> None:
    assert any(k.startswith("note.") for k in _stored("I'm pretty shy around strangers."))


# -- a taste needs an item -------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "I'll enjoy the trip I like to the fullest.",
        "这些都是我很喜欢的菜。",
        "我特别喜欢那种复古的感觉。",
    ],
)
def test_taste_without_an_item_is_not_kept(text: str) -> None:
    assert not any(k.startswith("taste.") for k in _kept(text))


def test_favourite_x_is_y_keys_the_taste_by_y() -> None:
    stored = _stored("我最喜欢的运动是游泳。")
    assert "taste.游泳" in stored
    assert not any(k.startswith("taste.的") for k in stored)


def test_plain_tastes_are_still_stored() -> None:
    assert "taste.gardening" in _stored("I love gardening.")
    assert "taste.火锅" in _stored("我很喜欢火锅。")


# -- a rule is an instruction to the assistant -----------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "我的导师很严，总是要求我周末加班。",
        "每次都有人让我帮忙搬家。",
        "我明白了，以后我也会按时吃饭。",
        "Noted, from now on I'll double-check my receipts.",
    ],
)
def test_demand_of_the_user_or_promise_is_no_rule(text: str) -> None:
    assert not any(k.startswith("rule.") for k in _kept(text))


def test_an_instruction_is_still_a_rule() -> None:
    assert any(k.startswith("rule.") for k in _stored("From now on, greet me in French."))


# -- name slots hold names ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("job.employer", "一家小公司"),
        ("job.employer", "考虑辞职"),
        ("industry", "了一锅汤"),
        ("industry", "菜"),
        ("location.city", "一个小镇"),
    ],
)
def test_phrase_in_a_name_slot_is_rejected(key: str, value: str) -> None:
    cand = Candidate(kind=Kind.FACT, key=key, value=value, explicit=True, intent=Intent.ASSERT)
    (decision,) = gate([cand], role="user", config=MemoryConfig())
    assert decision.verdict is Verdict.REJECT


def test_a_real_name_slot_passes() -> None:
    cand = Candidate(kind=Kind.FACT, key="job.employer", value="华为", explicit=True)
    (decision,) = gate([cand], role="user", config=MemoryConfig())
    assert decision.verdict is Verdict.ACCEPT


def test_reading_a_book_is_not_being_a_student() -> None:
    assert "job.status" not in _kept("我最近在读一本历史书，挺有意思。")
    assert "job.status" in _stored("我在读研究生。")


# -- a list of modifiers shares its category noun; a slash inside a name is no list --------
@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("I like indie and folk songs.", {"taste.indie_songs", "taste.folk_songs"}),
        ("I prefer Greek and Lebanese cuisine.", {"taste.greek_cuisine", "taste.lebanese_cuisine"}),
        ("I love thrillers and war films.", {"taste.thrillers", "taste.war_films"}),
        ("I love gardening and classical music.", {"taste.gardening", "taste.classical_music"}),
        ("I love pizza and Italian cuisine.", {"taste.pizza", "taste.italian_cuisine"}),
    ],
)
def test_modifiers_share_the_category_noun(text: str, keys: set[str]) -> None:
    assert keys <= _stored(text)


def test_slash_inside_a_name_is_no_list() -> None:
    stored = _stored("I like bands like AC/DC.")
    assert not {"taste.dc", "taste.ac"} & stored
