"""A forget request is an order to the assistant; forgetfulness said of someone is not one."""

from __future__ import annotations

import pytest

from tests.ingest_probe import active_records

ADDRESS = "I live at 12 Baker Street, London."


def _keys(*turns: str) -> set[str]:
    return {r["key"] for r in active_records(*turns)}


def test_the_address_is_stored_first() -> None:
    assert "location.address" in _keys(ADDRESS)


@pytest.mark.parametrize(
    "request_",
    [
        "Forget where I live.",
        "please delete where i live from your memory",
        "can you forget my address",
        "I want you to forget my address",
        "I need you to delete my address",
        "i wish you would forget my address",
        "I said forget my address",
        "Hey, I said delete my address",
        "Can we forget my address?",
        "can we just forget my address",
        "Could you forget my address?",
        "could you forget where I live",
        "I'd like you to forget my address",
    ],
)
def test_a_request_to_forget_erases(request_: str) -> None:
    assert "location.address" not in _keys(ADDRESS, request_)


@pytest.mark.parametrize(
    "remark",
    [
        "sometimes i forget my address haha",
        "I forget where I live sometimes lol",
        "I just forget my address constantly",
        "we always forget my address when ordering",
        "my dad kept forget my address, so annoying",
    ],
)
def test_forgetfulness_said_of_someone_erases_nothing(remark: str) -> None:
    assert "location.address" in _keys(ADDRESS, remark)


@pytest.mark.parametrize(
    "remark",
    [
        "don't forget where I live",
        "please don't forget my address",
        "Don\u2019t forget my address",
        "never forget my address",
        "did you forget where I live?",
        "how could you forget where I live",
        "you'll forget where I live",
        "you always forget where I live",
        "I'd hate for you to forget where I live",
        "forget where I live? no way",
    ],
)
def test_a_forget_not_asked_erases_nothing(remark: str) -> None:
    """Negated, asked about, or said of the assistant: nobody asked to forget anything."""
    assert "location.address" in _keys(ADDRESS, remark)
