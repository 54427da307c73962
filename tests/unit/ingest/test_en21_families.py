"""Families seen failing on dev18-dev20 and fixed as mechanisms, tested on other wordings."""

from __future__ import annotations

from tests.ingest_probe import stored as _stored


def _keys(stored: set[tuple[str, str]], family: str) -> set[str]:
    return {v for k, v in stored if k == family or k.startswith(family + ".")}


def test_call_me_with_the_politeness_after_it() -> None:
    assert ("name.preferred", "jo") in _stored("call me jo thx")
    assert not any(k.startswith("name") for k, _ in _stored("call me crazy please"))


def test_a_pronoun_points_back_at_the_allergen_named_first() -> None:
    stored = _stored("kiwi - I'm allergic to it")
    assert "kiwi" in _keys(stored, "allergy")
    assert not any(k.startswith("note") for k, _ in stored)
    assert "cats" in _keys(_stored("cats make my eyes stream, I'm allergic to them"), "allergy")
    assert not _keys(_stored("my sister loves shrimp, she's allergic to them"), "allergy")


def test_a_pronoun_points_back_at_the_drug_named_first() -> None:
    assert "sertraline" in _keys(_stored("sertraline, I take it every night"), "medication")
    assert "atorvastatin" in _keys(
        _stored("can you refill my atorvastatin, been on it since 2019"), "medication"
    )


def test_a_pronoun_points_back_at_the_payment_named_first() -> None:
    assert "paypal" in _keys(_stored("PayPal, that's how I pay online"), "payment.method")


def test_refusal_idioms_name_foods_and_airlines_avoided() -> None:
    assert {"lamb"} <= _keys(_stored("lamb is off the table for me"), "diet.avoid")
    assert {"beer", "wine"} <= _keys(_stored("beer and wine are out, I'm sober"), "diet.avoid")
    assert "ryanair" in _keys(
        _stored("Ryanair's a hard no for me, the seats are awful"), "travel.airline.avoid"
    )
    assert not _stored("the chicken is out of the oven")


def test_a_bare_amount_with_its_ceiling_word_corrects_the_budget() -> None:
    stored = _stored("my budget is 1200", "actually make that 1.8k max")
    assert ("budget.max", "1800") in stored
    assert not any(k.startswith("budget") for k, _ in _stored("we'll be 8 max for dinner"))


def test_a_condition_said_as_a_fragment() -> None:
    assert ("health.condition", "celiac disease") in _stored("celiac here")
    stored = _stored("asthma and migraines")
    assert {"asthma", "migraine"} <= _keys(stored, "health.condition")
    assert not _stored("asthma?")


def test_answer_length_said_as_a_count_is_short() -> None:
    assert ("response.length", "short") in _stored("limit replies to two sentences")
    assert ("response.length", "short") in _stored("a single paragraph max please")
    assert not any(
        k == "response.length" for k, _ in _stored("the form allows one paragraph of text")
    )


def test_an_airline_named_alone_as_go_to_is_an_airline() -> None:
    stored = _stored("Lufthansa is my go-to")
    assert ("travel.airline", "lufthansa") in stored
    assert not any(k == "hotel.chain" for k, _ in stored)
    assert ("hotel.chain", "hyatt") in _stored("Hyatt is my go-to")


def test_strong_contrast_is_a_standing_need() -> None:
    assert ("accessibility.high_contrast", "high_contrast") in _stored(
        "I need stronger contrast, pale grey text is hard for me"
    )


def test_a_retraction_naming_a_topic_takes_back_that_record() -> None:
    stored = _stored("my budget is 900", "I'm vegetarian", "disregard the budget I gave you")
    assert not any(k.startswith("budget") for k, _ in stored)
    assert ("diet", "vegetarian") in stored
    stored = _stored("budget is 900 tops", "forget what I said about the budget")
    assert not any(k.startswith("budget") for k, _ in stored)


def test_a_currency_shown_after_the_country_with_not_another() -> None:
    stored = _stored("I live in Australia so show me AUD, not euros")
    assert ("currency", "aud") in stored
