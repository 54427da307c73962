"""Round 10 (dev21): names typed lowercase, and contractions typed without apostrophes.

People write to an assistant as "kofi here, need help", "hiya im priyanka", "my names niamh
btw" or sign "- mei" on a line of their own. A lowercase word is read as a first name only
where the wording itself introduces one, and never when it is a state or a known word
("hey im starving", "newbie here"). Wordings here are in no benchmark file.
"""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("kofi here, need help with a booking", "name", "kofi"),
        ("hiya im priyanka", "name", "priyanka"),
        ("yo this is tunde from the lagos office", "name", "tunde"),
        ("my names niamh btw", "name", "niamh"),
        ("names callum, nice to meet u", "name", "callum"),
        ("friends call me wills", "name.preferred", "wills"),
        ("i go by freddie now", "name.preferred", "freddie"),
        ("thanks heaps!\n- mei", "name", "mei"),
        ("lovely, thank you x\nkat", "name", "kat"),
    ],
)
def test_lowercase_name_in_an_introducing_slot(text: str, key: str, value: str) -> None:
    assert (key, value) in {(k, v.lower()) for k, v in stored(text)}


@pytest.mark.parametrize(
    "text",
    [
        "hello im stuck",
        "hey im starving",
        "newbie here, need help",
        "hello here",
        "my friends all call me daft",
        "i go by car mostly",
        "my names are on the form",
        "all good thanks\nhome now",
    ],
)
def test_a_state_or_common_word_is_no_name(text: str) -> None:
    assert not {k for k, _ in stored(text) if k.startswith("name")}


def test_contraction_without_apostrophe_reads_as_the_contraction() -> None:
    # "thats" is "that's": the limit pointed back at is still the user's
    assert ("budget.max", "400") in stored("thats my budget, 400 max")
