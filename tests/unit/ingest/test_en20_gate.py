"""Must-store-nothing families found with dev20 (hashing embedder: the rules and the gate
alone), on wordings of their own."""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored as _stored


@pytest.mark.parametrize(
    "text",
    [
        # another life or universe is a hypothetical
        "in another life I'd have a parrot called Captain",
        "in an alternate universe I live in Lisbon",
        # a course of treatment is for now
        "I'm on amoxicillin for ten days for a tooth infection",
        # sarcasm closed by "said nobody ever"
        "wow, being gluten intolerant is so much fun, said nobody ever",
        # a hyperbolic intolerance, as a hyperbolic allergen
        "turns out I'm intolerant to Mondays",
        # someone's words after "told me:" or "explained that"
        'the bot told me: "as a vegan you should try tofu"',
        "my dietitian explained that keto is not for everyone",
    ],
)
def test_look_alikes_store_nothing(text: str) -> None:
    assert _stored(text) == set()


def test_a_mix_up_taken_back_with_not_mine() -> None:
    assert _stored("I have a cat called Miso") != set()
    assert (
        _stored(
            "I have a cat called Miso", "whoops, mixed that up, that's my flatmate's cat, not mine"
        )
        == set()
    )


def test_a_standing_medication_stays() -> None:
    assert ("medication", "metformin") in {
        (k.split(".")[0], v) for k, v in _stored("I'm on metformin for my diabetes")
    }
