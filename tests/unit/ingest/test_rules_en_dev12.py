"""English mechanisms the dev12 set exposed (issue 12): stages, not rows per wording.

* a comma list keeps every item: the clause splitter cuts "I like A, B, C and D" at the
  commas, and each later bare item is read with the first item's words in front of it,
  as a sibling of the first (never replacing it); a form field's value runs over the
  comma list ("Allergies: A, B");
* an appositive list is also opened by "name's X" and by a subject-less state
  ("Retired, 67, widowed"); a dotted profile bio with a bare age ("41. nurse. two
  kids.") is read as that list; "I'm 45 so ..." / "I'm 52 and still ..." state the age;
* contact wordings: the best way to reach the user, a "best contact:" field, what is sent
  by which channel (standing only with "prefer" / "all" / "future" ...), calls refused on
  "my mobile" or by "I don't do calls", allowed by "give me a ring" / "I don't mind calls";
  a letter by post is the schema's ``post``;
* paying: "I'd rather pay cash" (no preposition), "debit only";
* a question opened by "should I" and a past-tense condition with "would" store nothing;
* value readers: a currency written before the number ("AUD 3000", "Rs. 25,000", "₹"),
  "fifty pounds", "don't want to go over X"; "9.30 at night"; "22:00 - 06:30" is a range,
  not two clauses; more language names; a country read as the city lived in is the
  country; "NZ", "Scotland";
* look-alikes: "that was a joke" / "I was only kidding" take the previous turn back;
  "don't call me <word>" is about a name (it forgets that name), not calls; "oh
  absolutely, I ..." and "yeah and I'm ..." open sarcasm, "the queen of ...", "fluent in
  sarcasm" are jokes, and hidden fees join the stock annoyances;
* interests: "passionate about X" without "I'm", "weekends are for X and Y", "I've been
  learning X", crafts as activities;
* lists and keys: "intolerant to X and Y", "<substance> intolerance" named as a condition,
  "Drug allergies:" / "frequent flyer:" fields, "I always book the window", "uni student",
  "loyal to <airline>", "<drug> makes me sick", "a couple of <pets>", "two teenage boys",
  Indian English "pure veg" and "I don't take eggs";
* pronouns without the slash ("he him pronouns"), "D.O.B. <date>" (an initialism's dot
  ends no sentence), a loyalty "programme" is its name, "I'd appreciate a formal tone",
  "examples help me", "moving to X for work".

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored
from tests.unit.ingest.test_rules_zh_general import extract, has


def records(*turns: str) -> list[tuple[str, str]]:
    """(canonical key, value) of every active, non-episode record after the turns."""
    return sorted(stored(*turns))


def items(found: list[tuple[str, str]], family: str) -> set[str]:
    return {
        part.strip().lower()
        for k, v in found
        if k == family or k.startswith(family + ".")
        for part in v.replace(" and ", ",").split(",")
        if part.strip()
    }


@pytest.mark.parametrize(
    ("text", "family", "want"),
    [
        (
            "I love kayaking, rock climbing, sailing and archery",
            "interest",
            {"kayaking", "rock climbing", "sailing", "archery"},
        ),
        ("i hate celery, beetroot, sardines", "food.dislike", {"celery", "beetroot", "sardines"}),
        ("I speak Dutch, Swedish and Greek", "language.spoken", {"nl", "sv", "el"}),
        (
            "I'm allergic to walnuts, mustard and latex",
            "allergy",
            {"walnuts", "mustard", "latex"},
        ),
        ("Allergies: celery, lupin", "allergy.food", {"celery", "lupin"}),
        (
            "Regular medications: amlodipine, ramipril, simvastatin",
            "medication",
            {"amlodipine", "ramipril", "simvastatin"},
        ),
    ],
)
def test_a_comma_list_keeps_every_item(text: str, family: str, want: set[str]) -> None:
    found = records(text)
    assert items(found, family) == want, found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm 52, divorced and a mum of one", "age", "52"),
        ("I'm 52, divorced and a mum of one", "relationship.status", "divorced"),
        ("I'm 52, divorced and a mum of one", "family.children", "1"),
    ],
)
def test_an_appositive_list_after_a_number_is_no_item_list(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value)


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("I don't eat beef, personal reasons", "diet.avoid"),
        ("I love cycling, especially in spring", "interest"),
        ("I'm allergic to wasps, so please keep that in mind", "allergy"),
    ],
)
def test_what_follows_a_list_item_is_not_always_an_item(text: str, family: str) -> None:
    assert len(items(records(text), family)) == 1, records(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("name's Priya, 36, architect", "age", "36"),
        ("name's Priya, 36, architect", "job.title", "architect"),
        ("Married, 44, two daughters", "age", "44"),
        ("Married, 44, two daughters", "family.children", "2"),
        ("29. barista. cat lady.", "age", "29"),
        ("29. barista. cat lady.", "job.title", "barista"),
        ("teacher. 58. grandad of four.", "job.title", "teacher"),
        ("teacher. 58. grandad of four.", "age", "58"),
        ("I'm 45 so go easy on the slang", "age", "45"),
        ("im 63 and still working full time", "age", "63"),
        ("I'm seventy-two years young", "age", "72"),
    ],
)
def test_ages_in_bios_and_asides(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


@pytest.mark.parametrize(
    "text",
    ["Gate 12. Row 30. Boarding soon.", "Tired. Hungry. 40 minutes late.", "I'm 5 minutes away"],
)
def test_fragments_without_a_bio_state_no_age(text: str) -> None:
    assert not any(k == "age" for k, _ in extract(text)), extract(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("the simplest way to get in touch with me is telegram", "contact.channel", "telegram"),
        ("Preferred contact: WhatsApp", "contact.channel", "whatsapp"),
        ("I'd like all invoices sent by email", "contact.channel", "email"),
        ("please send any reminders as push notifications", "contact.channel", "push"),
        ("I prefer statements by post", "contact.channel", "post"),
        ("please don't ring my landline", "contact.call", "never"),
        ("i don't do calls, sorry", "contact.call", "never"),
        ("feel free to give me a ring", "contact.call", "allowed"),
        ("I don't mind the odd phone call", "contact.call", "allowed"),
        ("I'd rather pay by card", "payment.method", "credit_card"),
        ("I'd rather pay cash if that's ok", "payment.method", "cash"),
        ("no cards, debit only", "payment.method", "debit_card"),
    ],
)
def test_contact_and_payment_wordings(text: str, key: str, value: str) -> None:
    found = records(text)
    assert any(k.startswith(key) and v == value for k, v in found), found


@pytest.mark.parametrize(
    "text",
    [
        "can you send the receipt by email tomorrow",  # one request, not a standing channel
        "the best way to reach the office is email",  # not the user
        "should I pay with apple pay or cash at the market",
        "should we get a cat or a dog",
        "if I quit my job would I lose my pension",
        "in theory I could live in Lisbon on that salary",
    ],
)
def test_requests_questions_and_conditions_store_nothing(text: str) -> None:
    assert records(text) == [], records(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("budget's roughly CAD 1200 for the flights", "budget.max", "1200 CAD"),
        ("my budget is Rs. 18,000", "budget.max", "18000 INR"),
        ("max spend ₹9,500", "budget.max", "9500 INR"),
        ("I don't want to spend more than forty euros on it", "budget.max", "40 EUR"),
        ("I don't want to go over 70 pounds for the gift", "budget.max", "70 GBP"),
        (
            "no calls after 10.45 at night until 8 in the morning",
            "contact.quiet_hours",
            "22:45-08:00",
        ),
        ("quiet hours 23:00 - 07:15", "contact.quiet_hours", "23:00-07:15"),
        ("my mother tongue is Malayalam", "language.spoken", "ml"),
        ("currently living in portugal", "location.country", "PT"),
        ("I live in Dunedin, NZ", "location.country", "NZ"),
    ],
)
def test_value_readers(text: str, key: str, value: str) -> None:
    found = records(text)
    assert any(k.startswith(key) and v.startswith(value) for k, v in found), found


def test_a_spaced_dash_between_words_still_cuts_clauses() -> None:
    found = dict(records("I'm 61 - retired - widower"))
    assert found.get("age") == "61" and found.get("job.status") == "retired", found


@pytest.mark.parametrize(
    "turns",
    [
        ("I have three cats", "lol that was a joke, I don't have any"),
        ("my budget is 900", "i was only kidding about that"),
        ("call me Mo", "no wait, don't call me mo"),
        ("oh definitely, I just adore late fees",),
        ("sure and I'm the king of Spain",),
        ("I'm fluent in memes",),
    ],
)
def test_look_alikes_store_nothing(turns: tuple[str, ...]) -> None:
    assert records(*turns) == [], records(*turns)


@pytest.mark.parametrize(
    ("text", "keep"),
    [
        ("please don't call me again", "contact.call"),
        ("don't call me at work", "contact.call"),
        ("absolutely, I'm vegetarian", "diet"),
    ],
)
def test_the_look_alike_rules_leave_statements_alone(text: str, keep: str) -> None:
    assert any(k.startswith(keep) for k, _ in records(text)), records(text)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("passionate about marine biology", {"marine biology"}),
        ("my sundays are for cycling and gardening", {"cycling", "gardening"}),
        ("I've been learning calligraphy", {"calligraphy"}),
        ("i do embroidery to relax", {"embroidery"}),
    ],
)
def test_interest_wordings(text: str, want: set[str]) -> None:
    assert items(records(text), "interest") == want, records(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm intolerant to soy and fructose", "intolerance", "fructose"),
        ("I'm intolerant to soy and fructose", "intolerance", "soy"),
        ("I was diagnosed with a fructose intolerance", "intolerance", "fructose"),
        ("Known allergies: latex", "allergy.other", "latex"),
        ("Loyalty programme: Miles & More", "travel.loyalty", "miles & more"),
        ("I usually pick the aisle", "travel.seat", "aisle"),
        ("I'm a postgrad student", "job.status", "student"),
        ("I'm pretty loyal to Emirates", "travel.airline", "emirates"),
        ("morphine gives me hives", "allergy.medication", "morphine"),
        ("we keep a few rabbits", "pet.species", "rabbit"),
        ("I have three grown-up daughters", "family.children", "3"),
        ("pure veg, no onion no garlic", "diet", "vegetarian"),
        ("I don't take beef", "diet.avoid", "beef"),
    ],
)
def test_more_keyed_wordings(text: str, key: str, value: str) -> None:
    found = records(text)
    assert any(k.startswith(key) and v.lower() == value for k, v in found), found


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I always book the window cleaner for fridays", "travel.seat"),
        ("I take the medication daily", "diet.avoid"),
        ("my sister is a uni student", "job.status"),
    ],
)
def test_the_new_rows_keep_to_their_meaning(text: str, key: str) -> None:
    assert not any(k.startswith(key) for k, _ in records(text)), records(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("pls use he him pronouns", "pronouns", "he/him"),
        ("D.O.B. 9 Oct 1968", "birthday", "1968-10-09"),
        ("I'm in the Hilton Honors programme", "travel.loyalty", "hilton honors"),
        ("I'd appreciate a friendly tone", "response.tone", "friendly"),
        ("concrete examples really help me", "response.style", "with_examples"),
        ("we're moving to Oslo for my job in May", "location.moving_to", "oslo"),
    ],
)
def test_last_wordings(text: str, key: str, value: str) -> None:
    found = records(text)
    assert any(k.startswith(key) and v.lower() == value for k, v in found), found
