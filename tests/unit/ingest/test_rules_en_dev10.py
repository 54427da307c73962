"""English mechanisms the dev10 set exposed (issue 12): stages, not rows per wording.

* stance adverbs and chat hedges are dropped before the rules read a turn ("I'd
  seriously prefer ...", "tbh ..."), chat spellings are read as words ("txt");
* a second predicate after "and" is its own clause ("... and take X daily");
* "I'm X, 31, nurse in Leeds": a list of appositives after "I'm" is read with "I'm" put
  back (never as a second name);
* a first-person clause beside a question keeps its fact ("since I'm X, what ...?");
* the household speaks as "we"/"our" for home, family, pets and diet;
* value readers: "9.30pm", a place followed by "three years ago", a qualified role
  ("freelance X" is X, self-employed), "no kids" as a count, time-zone abbreviations,
  programme names before "member", one item read twice by two rows kept once;
* repeated requests for a table or for less detail are behaviour (consensus of three);
* the classifier leaves a turn alone that ends in a laugh, as the rules do.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from shared_core.ingest import lexicon as L
from shared_core.ingest.classify import unread_sentences
from tests.unit.ingest.test_gate_generalize import stored
from tests.unit.ingest.test_rules_zh_general import extract, has


@pytest.mark.parametrize(
    ("raw", "read"),
    [
        ("I'd seriously prefer email", "I'd prefer email"),
        ("tbh, I'm pescatarian", "I'm pescatarian"),
        ("I genuinely can't stand cucumbers", "I can't stand cucumbers"),
        ("we really love Lisbon", "we love Lisbon"),
    ],
)
def test_stance_adverbs_are_dropped(raw: str, read: str) -> None:
    assert L.strip_fillers(raw) == read


@pytest.mark.parametrize("raw", ["not really into it", "really?", "honestly", "Is it real?"])
def test_fillers_keep_what_carries_meaning(raw: str) -> None:
    assert L.strip_fillers(raw) == raw


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I genuinely hate mushrooms", "food.dislike", "mushrooms"),
        ("txt me instead of emailing", "contact.channel", "sms"),
        ("I have eczema and take cetirizine daily", "medication", "cetirizine"),
        ("I'm Oskar, 52, plumber in Cardiff", "age", "52"),
        ("I'm Oskar, 52, plumber in Cardiff", "job.title", "plumber"),
        ("I'm Oskar, 52, plumber in Cardiff", "location.city", "cardiff"),
        ("since I'm vegetarian, which pasta sauce should I make?", "diet", "vegetarian"),
        ("I live in Porto, any good surf spots nearby?", "location.city", "porto"),
        ("no pings between 10.15pm and 7.45am", "contact.quiet_hours", "22:15-07:45"),
        ("moved from Cork to Galway three years ago", "location.city", "galway"),
        ("I'm a freelance translator", "job.title", "translator"),
        ("I'm a freelance translator", "job.status", "self_employed"),
        ("married, no children", "family.children", "0"),
        ("CET timezone for me", "timezone", "Europe/Berlin"),
        ("I'm in Tokyo, so JST", "timezone", "Asia/Tokyo"),
        ("IHG rewards member", "travel.loyalty", "ihg rewards"),
        ("skip Wizz Air please", "travel.airline.avoid", "wizz air"),
        ("we live in Utrecht", "location.city", "utrecht"),
        ("we have two dogs", "pet.species", "dog"),
        # a habit adverb between "I" and the verb: read again without it
        ("I generally speak Portuguese with my family", "language.spoken", "pt"),
        ("I'm 47 and an electrician", "age", "47"),
        ("because of my arthritis I avoid stairs", "health.condition", "arthritis"),
        ("being asthmatic, I avoid smoky bars", "health.condition", "asthma"),
        ("my GP has me on ramipril", "medication", "ramipril"),
        ("I do loads of kayaking in summer", "interest", "kayaking"),
        ("Revolut or Klarna works for me", "payment.method", "revolut"),
        ("Revolut or Klarna works for me", "payment.method", "klarna"),
        ("signal works much better for me", "contact.channel", "signal"),
        ("can't tolerate lactose at all", "intolerance", "lactose"),
        ("my mother tongue is Greek", "language.spoken", "el"),
        ("when I fly long haul I always get an aisle seat", "travel.seat", "aisle"),
        ("which is why I'm pescatarian", "diet", "pescatarian"),
        ("I've lived in Hobart all my life", "location.city", "hobart"),
        ("I've been studying Korean for a year", "language.spoken", "ko"),
        ("I work in finance as an analyst", "job.title", "analyst"),
        ("I work in finance as an analyst", "industry", "finance"),
        ("don't bother recommending timeshares", "recommend.never", "timeshares"),
        ("I take melatonin every night", "medication", "melatonin"),
        ("turns out I'm allergic to ragweed pollen", "allergy.other", "ragweed pollen"),
        ("ever since moving to Bergen I've worn a raincoat", "location.city", "bergen"),
        ("replies in Swedish would be great", "language", "sv"),
        ("my usual payment method is google pay", "payment.method", "google_pay"),
        ("I build model trains as a hobby", "interest", "model trains"),
        ("I work part-time as a librarian", "job.title", "librarian"),
        ("my timezone's JST", "timezone", "Asia/Tokyo"),
        ("I live in New Orleans", "location.city", "new orleans"),
        ("ever since I moved to New Haven I cycle everywhere", "location.city", "new haven"),
        ("I don't want suggestions about cruises", "recommend.never", "cruises"),
        ("enough with the lottery ads", "recommend.never", "lottery"),
        ("my birthday falls on the 9th of October", "birthday", "10-09"),
        ("calls make me anxious, email instead", "contact.channel", "email"),
        (
            "our family is moving to Calgary in June, house is bought",
            "location.moving_to",
            "calgary",
        ),
        ("I book Qantas whenever I can", "travel.airline", "qantas"),
        ("I won't spend under 50 bucks on shoes", "budget.min", "50 USD"),
    ],
)
def test_general_readings(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


def test_children_named_with_called_are_every_child() -> None:
    found = extract("my sons are called Finn and Otto")
    items = {
        i.strip().lower()
        for k, v in found
        if k.startswith("family.child.names")
        for i in v.replace(" and ", ",").split(",")
    }
    assert items == {"finn", "otto"}, found


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I live and work in Oslo", "medication"),  # no split between two verbs
        ("I'm Lena, Vienna", "name"),  # a list item is no second name
        ("I'm vegan, right?", "diet"),  # a tag question asks to confirm
        ("let's say I live in Rome, what would rent cost?", "location.city"),
        ("no kids allowed on the flight", "family.children"),
        ("our team uses Slack", "note"),
        ("we had sushi last night", "food.like"),
        ("my mother is a nurse", "job.title"),  # the mother, not the tongue
        ("when did I say I was vegan?", "diet"),
        ("my asthma is gone now", "health.condition"),
        ("I take walks daily", "medication"),
    ],
)
def test_no_reading_where_the_mechanism_must_not_apply(text: str, key: str) -> None:
    found = extract(text)
    if key == "name":
        assert ("name", "vienna") not in {(k, v.lower()) for k, v in found}, found
        return
    assert not any(k.startswith(key) for k, _ in found), found


def test_an_item_read_twice_is_kept_once() -> None:
    found = extract("I'm in the Qantas Frequent Flyer Executive Club")
    items = [v.lower() for k, v in found if k.startswith("travel.loyalty")]
    assert not any(a != b and a in b for a in items for b in items), found


def test_requests_for_a_table_become_a_preference_after_three() -> None:
    assert "response.format" not in stored("could you make a table of it")
    got = stored("could you make a table of it", "a table would be clearer", "table again pls")
    assert got.get("response.format") == "table"


def test_complaints_about_detail_become_short_after_three() -> None:
    assert "response.length" not in stored("too wordy")
    got = stored("too wordy", "it's a lot, cut it down", "still too much detail")
    assert got.get("response.length") == "short"


def test_the_classifier_leaves_a_laughing_turn_alone() -> None:
    assert unread_sentences("my pension is all in bitcoin lmao", []) == []
    assert unread_sentences("my pension is all in index funds", []) != []


def test_slang_money_carries_its_currency_code() -> None:
    assert stored("no more than 40 quid for the gift").get("budget.max") == "40 GBP"


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Name: Ingrid Solberg", "name", "ingrid solberg"),
        ("first name's Matthias", "name", "matthias"),
        ("age 58 if relevant", "age", "58"),
        ("Profession: midwife", "job.title", "midwife"),
        ("Employer: Unilever", "job.employer", "unilever"),
        ("DOB: 23/11/1979", "birthday", "1979-11-23"),
        ("Allergies: latex", "allergy.other", "latex"),
        ("current meds: warfarin and digoxin", "medication", "warfarin"),
        ("Name: Ola Nordmann, Age: 33, City: Bergen", "location.city", "bergen"),
    ],
)
def test_form_fields_are_read_as_the_sentence_they_stand_for(
    text: str, key: str, value: str
) -> None:
    found = extract(text)
    assert has(found, key, value), found


@pytest.mark.parametrize("text", ["my role is to support the team lead", "company: TBD lol"])
def test_a_label_said_in_a_sentence_is_no_field(text: str) -> None:
    found = extract(text)
    assert not any(k in ("job.employer",) for k, _ in found), found
