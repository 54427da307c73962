"""Families of English non-statements the dev14 set exposed (issue 12): indirect, tag and
filler-led questions, suppositions with "say", things looked into or tempting, people in
general and strangers, professionals of the user's, advice reported from someone else,
remarks about things and trends, answers asked for once, hyperbolic allergens and idle
trades, mock-cheerful openers, assistant replies pasted as the user, retractions that name
what they take back, and notes whose object is a pronoun. Each family is checked against
statements next to it that must keep storing.

The sentences here are worded for the tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_gate_generalize import stored


@pytest.mark.parametrize(
    "text",
    [
        # questions asked indirectly, as a tag without "?", or after a filler
        "I wonder whether I'm intolerant to gluten",
        "I'm allergic to latex, aren't I",
        "so are oat lattes fine for someone who's allergic to dairy",
        # a supposition with "say", a thing looked into or tempting
        "let's say I moved to Oslo, what would rent cost",
        "looking into going keto",
        # people in general, a stranger, the user's professionals, reported advice
        "lots of adults are allergic to penicillin",
        "some guy at the gym is allergic to peanuts",
        "my dentist is based in Bristol",
        # a remark about a thing or a trend
        "paleo is a fad",
        # an answer asked for once
        "for this email keep it formal",
        "answer in Spanish, this one only",
        # hyperbole, idling made a trade, a mock-cheerful opener
        "I'm allergic to deadlines",
        "I'm a certified overthinker",
        "oh joy, please text me at 5am",
        # an assistant's reply pasted as the user's turn
        "Thank you for sharing that you're gluten intolerant.",
        "Okay! I'll respond in Italian going forward.",
        "As a language model, I don't drink coffee.",
        "Sure thing, I'll use metric units for you.",
        # the listener as the subject, more ways to ask, a pronoun for an item
        "Noted! You prefer aisle seats.",
        "Got it, you're based in Austin.",
        "idk if I'm lactose intolerant",
        "no idea whether I'm gluten intolerant tbh",
        "I'm gluten intolerant, correct",
        "my gf is allergic to cats",
        "I never drink it",
    ],
)
def test_look_alikes_of_the_dev14_families_store_nothing(text: str) -> None:
    assert stored(text) == {}


@pytest.mark.parametrize(
    "turns",
    [
        ("I'm allergic to shellfish", "undo the allergy bit"),
        ("my budget is 900 euros", "forget I mentioned a budget"),
        ("I have two cats", "not true about the cats, sorry"),
        ("I work at Siemens", "that was just a joke"),
        ("I'm from Oslo", "take back what I told you about Oslo"),
        ("I use Venmo", "strike the Venmo part"),
        ("I speak Greek", "I was just testing you"),
        ("I'm 45", "I typed it wrong, sorry"),
        ("my budget is 900 euros", "scratch the budget, I don't need one"),
    ],
)
def test_retractions_that_name_what_they_take_back(turns: tuple[str, str]) -> None:
    assert stored(turns[0])  # the statement stores on its own
    assert stored(*turns) == {}


@pytest.mark.usefixtures("rules_alone")
@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm a professional chef", "job.title", "professional chef"),
        ("the budget is 2k", "budget.max", "2000"),
        ("I'm vegetarian, wondering if you have recipes", "diet", "vegetarian"),
        ("wondering if there's a vegan bakery nearby, I'm vegan", "diet", "vegan"),
        ("use bullet points from now on", "response.format", "bullets"),
        ("I'm lactose intolerant like most people in my family", "intolerance", "lactose"),
        ("ignore the typos, I live in Leeds", "location.city", "Leeds"),
        ("you're right, I'm vegan", "diet", "vegan"),
        ("you can call me Sam", "name.preferred", "Sam"),
        ("married with one kid", "family.children", "1"),
    ],
)
def test_statements_next_to_those_families_still_store(text: str, key: str, value: str) -> None:
    assert stored(text).get(key, "").casefold() == value.casefold()


def test_a_real_allergy_and_a_real_trade_still_store() -> None:
    assert stored("I'm allergic to wasp stings").get("allergy.other")
    assert stored("I'm a professional photographer").get("job.title")
