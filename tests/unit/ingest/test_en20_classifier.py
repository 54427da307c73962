"""The MiniLM note classifier on roundabout wordings (dev20 families), with real MiniLM.

Each statement here is worded unlike any benchmark row; the classifier finds its key and
one of the value readers or guards added for dev20 reads (or refuses) the value.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from shared_core.embed import OnnxEmbedder
from tests.ingest_probe import stored

pytestmark = pytest.mark.embeddings


@pytest.fixture(scope="module")
def minilm() -> Iterator[OnnxEmbedder]:
    emb = OnnxEmbedder(threads=1)  # exported once into the user cache dir
    emb.embed(["warm up"])
    yield emb


def _stored(embedder: Any, text: str) -> set[tuple[str, str]]:
    return stored(text, embedder=embedder)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # an allergy told by where it put the user
        (
            "amoxicillin landed me in A&E once, it's flagged on my records",
            "allergy.medication",
            "amoxicillin",
        ),
        # a currency by its whole name, not its last word
        ("prices only make sense to me in Australian dollars", "currency", "aud"),
        # a time zone by the place alone
        ("my clock reads the same as Singapore's", "timezone", "asia/singapore"),
        # refusals without a negation word
        ("PayPal is a hard pass for me", "payment.avoid.paypal", "paypal"),
        (
            "I refuse to own a credit card, they're a trap",
            "payment.avoid.credit_card",
            "credit_card",
        ),
        (
            "after the delays last winter, easyJet is dead to me",
            "travel.airline.avoid.easyjet",
            "easyjet",
        ),
        # praise said with a negation
        ("Qantas has never let me down on a long haul", "travel.airline", "qantas"),
        # "my phone" is the device the app runs on
        (
            "my phone is basically just Telegram these days, that's how to reach me",
            "contact.channel",
            "telegram",
        ),
        # the spouse named is the one lost
        ("since my husband passed I've lived by myself", "relationship.status", "widowed"),
        # an activity as a clause of its own
        ("weekends I'm out on the river, kayaking", "interest.kayaking", "kayaking"),
        # calls said to be an ordeal
        (
            "talking on the phone fills me with dread, so written messages only",
            "contact.call",
            "never",
        ),
    ],
)
def test_a_roundabout_statement_gets_its_key_and_value(
    minilm: OnnxEmbedder, text: str, key: str, value: str
) -> None:
    assert (key, value) in _stored(minilm, text)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Qantas has never let me down on a long haul", "travel.airline.avoid.qantas"),
        ("since my husband passed I've lived by myself", "relationship.status"),
    ],
)
def test_praise_and_loss_are_not_read_the_other_way(
    minilm: OnnxEmbedder, text: str, key: str
) -> None:
    stored = _stored(minilm, text)
    assert (key, "married") not in stored
    assert all(k != "travel.airline.avoid.qantas" for k, _ in stored)


@pytest.mark.parametrize(
    "text",
    [
        "my GP said loads of people with eczema also get asthma",  # someone's words
        "the pharmacist reckons most people my age end up on statins",
        "my boss calls me constantly and it stresses me out",  # someone else's calls
    ],
)
def test_someone_elses_words_about_people_in_general_store_nothing(
    minilm: OnnxEmbedder, text: str
) -> None:
    assert _stored(minilm, text) == set()
