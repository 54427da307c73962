"""The gate keeps out whole families of sentences that look like durable first-person
statements but are not (issue 12): reported speech, quoted first person, leading laughs,
sarcasm toward stock annoyances, open possibilities, hedged self-diagnoses, tag and
ability questions, passing states, one-off tasks, bare retractions and values that
cannot be meant literally. Each family is checked against statements it must not cost.

The sentences here are worded for the tests, not copied from the phrasing benchmark."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared_core.config import MemoryConfig
from shared_core.entities import Candidate, Kind, Turn
from shared_core.ingest.extract import RuleExtractor
from shared_core.ingest.gate import Verdict, gate
from tests.ingest_probe import stored as probe_stored

AT = datetime(2026, 4, 15, 9, 0, tzinfo=UTC)


def stored(*turns: str) -> dict[str, str]:
    """canonical key -> value of every active, non-episode record after the turns."""
    return dict(probe_stored(*turns))


@pytest.mark.parametrize(
    "text",
    [
        # reported speech: someone else's words about the user
        "my therapist says I'm a perfectionist",
        "the personality test claimed I'm an extrovert",
        "听说我以前很胖",
        # a quoted first person is not the user
        'her t-shirt said "I only eat tacos"',
        "the sign reads 'I love New York'",
        "Gandalf: 'I am a servant of the Secret Fire'",
        # a leading laugh, sarcasm toward what everyone hates, the scam meme
        "haha I'm allergic to effort",
        "oh I simply adore paying taxes",
        "我最喜欢堵车了",
        "can't wait to spend my weekend on paperwork",
        "我是玉皇大帝，快打钱",
        # open possibilities and hedged self-diagnoses
        "I may or may not adopt a cat",
        "说不定明年去学画画",
        "I think I might be allergic to kiwi",
        "我好像对芒果过敏",
        # fiction and role-play
        "in this roleplay I'm pretending to be a chef",
        "my character is a retired sailor",
        "我梦见我是一名宇航员",
        # tag and ability questions
        "I'm allergic to latex, right?",
        "我对虾过敏，对吧",
        "你会不会说粤语",
        "do you speak Italian?",
        # passing states
        "I'm craving dumplings",
        "I have a migraine this afternoon",
        "我好饿",
        # one-off tasks
        "find me a hotel in Madrid for Saturday",
        "帮我订张去广州的机票",
        # played names and hyperbole
        "I'm Superman",
        "I'm allergic to homework",
        "我住在床上",
    ],
)
def test_look_alike_sentences_store_nothing(text: str) -> None:
    assert stored(text) == {}


@pytest.mark.parametrize(
    "turns",
    [
        ("I'm allergic to shellfish.", "sorry, that's not true, delete that"),
        ("I live in Leeds.", "oops, I was typing that for my friend"),
        ("我会说德语。", "打错字了"),
        ("我对牛奶过敏。", "说错了，过敏的是我表弟，不是我"),
        ("我住在杭州。", "说错了，我没住杭州"),
        ("I'm a pharmacist.", "ignore my last message"),
        ("I live in Porto.", "hmm no, that's wrong"),
        ("我住在北京。", "刚才说的是我妈"),
    ],
)
def test_retractions_take_the_previous_turn_back(turns: tuple[str, str]) -> None:
    assert stored(turns[0]) != {}
    assert stored(*turns) == {}


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm allergic to peanuts", "allergy.food", "peanuts"),
        ("我现在住成都", "location.city", "chengdu"),
        ("给我订靠过道的座位", "travel.seat", "aisle"),
        ("Book me economy, comfort doesn't matter", "travel.class", "economy"),
        ("能不能回答得短一点？", "response.length", "short"),
        ("你以后能不能用英文回答", "language", "en"),
        ("我叫秦明", "name", "秦明"),
        ("I'm retired now", "job.status", "retired"),
    ],
)
def test_statements_next_to_those_families_still_store(text: str, key: str, value: str) -> None:
    got = stored(text)
    assert got.get(key, "").casefold() == value, got


def test_a_correction_with_a_new_value_is_no_retraction() -> None:
    assert stored("我住在北京", "不对，是上海").get("location.city") == "shanghai"


def test_the_gate_rejects_played_names_and_non_allergens_with_a_reason() -> None:
    def decide(key: str, value: str) -> tuple[Verdict, str]:
        c = Candidate(kind=Kind.FACT, key=key, value=value, normalized=value, explicit=True)
        (d,) = gate([c], role="user", config=MemoryConfig())
        return d.verdict, d.reason

    assert decide("name", "Batman") == (Verdict.REJECT, "a played name, said as a joke")
    assert decide("allergy", "Mondays")[0] is Verdict.REJECT
    assert decide("location.city", "被窝里")[0] is Verdict.REJECT
    assert decide("name", "Bat Masterson")[0] is Verdict.ACCEPT
    assert decide("allergy.food", "peanuts")[0] is Verdict.ACCEPT


def test_transient_and_task_signals_come_from_the_sentence() -> None:
    def signals(text: str) -> set[str]:
        turn = Turn(user_id="u", text=text, session_id="s", turn_id="t", at=AT)
        return {s for c in RuleExtractor().extract(turn) for s in c.signals}

    assert "transient" in signals("I'm drinking tea as we speak")
    assert "task" in signals("book me a window seat to Oslo")
    assert "task" not in signals("always book me a window seat")
