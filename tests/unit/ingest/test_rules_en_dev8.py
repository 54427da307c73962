"""English mechanisms the dev8 set exposed (issue 12): general ones, not rows per wording.

* a list said in one breath goes on past the word a row stops at ("X and Y");
* items said together share their kind (an animal is an "other" allergen);
* one currency named in a clause holds for every budget bound in it;
* a clause without its "I" ("work as ...", "just turned 40") is read with it put back;
* a known value with a preference word and nothing else ("venmo is my go to");
* names and ages followed by chat filler ("if you need it", "lol");
* retractions that name what they take back, a trailing "... not", quoted signs.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_gate_generalize import stored
from tests.unit.ingest.test_rules_zh_general import extract, has


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        # list continuation: the row stops at "and", the list does not
        ("I'm obsessed with tacos and pho", "food.like", {"tacos", "pho"}),
        ("currently on metoprolol and warfarin", "medication", {"metoprolol", "warfarin"}),
        ("I'm fluent in german and learning italian", "language.spoken", {"de", "it"}),
        # an unknown item goes with the known one said beside it; animals are "other"
        ("i'm allergic to cats and rabbits", "allergy.other", {"cats", "rabbits"}),
    ],
)
def test_lists_said_in_one_breath_are_read_whole(text: str, key: str, values: set[str]) -> None:
    found = extract(text)
    got = {v.lower() for k, v in found if k.startswith(key)}
    items = {i.strip() for v in got for i in v.split(",")}
    assert items == values, found


@pytest.mark.parametrize(
    "text",
    [
        # a new clause after "and" is no further item
        "I take metformin and I live in Leeds",
        "I'm allergic to peanuts and carry an epipen",
    ],
)
def test_a_new_clause_after_and_is_no_list_item(text: str) -> None:
    found = extract(text)
    assert not any("leeds" in v.lower() and k.startswith("medication") for k, v in found)
    assert not any("epipen" in v.lower() for _, v in found), found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # the currency said at one bound holds for the other
        ("no less than 200 euros and no more than 450", "budget.max", "450 EUR"),
        ("budget max 90£", "budget.max", "90 GBP"),
        # subject-less chat clauses
        ("just turned forty", "age", "40"),
        ("living in Bristol these days", "location.city", "Bristol"),
        # a value with a preference word and nothing else
        ("venmo is my go to", "payment.method", "venmo"),
        ("strictly kosher for me", "diet", "kosher"),
        ("always whatsapp", "contact.channel", "whatsapp"),
        ("emirates is my airline of choice", "travel.airline", "emirates"),
        ("hyatt's my default hotel", "hotel.chain", "hyatt"),
        ("never paypal", "payment.avoid", "paypal"),
        ("never flying spirit again", "travel.airline.avoid", "spirit"),
        # chat filler after a name or an age
        ("my name is Ravi in case you need it", "name", "Ravi"),
        ("hi it's nadia here", "name", "nadia"),
        ("i'm 52 btw", "age", "52"),
    ],
)
def test_general_english_forms_are_read(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("telegram", "contact.channel"),  # a bare word is an answer or a topic
        ("is paypal my go to?", "payment.method"),
        ("my brother says venmo is his go to", "payment.method"),
        ("it's me here", "name"),
        ("it's freezing here", "name"),
        ("take the train, it's faster", "note"),
    ],
)
def test_look_alikes_of_those_forms_store_nothing(text: str, key: str) -> None:
    assert not any(k.startswith(key) for k in stored(text)), stored(text)


@pytest.mark.parametrize(
    "turns",
    [
        ("I live in Rome", "forget what i told you about living in rome"),
        ("use a table please", "never mind the table thing"),
    ],
)
def test_retractions_that_name_their_topic_take_it_back(turns: tuple[str, str]) -> None:
    assert stored(turns[0]) != {}
    assert stored(*turns) == {}


@pytest.mark.parametrize(
    "text",
    [
        "i'm such a patient person... not",
        "oh i just adore junk mail",
        "the mug read 'I'm a vegan'",
    ],
)
def test_sarcasm_and_quoted_signs_store_nothing(text: str) -> None:
    assert stored(text) == {}


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # a dropped subject of each kind: a state ("i'm"), "been" ("i've"), a count ("i have")
        ("happily divorced, no regrets", "relationship.status", "divorced"),
        ("been into pottery since college", "interest", "pottery"),
        ("three kids and a mortgage", "family.children", "3"),
        ("used to live in Denver, now i'm in Austin", "location.city.previous", "denver"),
        # noun-phrase fragments: allergy / intolerance, "X nerd", "cat dad", homes, doses
        ("btw mild shellfish allergy", "allergy.food", "shellfish"),
        ("histamine intolerant fyi", "intolerance", "histamine"),
        ("total history buff", "interest", "history"),
        ("proud cat dad", "pet.species", "cat"),
        ("my apartment is in Boston", "location.city", "Boston"),
        ("Berlin-based designer", "location.city", "Berlin"),
        ("nightly melatonin", "medication", "melatonin"),
        ("metformin 500mg twice a day", "medication", "metformin"),
        ("gotta take my levothyroxine first thing", "medication", "levothyroxine"),
    ],
)
def test_subjectless_clauses_and_fragments_are_read(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("my brother is a big chess nerd", "interest"),
        ("home is where the heart is", "location.city"),
        ("daily routine matters", "medication"),
        ("not coeliac, just intolerant", "intolerance"),
        ("the peanut allergy thing is overblown", "allergy"),
        ("take me to the airport", "note"),
    ],
)
def test_fragment_look_alikes_store_no_such_key(text: str, key: str) -> None:
    assert not any(k.startswith(key) for k in stored(text)), stored(text)
