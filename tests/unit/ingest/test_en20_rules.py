"""Rule fixes found with dev20 (hashing embedder: the rules alone), on other wordings."""

from __future__ import annotations

from tests.ingest_probe import stored as _stored


def test_not_an_allergy_names_no_allergen() -> None:
    stored = _stored("rye bloats me, not an allergy, just intolerant")
    assert not any(k.startswith("allergy") for k, _ in stored)


def test_a_plain_text_message_is_no_layout() -> None:
    stored = _stored("a plain text message is the best way to reach me")
    assert not any(k == "response.format" for k, _ in stored)
    assert ("response.format", "plain_text") in _stored("plain text please, no markdown")


def test_a_scale_that_does_not_register_is_the_one_turned_down() -> None:
    stored = _stored("I think in Celsius, Fahrenheit numbers just don't register")
    assert ("units.temperature", "celsius") in stored
    assert ("units.temperature", "fahrenheit") not in stored


def test_rheumatoid_arthritis_and_afib_are_conditions() -> None:
    assert ("health.condition", "rheumatoid arthritis") in _stored("I have rheumatoid arthritis")
    assert ("health.condition", "atrial fibrillation") in _stored(
        "I was diagnosed with afib last year"
    )


def test_a_nickname_friends_use_and_the_name_on_a_document() -> None:
    assert ("name.preferred", "dizzy") in _stored("my mates have always called me Dizzy")
    assert ("name", "ingrid solberg") in _stored("the name on my ID is Ingrid Solberg")
    assert _stored("she called me Sarah by mistake") == set()
