"""The embedding-prototype classifier (shared_core/ingest/classify.py) with real MiniLM.

Statements here are worded unlike the rule rows (the hashing embedder stores nothing for
them), so a key can only come from the classifier.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from shared_core import MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder, OnnxEmbedder
from shared_core.ingest import classify
from shared_core.taxonomy import canonical
from tests.ingest_probe import active_records

pytestmark = pytest.mark.embeddings


@pytest.fixture(scope="module")
def minilm() -> Iterator[OnnxEmbedder]:
    emb = OnnxEmbedder(threads=1)  # exported once into the user cache dir
    emb.embed(["warm up"])
    yield emb


def _stored(embedder: Any, *turns: str, **config: Any) -> list[dict[str, Any]]:
    return active_records(
        *turns, embedder=embedder, config=MemoryConfig(**config) if config else None
    )


def _canonical(records: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {canonical(r["key"], r["value"], r["normalized"]) for r in records}


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        (
            "Tables make comparisons so much easier for my brain to follow.",
            "response.format",
            "table",
        ),
        (
            "Google Pay is how I settle everything these days.",
            "payment.method.google_pay",
            "google_pay",
        ),
        # ("Weekends are for sourdough baking" is read by the rules since dev12: "<free time>
        # are for X" is an interest row, see tests/unit/ingest/test_rules_en_dev12.py)
    ],
)
def test_a_statement_unlike_any_rule_gets_its_key_and_value(
    minilm: OnnxEmbedder, text: str, key: str, value: str
) -> None:
    rules_only = _stored(HashingEmbedder(), text)
    assert all(r["key"].startswith("note.") for r in rules_only)  # at most a note
    records = _stored(minilm, text)
    assert (key, value) in _canonical(records)
    rec = next(r for r in records if canonical(r["key"], r["value"], r["normalized"])[0] == key)
    assert rec["provenance"]["actor"] == "extractor:classifier"
    assert rec["confidence"] == pytest.approx(classify.CLASSIFIED_CONFIDENCE)
    assert rec["confidence"] < 0.95  # below a rule hit


@pytest.mark.parametrize(
    "text",
    [
        "My sister swears by Google Pay for everything.",  # someone else
        "Do tables make comparisons easier to follow?",  # a question
        "Maybe I'll get into sourdough baking at some point.",  # a possibility
        "Find me a table of flights to Rome for tomorrow.",  # a one-off task
    ],
)
def test_what_is_not_a_statement_about_the_user_stores_nothing(
    minilm: OnnxEmbedder, text: str
) -> None:
    assert _stored(minilm, text) == []


def test_assistant_turns_are_never_classified(minilm: OnnxEmbedder) -> None:
    with UserMemory("sqlite:///:memory:", embedder=minilm) as mem:
        mem.observe(
            "u", "Google Pay is how you settle everything, I'll note that.", role="assistant"
        )
        assert [r for r in mem.export("u")["records"] if r["kind"] != "episode"] == []


def test_the_hashing_embedder_turns_the_classifier_off() -> None:
    assert not classify.supports(HashingEmbedder())
    assert _stored(HashingEmbedder(), "Google Pay is how I settle everything these days.") == []


def test_the_config_switch_turns_it_off(minilm: OnnxEmbedder) -> None:
    assert classify.supports(minilm)
    text = "Google Pay is how I settle everything these days."
    assert _stored(minilm, text, classify_unmapped=False) == []
    assert _stored(minilm, text) != []


def test_unsure_keeps_the_note(minilm: OnnxEmbedder) -> None:
    # a durable fact that fits no key stays the rules' note
    left = _stored(minilm, "I'm left-handed.")
    assert [r["key"] for r in left] == ["note.left_handed"]
    assert left[0]["provenance"]["actor"] == "extractor:rules"
    # the key is clear (an allergy) but no value is said: still a note, never a guess
    allergic = _stored(minilm, "I'm allergic.")
    assert [r["key"] for r in allergic] == ["note.allergic"]


def test_two_values_of_a_one_value_key_are_no_guess(minilm: OnnxEmbedder) -> None:
    assert classify.values("contact.channel", "my phone is on silent, so Signal it is") == []
    assert classify.values("contact.channel", "Signal is where I reply") == [("Signal", "signal")]


def test_a_negated_clause_names_no_value_of_a_positive_key() -> None:
    assert classify.values("units.system", "I don't understand feet and inches") == []
    assert classify.values("payment.avoid", "I never pay with PayPal") == [("PayPal", "paypal")]


def test_a_key_the_rules_filled_in_the_same_turn_is_not_overwritten(
    minilm: OnnxEmbedder,
) -> None:
    records = _stored(minilm, "Metric units please, I can't get my head around miles.")
    assert ("units.system", "metric") in _canonical(records)
    assert all(r["normalized"] != "imperial" for r in records)


def test_prototypes_come_from_the_taxonomy_and_the_data_file(minilm: OnnxEmbedder) -> None:
    pairs = classify.prototypes()
    keys = {k for k, _ in pairs}
    assert {"contact.channel", "travel.seat", "food.like", "note"} <= keys
    assert (
        "contact.channel",
        "Preferred contact channel: the channel the user wants to be contacted on",
    ) in pairs
    clf = classify.PrototypeClassifier(minilm)
    pred = clf.predict("Seat me by the aisle on every flight")
    assert pred.key == "travel.seat" and pred.score > classify.THRESHOLD


def test_prototypes_are_embedded_once_per_model(minilm: OnnxEmbedder) -> None:
    clf = classify.PrototypeClassifier(minilm)
    clf.predict("warm")
    calls = minilm.model_calls
    classify.PrototypeClassifier(minilm).predict("Tables are easier for me to read")
    assert minilm.model_calls == calls + 1  # the query only, not the prototypes again


@pytest.mark.parametrize(
    "text",
    [
        # a cooking step sits near the food-allergy prototypes: the old code stored
        # allergy.food = shrimp from it
        "First I cleaned the shrimp, then fried them with garlic and chili for five minutes.",
        "First I rinsed the trout, stuffed it with lemon and dill, and baked the fish for "
        "twenty minutes.",
        "Talking with old friends always makes me feel warm and calm.",  # no tone asked for
    ],
)
def test_health_and_tone_need_their_cue_word(minilm: OnnxEmbedder, text: str) -> None:
    """A sentence that only sits near a health or tone prototype stores no health fact and
    no tone (real conversations: a recipe became ``allergy.food = fish``)."""
    stored = _stored(minilm, text)
    assert not [
        r for r in stored if r["key"].startswith(("allergy", "intolerance", "response.tone"))
    ]


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("allergy.food", "Shellfish makes my throat close up."),
        ("allergy.medication", "im alergic to amoxicilin"),
        ("response.tone", "Please be direct with me."),
    ],
)
def test_cue_words_keep_real_statements(key: str, text: str) -> None:
    assert classify._KEY_CUES[next(p for p in classify._KEY_CUES if key.startswith(p))].search(text)
    assert not classify.values(key, "We baked a fish pie for dinner.")


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # an emoji does not hide an English sentence from the classifier
        ("ringing my phone is a big no for me 🙅", "contact.call", "never"),
        ("I've spent nine years at Bosch 💼", "job.employer", "bosch"),
        ("my inhaler goes everywhere with me, it's salbutamol", "medication", "salbutamol"),
        ("I've got a Marriott Bonvoy account", "travel.loyalty", "marriott bonvoy"),
    ],
)
def test_more_keys_get_a_value(minilm: OnnxEmbedder, text: str, key: str, value: str) -> None:
    records = _stored(minilm, text)
    got = {
        (r["key"], r["normalized"])
        for r in records
        if r["provenance"]["actor"] == "extractor:classifier"
    }
    assert any(k.split(".")[0] == key.split(".")[0] and n == value for k, n in got), got


@pytest.mark.parametrize(
    ("key", "text", "found"),
    [
        # airlines as typed, lowercase; a common word alone names no airline
        (
            "travel.airline.avoid",
            "i'd never fly with ryanair or vueling again",
            ["ryanair", "vueling"],
        ),
        ("travel.airline.avoid", "keep me off united airlines", ["united airlines"]),
        ("travel.airline.avoid", "united we stand, never again", []),
        ("hotel.chain", "a hampton inn is always my pick", ["hampton inn"]),
        ("hotel.chain", "Hilton or Hyatt, whichever", []),  # one chain or no guess
        ("travel.loyalty", "I collect Flying Blue miles", ["flying blue"]),
        ("family.children", "a son and two daughters keep me busy", ["3"]),
        ("family.children", "I have twins", ["2"]),
        ("job.employer", "I've been at Heineken since 2015", ["heineken"]),
        ("job.employer", "I've been at Lisbon airport since 2015", []),  # a city is no employer
        ("health.condition", "sciatica has bothered me for years", ["sciatica"]),
        ("recommend.never", "no reality shows please, they bore me", ["reality shows"]),
        # a value worded as a negation is no negated clause
        ("accessibility", "keyboard only, no mouse", ["keyboard_only"]),
        ("accessibility", "I don't need captions", []),
    ],
)
def test_value_readers(key: str, text: str, found: list[str]) -> None:
    assert [n for _, n in classify.values(key, text)] == found


def test_an_airline_key_follows_what_the_clause_says() -> None:
    assert classify._polarity("travel.airline.avoid", "Qatar Airways is my favourite") == (
        "travel.airline"
    )
    assert classify._polarity("travel.airline", "I won't fly Qatar Airways") == (
        "travel.airline.avoid"
    )
    # neither a refusal nor a preference: no guess
    assert classify._polarity("travel.airline.avoid", "Qatar Airways for this one") == "note"
    assert classify._polarity("travel.airline", "my Qantas Frequent Flyer card") == (
        "travel.loyalty"
    )


def test_an_open_outcome_is_no_statement() -> None:
    assert not classify._reads_as_statement("we'll see whether I stay in Porto")
    assert not classify._reads_as_statement("I might end up in Porto")


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        # a refused recommendation is no payment habit and no taste
        ("payment.avoid", "never pitch me buy-now-pay-later plans", "recommend.never"),
        ("food.dislike", "don't ever suggest sushi places", "recommend.never"),
        # learning or speaking a language is no wish for replies in it
        ("language", "I've been learning Greek for a year", "language.spoken"),
        ("language", "answer in Greek from now on", "language"),
        # a past move is the rules' to read (from, to, when), not a plan to move
        ("location.moving_to", "we relocated to Porto after the wedding", "note"),
        ("location.moving_to", "heading to Porto for good in the spring", "location.moving_to"),
    ],
)
def test_the_clause_corrects_a_neighbouring_key(key: str, text: str, expected: str) -> None:
    assert classify._polarity(key, text) == expected


@pytest.mark.parametrize(
    ("key", "text", "found"),
    [
        ("age", "just turned sixty-one, feeling it", ["61"]),
        ("age", "I'm 27, for what it's worth", ["27"]),
        ("age", "a 58 year old here", ["58"]),
        ("age", "I'm 10 minutes from the station", []),  # a distance, no age
        ("age", "I'm 45 and my husband is 47", ["45"]),
        ("age", "I'm 19 or 20, can't remember", []),  # two ages, no guess
        ("pronouns", "go with he / they for me", ["he/they"]),
        ("timezone", "I run on Central time", ["america/chicago"]),
        ("timezone", "Singapore time for everything", ["asia/singapore"]),
        ("timezone", "I live near Singapore", []),  # a place, no zone
    ],
)
def test_age_pronoun_and_zone_readers(key: str, text: str, found: list[str]) -> None:
    assert [n for _, n in classify.values(key, text)] == found


@pytest.mark.parametrize(
    ("key", "text", "found"),
    [
        ("interest", "I enjoy bouldering, pottery and chess", ["bouldering", "pottery", "chess"]),
        ("interest", "huge fan of snooker, I watch it nightly", ["snooker"]),
        ("interest", "I play badminton most weekends", ["badminton"]),
        ("interest", "I love it when you keep things short", []),  # no topic
        ("food.like", "I'm hooked on pad thai, the spicier the better", ["pad thai"]),
        ("food.like", "I adore hiking", []),  # no food
    ],
)
def test_liked_things_are_read(key: str, text: str, found: list[str]) -> None:
    assert [n for _, n in classify.values(key, text)] == found


@pytest.mark.parametrize(
    ("key", "text", "found"),
    [
        # the value its own clause affirms, when the sentence also negates
        ("contact.channel", "message me on signal, I never open my email", ["signal"]),
        ("contact.channel", "email me instead of texting", ["email"]),
        ("contact.channel", "don't text me, don't email me", []),
        ("response.format", "paragraphs please, no bullet points", ["prose"]),
        ("health.condition", "not diabetic, but I do have gout", ["gout"]),
        ("pet.species", "I don't own a rabbit, but my brother has a hamster", []),  # his
    ],
)
def test_a_negating_sentence_keeps_its_affirmed_value(
    key: str, text: str, found: list[str]
) -> None:
    assert [n for _, n in classify.values(key, text)] == found
