"""English families round 24 fixed in the offline rules, each tested on wordings written for
these tests (none copied from a phrasing-benchmark row), with look-alikes that store nothing:

* quiet hours said loosely: a bare "12" before a morning end is midnight, two bare hours
  that cross the night in a sentence keeping contact away ("no alerts between 10 and 6");
* languages by contrast: "X isn't my first language, Y is" (both spoken), "my native tongue
  is Y, not X" (Y spoken, no reply language), one language at home and another at work;
* a second pastime with its own verb after a taste: "I love hiking and do a lot of
  bouldering", "I play chess and do pottery on weekends";
* foods the lexicon did not know inside a refusal ("capers are a no for me", "anything with
  cilantro is a hard pass", "I avoid fennel"), never for things that are not foods;
* a Traditional Chinese note keeps the characters the user wrote (Simplified in
  ``normalized``).
"""

from __future__ import annotations

import pytest

from tests.ingest_probe import active_records, has_value, stored

# ---- quiet hours --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("please don't text me from 12 till 7 in the morning", "00:00-07:00"),
        ("no messages from 12 until 6am thanks", "00:00-06:00"),
        ("no alerts between 10 and 6 please", "22:00-06:00"),
        ("don't ping me between 11 and 7", "23:00-07:00"),
        ("no emails from 9 till 7 pls", "21:00-07:00"),
        ("no notifications between 11pm and 7", "23:00-07:00"),
        ("quiet after 11 at night until 7:30am", "23:00-07:30"),
        ("silence from 22:30 to 06:00 please", "22:30-06:00"),
        ("mute everything from half ten till 7 in the morning", "22:30-07:00"),
    ],
)
def test_loose_quiet_hours_are_a_normalized_range(text: str, value: str) -> None:
    assert ("contact.quiet_hours", value) in stored(text)


@pytest.mark.parametrize(
    "text",
    [
        "the shop is open between 10 and 6",
        "no meetings between 9 and 11",
        "i called my mom between 10 and 6",
        "my budget is between 10 and 6 hundred",
    ],
)
def test_bare_hours_without_contact_kept_away_are_no_quiet_hours(text: str) -> None:
    assert not any(k == "contact.quiet_hours" for k, _v in stored(text))


# ---- languages by contrast --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("english isn't my native language - portuguese is", {"pt", "en"}),
        ("english is not my mother tongue, it's arabic", {"ar", "en"}),
        ("French isnt my first language, dutch is", {"nl", "fr"}),
        ("my native tongue is tagalog not english", {"tl"}),
        ("my first language is korean, not english", {"ko"}),
        ("I speak spanish at home, english at work", {"es", "en"}),
        ("I speak Portuguese with my parents and English with my kids", {"pt", "en"}),
        ("we speak urdu at home but english with friends", {"ur", "en"}),
        ("at home we speak farsi but at work it's english", {"fa", "en"}),
    ],
)
def test_languages_by_contrast_are_spoken(text: str, codes: set[str]) -> None:
    found = stored(text)
    spoken = {v for k, v in found if k.startswith("language.spoken")}
    assert spoken == codes
    assert not any(k == "language" for k, _v in found)  # no reply language


@pytest.mark.parametrize(
    "text",
    [
        "english isn't my wife's first language, polish is",
        "his first language is polish",
        "reply in spanish, not english",
    ],
)
def test_other_people_and_reply_language_are_not_spoken(text: str) -> None:
    assert not any(k.startswith("language.spoken") for k, _v in stored(text))


def test_reply_language_correction_still_reads() -> None:
    assert ("language", "es") in stored("reply in spanish, not english")


# ---- a second pastime with its own verb ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("I love climbing and do a lot of yoga", {"climbing", "yoga"}),
        ("I play the piano and do pottery on weekends", {"piano", "pottery"}),
        ("I love cooking and also do some gardening", {"cooking", "gardening"}),
        ("I'm into running and do pilates twice a week", {"running", "pilates"}),
        ("I enjoy reading and play the guitar", {"reading", "guitar"}),
        ("I like photography and go fishing sometimes", {"photography", "fishing"}),
        ("I surf and do a bit of woodworking", {"surfing", "woodworking"}),
        ("I love hiking and do pottery and play chess", {"hiking", "pottery", "chess"}),
    ],
)
def test_second_pastime_after_its_own_verb(text: str, items: set[str]) -> None:
    found = stored(text)
    for item in items:
        assert has_value(found, "interest", item), (item, found)
    assert len([k for k, _v in found if k.startswith("interest")]) == len(items)


@pytest.mark.parametrize(
    ("text", "only"),
    [
        ("I play chess and do my taxes on weekends", "chess"),
        ("I love hiking and do a lot of work from home", "hiking"),
        ("I love sketching and do the dishes after", "sketching"),
        ("I play chess and go on weekends", None),  # go, the board game, is an item
    ],
)
def test_chores_after_and_are_no_pastime(text: str, only: str | None) -> None:
    found = {v for k, v in stored(text) if k.startswith("interest")}
    if only is not None:
        assert found == {only}
    else:
        assert {"chess", "go"} <= found


@pytest.mark.parametrize(
    "text",
    [
        "You should go and play tennis",
        "I want to learn to cook and do more yoga",
        "my son loves football and plays chess",
    ],
)
def test_second_verb_without_a_taste_of_the_user_stores_no_pastime(text: str) -> None:
    assert not any(k.startswith("interest") for k, _v in stored(text))


# ---- foods the lexicon did not know, refused ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "item"),
    [
        ("capers are a hard no for me", "food.dislike", "capers"),
        ("anything with dill is a hard pass", "food.dislike", "dill"),
        ("dishes with fennel in them are a no for me", "food.dislike", "fennel"),
        ("I can't stand tarragon", "food.dislike", "tarragon"),
        ("horseradish is a big nope", "food.dislike", "horseradish"),
        ("I hate anything with capers in it", "food.dislike", "capers"),
        ("I don't do anchovies", "food.dislike", "anchovies"),
        ("can't do coriander", "food.dislike", "coriander"),
        ("I'm not really into rhubarb", "food.dislike", "rhubarb"),
        ("skip the gherkins, I hate them", "food.dislike", "gherkins"),
        ("I avoid fennel", "diet.avoid", "fennel"),
        ("I try to avoid anything with mayo", "diet.avoid", "mayo"),
    ],
)
def test_unknown_food_in_a_refusal_is_kept_as_said(text: str, key: str, item: str) -> None:
    assert has_value(stored(text), key, item)


@pytest.mark.parametrize(
    "text",
    [
        "this film is a no for me",
        "mondays are a hard pass lol",
        "that hotel is a hard pass",
        "early meetings are a no for me",
        "I avoid crowds",
        "I avoid crowds and coffee",
        "my husband avoids fennel",
        "I'll pass on dessert tonight",
    ],
)
def test_refusing_what_is_no_food_stores_no_diet_fact(text: str) -> None:
    assert not any(k.startswith(("diet", "food.")) for k, _v in stored(text))


# ---- Traditional Chinese notes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "written", "simplified"),
    [
        ("我不會開車", "我不會開車", "我不会开车"),
        ("我是左撇子", "我是左撇子", "我是左撇子"),
    ],
)
def test_note_keeps_the_characters_written(text: str, written: str, simplified: str) -> None:
    notes = [r for r in active_records(text) if r["key"].startswith("note")]
    assert notes, text
    assert notes[0]["value"] == written
    assert notes[0]["normalized"] == simplified.lower()
