"""Calls refused for a stretch of the day are quiet hours, not calls refused for good."""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("No calls between 10pm and 7am.", "22:00-07:00"),
        ("Don't call me between 10pm and 7am.", "22:00-07:00"),
        ("please don't phone me between 11pm and 6am", "23:00-06:00"),
    ],
)
def test_a_window_of_no_calls_is_quiet_hours_only(text: str, window: str) -> None:
    found = stored(text)
    assert ("contact.quiet_hours", window) in found
    assert not any(k == "contact.call" for k, _ in found)


@pytest.mark.parametrize(
    "text", ["dont ring me before 8am", "no phone calls at all after 10 please"]
)
def test_a_window_whose_hours_do_not_parse_refuses_no_calls_for_good(text: str) -> None:
    assert not any(k == "contact.call" for k, _ in stored(text))


@pytest.mark.parametrize(
    "text",
    [
        "never call me, and no texts after 9pm",
        "please never call me. texts only.",
        "Do not call me, ever.",
        "no calls please, text only",
        "i never answer calls from unknown numbers so please don't call me",
    ],
)
def test_calls_refused_outright_still_store(text: str) -> None:
    assert ("contact.call", "never") in stored(text)
