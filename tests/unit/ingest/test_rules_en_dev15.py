"""English mechanisms the dev15 set (plain everyday chat) exposed: stages, not rows.

* asides that close a clause ("by the way", "if that matters", "in case it helps", "fwiw")
  are dropped before reading, like stance adverbs, so the clause ends where its fact does;
  "hands down" is a stance adverb; a self-introduction may open with "oh" / "and" /
  "btw"; "it's X but call me Y" names the user X;
* a pet just taken in ("got", "adopted", "rescued") or a new owner ("first-time puppy
  owner") is a pet the user has;
* phone calls disliked as a "taste" ("I hate talking on the phone", "no calls please,
  I can't stand them") are the call rule, ``contact.call`` = never;
* "I'm not reachable / not available between X and Y", "leave me alone between X and Y"
  are quiet hours;
* "X is my favourite" after an opener ("ok so", "oh and"); everyday staples (lentils,
  chickpeas, quinoa) are foods, so a taste for them is ``food.like``.

* context openers at a sentence's start ("fyi", "for context", "heads up", "please no")
  are dropped before reading, so rules anchored at the start read the fact;
* a first-person clause after a one-off request is the user's own lasting fact or limit
  ("find me a laptop, I don't want to go over 900"), the request itself stays one-off;
* "just economy is fine", "shorter replies please", "keep it professional" (its own
  tone, not ``formal``), "I have a bit of an intolerance to X", and "a dog allergy" is
  an allergy, not a dog.
* "again" after a refusal ("I won't fly X again") is a standing rule, not the
  behavioural cue "again"; "if I went X, would ..." (an irregular past) is hypothetical;
  "I'm in X so ..." ends the place at "so"; home crafts (baking, quilting, journaling)
  taken up are activities.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_rules_en_dev12 import items, records


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("hey I'm Ingrid by the way", "name", "ingrid"),
        ("oh, I'm Kwame", "name", "kwame"),
        ("I'm 58 if that matters", "age", "58"),
        ("I'm a paramedic, in case it helps", "job.title", "paramedic"),
        ("I live in Galway fwiw", "location.city", "galway"),
        ("It's Roberta but please call me Bobbie", "name", "roberta"),
    ],
)
def test_asides_and_openers_keep_the_fact(text: str, key: str, value: str) -> None:
    found = records(text)
    assert (key, value) in [(k, v.lower()) for k, v in found], found


@pytest.mark.parametrize(
    "text",
    [
        "my cousin lives in Perth by the way",
        "it's Thursday but call me tomorrow",
    ],
)
def test_look_alikes_name_no_city_or_name(text: str) -> None:
    found = records(text)
    assert not [k for k, _v in found if k.startswith(("location.", "name"))], found


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("we just adopted a kitten", {"cat"}),
        ("I recently rescued two puppies", {"dog"}),
        ("I'm a first-time hamster owner", {"hamster"}),
    ],
)
def test_a_pet_just_taken_in_is_the_users_pet(text: str, want: set[str]) -> None:
    assert items(records(text), "pet.species") == want


@pytest.mark.parametrize(
    "text",
    ["I just got a hot dog", "I got a dog toy for my nephew", "my neighbour just got a puppy"],
)
def test_things_bought_and_other_peoples_pets_are_no_pets(text: str) -> None:
    assert not items(records(text), "pet.species")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I really like chickpeas", {"chickpeas"}),
        ("so quinoa is my favourite", {"quinoa"}),
        ("oh and dumplings are hands down my favourite food", {"dumplings"}),
    ],
)
def test_staple_foods_and_favourites_after_an_opener_are_liked_foods(
    text: str, want: set[str]
) -> None:
    assert items(records(text), "food.like") == want


@pytest.mark.parametrize(
    "text",
    [
        "honestly I can't stand talking on the phone",
        "no voice calls please, I really dislike them",
        "ugh I hate phone calls",
    ],
)
def test_phone_calls_disliked_are_the_call_rule(text: str) -> None:
    found = records(text)
    assert ("contact.call", "never") in found, found
    assert not [k for k, _v in found if k.startswith(("taste.", "food.", "interest"))], found


def test_phone_calls_liked_or_someone_elses_dislike_set_no_call_rule() -> None:
    assert not [
        k for k, _v in records("my dad hates talking on the phone") if k.startswith("contact")
    ]
    assert ("contact.call", "never") not in records("I love long phone calls with friends")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I'm not reachable between 12 and 1pm, gym time", "12:00-13:00"),
        ("I'm not available between 8pm and 10pm on weekdays", "20:00-22:00"),
        ("please leave me alone between 11pm and 6am", "23:00-06:00"),
    ],
)
def test_unreachable_between_two_times_is_quiet_hours(text: str, want: str) -> None:
    assert ("contact.quiet_hours", want) in records(text)


def test_available_between_two_times_is_no_quiet_hours() -> None:
    found = records("I'm available between 9 and 5 on weekdays")
    assert not [k for k, _v in found if k == "contact.quiet_hours"], found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("fyi naproxen gives me hives", "allergy.medication", "naproxen"),
        ("heads up: I'm a pharmacist", "job.title", "pharmacist"),
        ("please no paypal, I closed that account", "payment.avoid", "paypal"),
        ("plain economy is fine for me", "travel.class", "economy"),
        ("briefer answers please", "response.length", "short"),
        ("stay professional with me please", "response.tone", "professional"),
        ("be more formal please", "response.tone", "formal"),
        ("I've got a slight intolerance to fructose", "intolerance", "fructose"),
    ],
)
def test_openers_and_plain_wordings_keep_the_fact(text: str, key: str, value: str) -> None:
    found = records(text)
    got = {v.lower() for k, v in found if k == key or k.startswith(key + ".")}
    assert value in got or items(found, key) == {value}, found


def test_a_limit_beside_a_request_is_kept_the_request_alone_is_not() -> None:
    assert ("budget.max", "600") in [
        (k, v.split()[0]) for k, v in records("get me a phone, I can't spend more than 600")
    ]
    assert not [k for k, _v in records("get me a phone under 600") if k.startswith("budget")]


def test_a_pet_allergy_is_no_pet() -> None:
    found = records("I have a cat allergy")
    assert {i.rstrip("s") for i in items(found, "allergy.other")} == {"cat"}
    assert not items(found, "pet.species")


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I won't fly Frontier again", "travel.airline.avoid", "frontier"),
        ("never put me on Wizz Air again please", "travel.airline.avoid", "wizz air"),
        ("I'm in Lyon so mornings are best for me", "location.city", "lyon"),
    ],
)
def test_refusals_with_again_and_places_before_so_are_kept(text: str, key: str, value: str) -> None:
    found = records(text)
    got = {v.lower() for k, v in found if k == key or k.startswith(key + ".")}
    assert value in got, found


@pytest.mark.parametrize(
    "text",
    [
        "if I became a vegan would I get enough iron",
        "if I took the job in Denver would I need a car",
        "window seat again please",
    ],
)
def test_irregular_past_conditions_and_plain_again_store_nothing(text: str) -> None:
    assert records(text) == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I've been getting into quilting lately", {"quilting"}),
        ("I'm taking up journaling this year", {"journaling"}),
    ],
)
def test_home_crafts_taken_up_are_interests(text: str, want: set[str]) -> None:
    assert items(records(text), "interest") == want


def test_cooking_tonight_is_no_interest() -> None:
    assert not items(records("I'm cooking dinner for my in-laws tonight"), "interest")
