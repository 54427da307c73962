"""English mechanisms the dev18 set (everyday chat mid-conversation, round 9) exposed.

* a filler that closes a clause before its comma keeps the comma ("not a fan of mushrooms
  tbh, pick something else" is mushrooms, not "mushrooms pick something else");
* "here" after a household taste, cheeses as foods;
* a job title with a place adverb before the employer ("engineer over at X"), more trades;
* corrections that name the new and the old value ("actually make that aisle, not window");
* a time zone pointed back to from a place ("I'm in Tokyo, use that time zone") or an
  abbreviation answered ("CET here");
* "be a bit more concise", "give me all the details", "something in between ... length";
* a conversion asked for is a one-off task;
* how long an allergy has lasted, "myself" after the allergen, "a serious X allergy";
* pets and children of "our" named together, a pet adjective before the pet's name, one
  child named in apposition or counted in a bare list;
* a drug's form after its name ("a salbutamol inhaler"), loyalty tiers before "status";
* bullet points hated is prose; a scale one has "no feel for" is not chosen; "miles and
  pounds" is imperial.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_rules_en_dev12 import items, records


def test_filler_before_comma_keeps_the_clause_break() -> None:
    found = records("not a big fan of olives tbh, order something else")
    assert items(found, "food.dislike") == {"olives"}


def test_household_taste_here_is_no_part_of_the_item() -> None:
    assert items(records("we all love curry here"), "food.like") == {"curry"}


@pytest.mark.parametrize("cheese", ["halloumi", "brie", "paneer"])
def test_cheeses_are_foods(cheese: str) -> None:
    assert items(records(f"honestly i love {cheese}"), "food.like") == {cheese}


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("I'm a data analyst over at Barclays, numbers all day", "data analyst"),
        ("i'm a hairdresser, so weekends are busy", "hairdresser"),
        ("I'm a physio in a big hospital", "physio"),
    ],
)
def test_job_titles(text: str, title: str) -> None:
    assert ("job.title", title) in records(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("actually make that aisle, not window", "travel.seat", "aisle"),
        ("sorry, change it to telegram instead of whatsapp", "contact.channel", "telegram"),
        ("oh wait make that business class rather than economy", "travel.class", "business"),
    ],
)
def test_correction_names_the_new_value(text: str, key: str, value: str) -> None:
    assert (key, value) in records(text)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("i live in tokyo, use that time zone please", "asia/tokyo"),
        ("CET here, so mornings are best", "europe/berlin"),
        ("EST for me, I'm in Boston", "america/new_york"),
    ],
)
def test_time_zone_pointed_back_or_answered(text: str, zone: str) -> None:
    found = records(text)
    assert ("timezone", zone) in found


def test_time_zone_from_a_place_keeps_the_city() -> None:
    found = records("i live in tokyo, use that time zone please")
    assert ("location.city", "tokyo") in found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("could you be a little more concise", "short"),
        ("give me all the details, I like to know everything", "long"),
        ("anything in between is fine for length", "medium"),
    ],
)
def test_answer_length(text: str, value: str) -> None:
    assert ("response.length", value) in records(text)


@pytest.mark.parametrize(
    "text",
    ["convert 75 fahrenheit into celsius", "can you convert 20 celsius to fahrenheit for me"],
)
def test_a_conversion_is_a_one_off_task(text: str) -> None:
    assert records(text) == []


@pytest.mark.parametrize(
    ("text", "key", "item"),
    [
        ("I've been allergic to codeine for decades", "allergy.medication", "codeine"),
        ("I'm allergic to latex myself", "allergy.other", "latex"),
        (
            "we're off to a curry house tonight but heads up I have a serious sesame allergy",
            "allergy.food",
            "sesame",
        ),
    ],
)
def test_allergen_without_what_follows_it(text: str, key: str, item: str) -> None:
    assert items(records(text), key) == {item}


def test_our_pets_named_together() -> None:
    found = records("our two dogs are called Bo and Ziggy")
    assert items(found, "pet.names") == {"bo", "ziggy"}
    assert ("pet.species", "dog") in found


def test_pet_adjective_before_the_name() -> None:
    assert ("pet.names.ginger", "ginger") in records("my old cat Ginger sleeps all day")


def test_our_children_named_together() -> None:
    assert items(records("our sons are called Jack and Alfie"), "family.child.names") == {
        "jack",
        "alfie",
    }


def test_one_child_named_in_apposition() -> None:
    found = records("I've got one daughter, Ava, she's 5")
    assert ("family.children", "1") in found
    assert items(found, "family.child.names") == {"ava"}


def test_one_child_in_a_bare_list() -> None:
    assert ("family.children", "1") in records("widowed, one son")


def test_drug_form_is_no_part_of_the_drug() -> None:
    assert items(records("I use a beclometasone inhaler every night"), "medication") == {
        "beclometasone"
    }


def test_loyalty_tier_before_status() -> None:
    found = records("I've got Marriott Bonvoy platinum status")
    assert items(found, "travel.loyalty") == {"marriott bonvoy"}


def test_bullet_points_hated_is_prose() -> None:
    found = records("I really dislike bullet points")
    assert ("response.format", "prose") in found
    assert ("response.format", "bullets") not in found


def test_scale_with_no_feel_for_is_not_chosen() -> None:
    found = records("fahrenheit please, I've no feel for celsius")
    assert ("units.temperature", "fahrenheit") in found
    assert ("units.temperature", "celsius") not in found


def test_two_imperial_units_named_together() -> None:
    assert ("units.system", "imperial") in records("feet and inches for heights please")


# ---- second batch: favourites, household subjects, refusals, habits, measures, moves ----


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("my go-to hangover food has to be a kebab", "kebab"),
        ("pho is my favourite food ever", "pho"),
        ("dumplings are my favourite thing in the world", "dumplings"),
    ],
)
def test_favourite_food_wordings(text: str, item: str) -> None:
    assert items(records(text), "food.like") == {item}


def test_household_loyal_to_an_airline() -> None:
    assert ("travel.airline", "klm") in records("we are both loyal to KLM, always have been")


def test_anything_but_an_airline_is_refused() -> None:
    assert items(records("any airline except Spirit please"), "travel.airline.avoid") == {"spirit"}


def test_pointed_to_is_recommended() -> None:
    found = records("never steer me towards timeshares")
    assert items(found, "recommend.never") == {"timeshares"}


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("I've been doing karate since I was 10", "karate"),
        ("been going climbing every week for ages", "climbing"),
        ("I knit most evenings", "knitting"),
        ("I garden whenever it's dry", "gardening"),
    ],
)
def test_hobby_kept_up_or_said_by_its_verb(text: str, item: str) -> None:
    assert item in items(records(text), "interest")


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("my cholesterol runs a bit high", "high cholesterol"),
        ("my blood pressure has always been high", "high blood pressure"),
    ],
)
def test_condition_by_its_measure(text: str, item: str) -> None:
    assert items(records(text), "health.condition") == {item}


def test_normal_measure_is_no_condition() -> None:
    assert records("my blood pressure is normal") == []


def test_payment_with_my_card() -> None:
    assert ("payment.method.debit_card", "debit_card") in records("I pay with my debit card")


def test_subjectless_move_after_a_clause() -> None:
    found = records("the flat is sorted, moving to Glasgow in April")
    assert ("location.moving_to", "glasgow") in found


def test_move_after_a_condition_is_not_planned() -> None:
    assert records("if I get the job, moving to Oslo") == []


def test_household_clause_after_and() -> None:
    found = records("we live in Leeds and we've got a rabbit called Clover")
    assert ("pet.names.clover", "clover") in found and ("location.city", "leeds") in found


# ---- third batch: holiday birthdays with a year, jargon, pronoun pairs, sign-ins ----


def test_holiday_birthday_keeps_its_year() -> None:
    assert ("birthday", "1988-10-31") in records("I was born on Halloween 1988")


@pytest.mark.parametrize(
    "text", ["please cut the technical jargon", "explain it without the jargon, I'm new to this"]
)
def test_jargon_refused_is_simple(text: str) -> None:
    assert ("response.style", "simple") in records(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [("honestly I use he him", "he/him"), ("I go by she her, thanks", "she/her")],
)
def test_pronoun_pair_without_a_slash(text: str, value: str) -> None:
    assert ("pronouns", value) in records(text)


def test_greeting_and_name_signed_in() -> None:
    assert ("name", "tomasz") in records("hi, Tomasz here, following up on the hotel thing")


@pytest.mark.parametrize("text", ["hi, Paris here, it's raining", "hey, I'm here"])
def test_place_or_pronoun_is_no_name(text: str) -> None:
    assert not any(k == "name" for k, _ in records(text))


# ---- fourth batch: experience vs rule, colon laughs, calls welcome, skipped topics ----


@pytest.mark.parametrize("text", ["never understood the appeal tbh", "is tofu keto? never known"])
def test_never_with_an_experience_is_no_rule(text: str) -> None:
    assert records(text) == []


def test_laugh_after_a_colon_covers_the_head() -> None:
    assert records("I'm trilingual: english, sarcasm and memes 😂") == []


@pytest.mark.parametrize("text", ["call me any time, it's fine", "you can ring me whenever"])
def test_calls_welcome(text: str) -> None:
    assert ("contact.call", "allowed") in records(text)


def test_subjectless_work_as_in_a_city() -> None:
    found = records("I'm 41, work as a welder in Manchester")
    assert ("location.city", "manchester") in found


def test_skipped_topic_not_for_me() -> None:
    found = records("leave out the golf stuff, it's just not my thing")
    assert items(found, "recommend.never") == {"golf stuff"}
