"""English value normalizers and readers the dev19 set (values that need normalizing)
exposed: families of wording, each tested here on sentences of its own.

* a birthday's year said after the comma the clause split cut ("born on 3 March, 1984"),
  or with the century left out ("'91"); a dotted ISO date after a form label;
  a birthday told by a day relative to the turn ("my birthday was the day before
  yesterday", "my bday is next Monday");
* an age reached soon: "I turn 50 in May" is 49 now;
* a message signed with the user's name ("... Thanks,\\nOmar", "\\n- Greta");
* quiet hours in short clock forms ("22h to 6h30", "10p-6a", "half ten at night"),
  "in the afternoon" / "the next morning", and office hours said as a bare "8-4";
* amounts: "and a half" with a scale word, a currency code after a "k" amount, money
  "set aside", an amount range "in the 20-30k range", a limit as "my ceiling", a sum put
  first on the thing wanted ("about 80 quid for a ...");
* lists: substances before one "intolerant", items joined by " + ";
* children counted by kind and summed ("a son and two daughters", "twins");
* more names of languages (Farsi, Brazilian Portuguese, español, Deutsch);
* a move told as "relocated from X, now in Y".

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.ingest_probe import has_value as _has
from tests.unit.ingest.test_rules_en_dev12 import items, records


# the tests' turns are observed at 2026-04-15 (a Wednesday), as in test_rules_en_dev12
@pytest.mark.usefixtures("rules_alone")
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("born on the 3rd of March, 1984, a Pisces apparently", "1984-03-03"),
        ("I was born 22 Sept '91", "1991-09-22"),
        ("born June 9th, '03", "2003-06-09"),
        ("Date of birth: 1979.11.30", "1979-11-30"),
        ("my birthday was the day before yesterday", "04-13"),
        ("my bday is next Monday, can you suggest a restaurant?", "04-20"),
        ("it's my birthday today!!", "04-15"),
    ],
)
def test_birthday_values(text: str, value: str) -> None:
    assert _has(records(text), "birthday", value), records(text)


@pytest.mark.parametrize(
    "text",
    [
        "my daughter's birthday is tomorrow",
        "my birthday party is next Saturday",
    ],
)
def test_no_relative_birthday_for_others_or_parties(text: str) -> None:
    assert not any(k == "birthday" for k, _ in records(text))


@pytest.mark.usefixtures("rules_alone")
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I turn 50 in May, send help", "49"),
        ("I'm turning thirty-five next week", "34"),
        ("I'll be 60 this coming Sunday", "59"),
    ],
)
def test_age_before_a_birthday(text: str, value: str) -> None:
    assert _has(records(text), "age", value), records(text)


@pytest.mark.parametrize(
    "text",
    ["my son turns 18 next month", "I'll be 15 minutes late tomorrow"],
)
def test_no_age_from_others_or_minutes(text: str) -> None:
    assert not any(k == "age" for k, _ in records(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Can you resend the slides from Monday? Thanks,\nOmar", "Omar"),
        ("Looks good to me, please go ahead.\n\nWarm regards,\nIngrid Solberg", "Ingrid Solberg"),
        ("Please use the second option.\n- Greta", "Greta"),
        ("sounds perfect, book the 9:15 one - Tariq", "Tariq"),
    ],
)
def test_name_from_a_sign_off(text: str, value: str) -> None:
    assert _has(records(text), "name", value), records(text)


@pytest.mark.parametrize(
    "text",
    [
        "Great answer. Thanks, Claude",
        "Thanks, Jamal",
        "I loved that trip - Paris",
    ],
)
def test_no_name_from_thanks_to_others(text: str) -> None:
    assert not any(k == "name" for k, _ in records(text))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("please do not disturb from 22h to 6h30", "22:00-06:30"),
        ("no notifications 10p-6a please", "22:00-06:00"),
        ("don't message me between half ten at night and 7am", "22:30-07:00"),
        (
            "I sleep days, so leave me alone from 8 in the morning until 3 in the afternoon",
            "08:00-15:00",
        ),
        ("nothing from 9 in the evening till 7 the next morning", "21:00-07:00"),
        ("I'm in the office 8-4 so no texts then", "08:00-16:00"),
    ],
)
def test_quiet_hours_clock_forms(text: str, value: str) -> None:
    assert _has(records(text), "contact.quiet_hours", value), records(text)


def test_no_quiet_hours_from_a_bare_range() -> None:
    assert not any(k == "contact.quiet_hours" for k, _ in records("don't text me scores like 8-4"))


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("one and a half grand is my ceiling for a sofa", "budget.max", "1500"),
        ("my budget is three and a half thousand", "budget.max", "3500"),
        ("we've got roughly 4.5k CAD set aside for the trip", "budget.max", "4500 CAD"),
        ("looking at something in the 20-30k range for a van", "budget.min", "20000"),
        ("looking at something in the 20-30k range for a van", "budget.max", "30000"),
        ("about 80 quid for a pair of running shoes", "budget.max", "80 GBP"),
    ],
)
def test_amount_values(text: str, key: str, value: str) -> None:
    assert _has(records(text), key, value), records(text)


@pytest.mark.parametrize(
    ("text", "family", "want"),
    [
        ("I'm gluten and fructose intolerant", "intolerance", {"gluten", "fructose"}),
        ("allergic to walnuts + mustard", "allergy.food", {"walnuts", "mustard"}),
    ],
)
def test_list_values(text: str, family: str, want: set[str]) -> None:
    found = records(text)
    assert items(found, family) == want, found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("we have a son and two daughters", "3"),
        ("proud dad of twins", "2"),
        ("I'm a mum of three boys and a girl", "4"),
        ("I have one daughter, she's at uni", "1"),
    ],
)
def test_children_summed(text: str, value: str) -> None:
    assert _has(records(text), "family.children", value), records(text)


@pytest.mark.parametrize("text", ["I have a daughter who lives in Oslo", "my brother has two boys"])
def test_no_children_count(text: str) -> None:
    assert not any(k == "family.children" for k, _ in records(text))


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I grew up speaking Farsi", "language.spoken", "fa"),
        ("please reply in Brazilian Portuguese", "language", "pt"),
        ("answer in español from now on", "language", "es"),
        ("please reply in Deutsch", "language", "de"),
    ],
)
def test_language_names(text: str, key: str, value: str) -> None:
    assert _has(records(text), key, value), records(text)


def test_move_from_then_now_in() -> None:
    found = records("we just relocated from Leeds, now in York")
    assert _has(found, "location.city", "york"), found
    assert _has(found, "location.city.previous", "leeds"), found


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I take ramipril and aspirin every morning", {"ramipril", "aspirin"}),
        ("I'm on levothyroxine nightly", {"levothyroxine"}),
    ],
)
def test_medication_without_how_often(text: str, want: set[str]) -> None:
    found = records(text)
    assert items(found, "medication") == want, found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("weather in °F please", "units.temperature", "fahrenheit"),
        ("℃ for forecasts", "units.temperature", "celsius"),
        ("celsius for me, I can't work with fahrenheit", "units.temperature", "celsius"),
        ("am/pm please, the 24 hour clock confuses me", "units.time_format", "12h"),
        ("show me AUD please", "currency", "AUD"),
    ],
)
def test_unit_values(text: str, key: str, value: str) -> None:
    assert _has(records(text), key, value), records(text)


@pytest.mark.parametrize("text", ["it hit 35°C here yesterday", "it's 70 °F in the office"])
def test_no_scale_from_a_reading(text: str) -> None:
    assert not any(k == "units.temperature" for k, _ in records(text))


def test_scale_the_user_cannot_use_is_not_stored() -> None:
    found = records("fahrenheit please, I can't think in celsius")
    assert _has(found, "units.temperature", "fahrenheit"), found
    assert not _has(found, "units.temperature", "celsius"), found


def test_move_inside_an_intro_list() -> None:
    found = records("hey, I'm Mo, 41, just moved to Cardiff from Swansea")
    assert _has(found, "location.city", "cardiff"), found
    assert _has(found, "location.city.previous", "swansea"), found


def test_no_quiet_hours_from_around_the_clock() -> None:
    found = records("honestly my quiet hours are 24/7")
    assert not any(k == "contact.quiet_hours" for k, _ in found), found


@pytest.mark.parametrize(
    ("text", "family", "want"),
    [
        ("three rabbits and a cat at home", "pet.species", {"rabbit", "cat"}),
        ("a hamster and two cats at home", "pet.species", {"hamster", "cat"}),
    ],
)
def test_two_rows_of_one_list_keep_both_items(text: str, family: str, want: set[str]) -> None:
    found = records(text)
    assert items(found, family) == want, found


def test_one_substance_said_twice_is_one_item() -> None:
    found = records("cheese upsets my stomach, I'm lactose intolerant")
    assert items(found, "intolerance") == {"lactose"}, found


@pytest.mark.parametrize(
    ("text", "value"),
    [("Spanish is my second language", "es"), ("Tamil's my mother tongue, fyi", "ta")],
)
def test_language_named_as_mine(text: str, value: str) -> None:
    assert _has(records(text), "language.spoken", value), records(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I always book prem eco for work trips", "premium_economy"),
        ("biz class on long-haul please", "business"),
        ("I only ever fly coach", "economy"),
    ],
)
def test_cabin_class_slang(text: str, value: str) -> None:
    assert _has(records(text), "travel.class", value), records(text)


def test_no_class_from_a_trainer() -> None:
    assert not any(k == "travel.class" for k, _ in records("my coach wants me to rest"))


def test_budget_for_a_thing_is() -> None:
    found = records("our budget for the sofa is roughly €900")
    assert _has(found, "budget.max", "900 EUR"), found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("JST here, so mornings for you are evenings for me", "Asia/Tokyo"),
        ("I'm in Pune, so everything in IST please", "Asia/Kolkata"),
    ],
)
def test_zone_abbreviation_said_bare(text: str, value: str) -> None:
    found = records(text)
    assert _has(found, "timezone", value), found
    assert not any(k == "name" for k, _ in found), found
