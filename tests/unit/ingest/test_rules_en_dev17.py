"""English mechanisms the dev17 set (ordinary users' chat, round 8) exposed: stages, not rows.

* quiet hours said as two open ends in two sentences ("nothing after 9pm. nothing before 7am
  either") make one range, and "don't send me anything after ..." is a quiet hour;
* the emergency exception to "never call me" said in a sentence of its own;
* switches ("I've switched to Telegram / Apple Pay / oat milk now"), a household or a small
  business as the subject ("we pay suppliers by bank transfer", "we always go with BA",
  "we're both on SkyMiles", "we all love Thai food in this house", "we're a bakery in Cork");
* a value given as an answer ("yes, aisle please, always"), "X is our usual";
* an e-mail address after "my address is" is the e-mail, not a home address;
* "she or they" pronouns, "shorter answers please", "everything priced in euros", "lowered
  my limit to 100", "retiring to Malaga", "moved down to Brighton", "my doctor switched me
  to sertraline", "a proper allergy to kiwi", "arthritis in my hands", "I'm 67 and not ...",
  hobbies by their activity word, "I live alone", a trait before ", so ...".

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.ingest_probe import has_value as _has
from tests.unit.ingest.test_rules_en_dev12 import records


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("please don't send me anything after 10pm. and nothing before 8am", "22:00-08:00"),
        (
            "no messages after 11 at night please. no texts before 6 in the morning either",
            "23:00-06:00",
        ),
    ],
)
def test_open_ends_in_two_sentences_make_one_range(text: str, value: str) -> None:
    assert ("contact.quiet_hours", value) in records(text)


def test_one_open_end_stays_open() -> None:
    assert records("please don't send me stuff after 10pm") == [
        ("contact.quiet_hours", "after 22:00")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Don't ring me please. In a genuine emergency it's okay.",
        "no calls at all. my one exception is a real emergency.",
    ],
)
def test_emergency_exception_in_its_own_sentence(text: str) -> None:
    found = records(text)
    assert ("contact.call", "never") in found and ("contact.call.emergency", "allowed") in found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("we've moved over to Signal now", "contact.channel", "signal"),
        ("I switched to Google Pay last month", "payment.method", "google_pay"),
        ("I've just switched to almond milk", "food.like", "almond milk"),
        ("at the salon we pay our rent by bank transfer", "payment.method", "bank_transfer"),
        ("paypal or cash only", "payment.method", "cash"),
        ("we usually fly with KLM", "travel.airline", "klm"),
        ("we're both on Marriott Bonvoy", "travel.loyalty", "marriott bonvoy"),
        ("we always stay at a Travelodge", "hotel.chain", "travelodge"),
        ("we both love Indian food at home", "food.like", "indian food"),
        ("I keep hens in the garden", "pet.species", "chicken"),
        ("yes, aisle please, always", "travel.seat", "aisle"),
        ("Hilton is our usual", "hotel.chain", "hilton"),
        ("We're a small florist in Galway, Ireland", "location.city", "galway"),
        ("I run a little café in Whitby", "location.city", "whitby"),
    ],
)
def test_switches_households_businesses_and_answers(text: str, key: str, value: str) -> None:
    found = records(text)
    assert _has(found, key, value), found


@pytest.mark.parametrize(
    "text",
    ["we love the new bakery", "my son is a big rugby fan", "I eat chicken on Sundays"],
)
def test_no_taste_pet_or_hobby_from_look_alikes(text: str) -> None:
    keys = [k for k, _ in records(text)]
    assert not [k for k in keys if k.startswith(("food.", "pet.", "interest"))], keys


def test_email_after_my_address_is_the_email() -> None:
    found = records("my address is tom.baker71@hotmail.com")
    assert ("contact.email", "tom.baker71@hotmail.com") in found
    assert not [k for k, _ in found if k == "location.address"]
    assert [k for k, _ in records("my address is 4 Mill Road, Ely")] == ["location.address"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("you can use he or they for me", "pronouns", "he/they"),
        ("my pronouns are she or they", "pronouns", "she/they"),
        ("shorter replies please", "response.length", "short"),
        ("can I have all the prices shown in euros", "currency", "eur"),
        ("we raised our budget to 2k", "budget.max", "2000"),
        ("we're emigrating to Auckland in May", "location.moving_to", "auckland"),
        ("the GP changed me to amlodipine", "medication", "amlodipine"),
        ("it's a real allergy to sesame, not just a dislike", "allergy.food", "sesame"),
        ("I have psoriasis in both elbows", "health.condition", "psoriasis"),
        ("I'm 58 and pretty new to smartphones", "age", "58"),
        ("huge cricket fan here", "interest", "cricket"),
        ("I've recently taken up yoga lessons", "interest", "yoga"),
        ("for fun I play chess and bridge", "interest", "bridge"),
        ("I live on my own", "note", "i live on my own"),
        ("I'm colour blind, so stick to shapes", "accessibility", "colorblind_safe"),
    ],
)
def test_value_wordings(text: str, key: str, value: str) -> None:
    found = records(text)
    assert _has(found, key, value), found


def test_moved_down_keeps_the_previous_city() -> None:
    found = records("after 20 years in Leeds we moved up to Newcastle")
    assert ("location.city", "newcastle") in found
    assert ("location.city.previous", "leeds") in found


def test_trait_before_so_is_a_note() -> None:
    found = records("I'm short sighted, so the font needs to be big")
    assert [k for k, _ in found if k.startswith("note.")], found
    assert not [k for k, _ in records("I'm tired, so I need a nap") if k.startswith("note.")]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm Alexandra, but Alex is fine", "name.preferred", "alex"),
        ("I'm Alexandra, but Alex is fine", "name", "alexandra"),
        ("please call me Dr. Okafor", "name.preferred", "dr. okafor"),
        ("oh and it's Ingrid, since you asked for my name", "name", "ingrid"),
        ("I speak Dutch, English, and a bit of Spanish", "language.spoken", "es"),
        ("I speak Dutch and Gaelic", "language.spoken", "gd"),
        ("we only speak Urdu at home", "language.spoken", "ur"),
        ("I'm comfortable in English too", "language.spoken", "en"),
        ("answer in Italian please, even when I type in English", "language", "it"),
        ("am/pm please, the 24 hour clock just confuses me", "units.time_format", "12h"),
        ("I'd rather not fly Ryanair. never book me on Ryanair", "travel.airline.avoid", "ryanair"),
        ("I refuse to fly with easyJet", "travel.airline.avoid", "easyjet"),
        ("premium economy on long haul flights", "travel.class", "premium_economy"),
        ("we got a kitten in May. his name is Biscuit", "pet.names", "biscuit"),
    ],
)
def test_names_languages_formats_and_travel(text: str, key: str, value: str) -> None:
    found = records(text)
    assert _has(found, key, value), found


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("answer in Italian please, even when I type in English", "language"),
        ("am/pm please, the 24 hour clock just confuses me", "units.time_format"),
        ("my sister got a puppy. her name is Bella", "pet.names"),
        ("my son is 8. his name is Oliver", "pet.names"),
    ],
)
def test_no_second_or_borrowed_value(text: str, key: str) -> None:
    found = records(text)
    assert len([k for k, _ in found if k == key or k.startswith(key + ".")]) <= 1, found
    if key == "pet.names":
        assert not [k for k, _ in found if k.startswith("pet.")], found


@pytest.mark.parametrize(
    "text",
    [
        "sure, I'm a people person, I adore queues. not.",
        "the letter opened 'I am writing to you from Madrid'",
    ],
)
def test_trailing_not_and_quoted_openings_store_nothing(text: str) -> None:
    assert records(text) == []


def test_short_form_needs_the_users_own_name_first() -> None:
    assert not [
        k for k, _ in records("Ella is my niece, but Bella is fine too") if k.startswith("name")
    ]


@pytest.mark.parametrize(
    ("text", "key", "want"),
    [
        (
            "Codeine and aspirin, I'm allergic to both of them",
            "allergy.medication",
            {"codeine", "aspirin"},
        ),
        (
            "prawns, mussels and crab: allergic to all three",
            "allergy.food",
            {"prawns", "mussels", "crab"},
        ),
    ],
)
def test_allergens_named_first_then_pointed_back_to(text: str, key: str, want: set[str]) -> None:
    found = records(text)
    got = {v.strip() for k, val in found if k.startswith(key) for v in val.split(",")}
    assert got == want, found


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("it's Aoife, not Eva. you spelled my name wrong again", "aoife"),
        ("you keep getting my name wrong. it's Grainne", "grainne"),
    ],
)
def test_name_given_apart_from_the_remark_about_it(text: str, name: str) -> None:
    assert ("name", name) in records(text)


@pytest.mark.parametrize(
    "text",
    [
        "it's Leeds, not London. you keep getting my name wrong",
        "it's Monday. you wrote my name wrong",
    ],
)
def test_no_name_from_places_or_days(text: str) -> None:
    assert not [k for k, _ in records(text) if k == "name"]
