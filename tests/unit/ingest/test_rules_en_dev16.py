"""English mechanisms the dev16 set (mixed-register chat, round 7) exposed: stages, not rows.

* a standing preference stated beside a one-off request is kept ("ping me when it's done,
  WhatsApp works best for me"); when the same value is read twice, once inside the
  request and once as the standing fact, the firmer reading stays;
* an amount asked about becomes the user's limit when the next sentence says so
  ("any hotels under 150? that's my max");
* "I'm on <city> time" names the zone (more cities and countries, zone abbreviations after
  "my time zone is"), and "on Berlin time" is no medication;
* a move with a year ("moved to the UK in 2019"), a household "we're in <city>, <country>",
  a place that ends before "so <zone> time";
* quiet hours asked with "avoid messaging between ..." or as two open ends;
* a skill being learned ("learning to draw") is an interest, as keys.json has it for
  学画画 (a language being learned stays ``language.spoken``);
* ages as a frame ("as a 58 year old ...", "I'm 33 and looking ..."), more currencies
  (naira, Philippine peso, rand, shilling, dirham, cedi), countries, conditions, drugs and
  airlines, a seat said alone ("aisle for me"), a refusal with its reason after it.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.ingest_probe import has_value as _has
from tests.unit.ingest.test_rules_en_dev12 import records


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        (
            "call me when the car is ready, whatsapp works best for me though",
            "contact.channel",
            "whatsapp",
        ),
        ("send me the invoice, email is the easiest way to reach me", "contact.channel", "email"),
        ("message me once it's booked, telegram is best for me", "contact.channel", "telegram"),
        ("find me a jacket, 120 is my max", "budget.max", "120"),
    ],
)
def test_standing_preference_beside_a_request(text: str, key: str, value: str) -> None:
    found = records(text)
    assert _has(found, key, value), found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("any decent hotels in Rome under €150 a night? that's my max", "150 eur"),
        ("got any blenders under 60 bucks? can't spend more", "60 usd"),
        ("anything nice for under £40? that's all I can spend", "40 gbp"),
    ],
)
def test_amount_in_a_question_made_a_limit(text: str, value: str) -> None:
    found = records(text)
    assert ("budget.max", value) in [(k, v.lower()) for k, v in found], found


@pytest.mark.parametrize(
    "text",
    ["any decent hotels in Rome under €150 a night?", "is 60 bucks too much for a blender?"],
)
def test_amount_in_a_bare_question_is_no_limit(text: str) -> None:
    assert not [k for k, _ in records(text) if k.startswith("budget")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm on Nairobi time", "africa/nairobi"),
        ("we're on Dubai time here", "asia/dubai"),
        ("I'm on Madrid time", "europe/madrid"),
        ("my time zone is EAT", "africa/nairobi"),
        ("my timezone is WAT btw", "africa/lagos"),
        ("I'm on Tokyo time", "asia/tokyo"),
    ],
)
def test_city_time_names_the_zone(text: str, value: str) -> None:
    found = records(text)
    assert ("timezone", value) in [(k, v.lower()) for k, v in found], found
    assert not [k for k, _ in found if k.startswith("medication")], found


def test_place_ends_before_the_zone() -> None:
    found = records("I'm in Cebu so Philippine time")
    assert ("timezone", "asia/manila") in [(k, v.lower()) for k, v in found], found
    assert any(k == "location.city" and "cebu" in v.lower() for k, v in found), found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I moved to the US in 2015", "location.country", "US"),
        ("we moved to the Netherlands 3 years ago", "location.country", "NL"),
        ("I relocated to Kenya in 2022", "location.country", "KE"),
        ("we're in Lyon, France", "location.city", "lyon"),
        ("we are in Accra, Ghana", "location.country", "GH"),
    ],
)
def test_moves_with_a_year_and_household_places(text: str, key: str, value: str) -> None:
    found = records(text)
    assert (key, value.lower()) in [(k, v.lower()) for k, v in found], found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("please avoid calling me after 9pm or before 8am", "21:00-08:00"),
        ("avoid contacting me from 1 to 3pm, I nap", "13:00-15:00"),
        ("never text me after 11pm or before 7am", "23:00-07:00"),
    ],
)
def test_quiet_hours_avoid_and_open_ends(text: str, value: str) -> None:
    found = records(text)
    assert ("contact.quiet_hours", value) in found, found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm learning to draw", "drawing"),
        ("I've been teaching myself to code", "coding"),
        ("I'm slowly learning to knit", "knitting"),
        ("i'm learning to surf, it's so fun", "surfing"),
    ],
)
def test_skill_being_learned_is_an_interest(text: str, value: str) -> None:
    found = records(text)
    assert _has(found, "interest", value), found


def test_learning_to_with_an_object_is_no_interest() -> None:
    found = records("I'm learning to draw the line with my boss")
    assert not [k for k, _ in found if k.startswith("interest")], found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("as a 58 year old I struggle with small print", "58"),
        ("as a 41-year-old runner, what shoes do you suggest", "41"),
        ("I'm 33 and looking to buy my first flat", "33"),
    ],
)
def test_age_as_a_frame(text: str, value: str) -> None:
    assert ("age", value) in records(text)


def test_someone_elses_age_as_a_frame_is_not_mine() -> None:
    assert not [k for k, _ in records("as a 6 year old my daughter loved it") if k == "age"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("keep it under twenty thousand naira", "budget.max", "20000 ngn"),
        ("convert prices to rand please", "currency", "zar"),
        ("show everything in Philippine pesos", "currency", "php"),
        ("I live in Pakistan", "location.country", "pk"),
        ("I have endometriosis", "health.condition", "endometriosis"),
        ("I take losartan every morning", "medication", "losartan"),
        ("Kenya Airways is my preferred airline", "travel.airline", "kenya airways"),
        ("aisle for me please", "travel.seat", "aisle"),
        ("never flying easyjet again after what happened", "travel.airline.avoid", "easyjet"),
    ],
)
def test_vocabulary(text: str, key: str, value: str) -> None:
    found = records(text)
    assert _has(found, key, value), found


# ---- second pass: tastes, forms, names, work, money, places, passing stays ----------------


@pytest.mark.parametrize(
    ("text", "family", "want"),
    [
        ("I love ramen but can't stand coriander", "food.dislike", "coriander"),
        ("I adore pasta though I hate mushrooms", "food.dislike", "mushrooms"),
        ("I'm kinda obsessed with dumplings", "food.like", "dumplings"),
        ("nothing beats a good lasagne, I love a good lasagne", "food.like", "lasagne"),
        ("I play poker online most nights", "interest", "poker"),
    ],
)
def test_tastes_second_predicate_praise_and_obsession(text: str, family: str, want: str) -> None:
    found = records(text)
    assert _has(found, family, want), found


def test_someone_elses_second_taste_is_not_mine() -> None:
    found = records("my husband likes pizza but hates olives")
    assert not [k for k, _ in found if k.startswith(("food.", "taste."))], found


@pytest.mark.parametrize(
    ("text", "family", "want"),
    [
        ("Hobbies: cycling, chess, pottery", "interest", {"cycling", "chess", "pottery"}),
        ("Interests - astronomy, jazz", "interest", {"astronomy", "jazz"}),
        ("Note: drug allergy - codeine", "allergy.medication", {"codeine"}),
    ],
)
def test_form_fields_with_dashes_and_hobby_lists(text: str, family: str, want: set[str]) -> None:
    found = records(text)
    got = {v.lower() for k, v in found if k == family or k.startswith(family + ".")}
    assert want <= got, found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("my name's Olumide but please just Olu", "name.preferred", "olu"),
        ("Name: Tobenna, just Tobi is fine", "name.preferred", "tobi"),
        ("everyone calls me Bea. real name is Beatrix", "name", "beatrix"),
        ("pharmacist by profession", "job.title", "pharmacist"),
        (
            "Civil engineer by profession, currently working with Larsen & Toubro",
            "job.employer",
            "larsen & toubro",
        ),
        ("second year nursing student here", "job.status", "student"),
    ],
)
def test_names_and_work(text: str, key: str, value: str) -> None:
    found = records(text)
    assert (key, value) in [(k, v.lower()) for k, v in found], found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("need a fridge, can't spend more than 900 euros", "budget.max", "900 eur"),
        ("my budget is 1.5 lakh", "budget.max", "150000"),
        ("under 3 crore for the flat", "budget.max", "30000000"),
        ("we split the rent with Zelle", "payment.method", "zelle"),
        ("don't use Klarna for me please", "payment.avoid", "klarna"),
        ("if you need to reach me just use signal", "contact.channel", "signal"),
        ("please contact me over mail", "contact.channel", "email"),
        ("German answers would be great", "language", "de"),
        ("lengthy answers are fine by me", "response.length", "long"),
        ("start with the bottom line, then the details", "response.format", "summary_first"),
        ("eco class is fine", "travel.class", "economy"),
        ("Hyatt hotels are my top pick", "hotel.chain", "hyatt"),
        ("Skywards Miles member here", "travel.loyalty", "skywards miles"),
        ("celsius pls, fahrenheit makes no sense to me", "units.temperature", "celsius"),
        ("I'm allergic to feathers", "allergy.other", "feathers"),
        ("I'm also taking losartan", "medication", "losartan"),
    ],
)
def test_more_wordings(text: str, key: str, value: str) -> None:
    found = records(text)
    assert _has(found, key, value), found


def test_contact_by_mail_stays_post() -> None:
    assert ("contact.channel", "post") in records("contact me by mail")


def test_units_named_as_meaningless_are_not_wanted() -> None:
    found = records("celsius pls, fahrenheit makes no sense to me")
    assert ("units.temperature", "fahrenheit") not in found, found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("my partner and I are relocating to Porto in May", "location.moving_to", "porto"),
        ("out here in Galway we get a lot of rain, any indoor ideas?", "location.city", "galway"),
    ],
)
def test_places_with_me_in_the_subject_or_here(text: str, key: str, value: str) -> None:
    found = records(text)
    assert (key, value) in [(k, v.lower()) for k, v in found], found


@pytest.mark.parametrize(
    "text",
    [
        "my parents are relocating to Porto in May",
        "is it sunny here in Madrid?",
        "I'm staying with my cousin for a couple of days",
        "I'm at my in-laws' place for the holidays",
        "lol I speak fluent emoji",
    ],
)
def test_look_alikes_store_nothing(text: str) -> None:
    assert records(text) == []


def test_a_planned_move_called_off() -> None:
    found = records("I'm moving to Oslo in May", "scratch the move, we're not moving anymore")
    assert not [k for k, _ in found if k == "location.moving_to"], found
