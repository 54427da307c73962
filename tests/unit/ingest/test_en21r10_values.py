"""Round 10 (dev21): value wordings of ordinary chat that the rules missed.

Languages one "gets by in" and more language names, a time zone written in capitals after
"in/on" or opening the message, a condition fragment that is dated or gives a reason, a
condition "had" for years, allergens named by the rescue pen or a skin reaction, emojis
liked or disliked in the user's own words, and a food that "makes me gag". Wordings here
are in no benchmark file.
"""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored


def _items(text: str, key: str) -> set[str]:
    return {v.lower() for k, v in stored(text) if k == key or k.startswith(key + ".")}


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("i can just about get by in greek and hebrew", "language.spoken", {"el", "he"}),
        ("please write back in swedish", "language", {"sv"}),
        ("hindi please, its easier for my mum", "language", {"hi"}),
        ("im on JST for meetings", "timezone", {"asia/tokyo"}),
        ("SGT for me please", "timezone", {"asia/singapore"}),
        ("seoul time zone for me pls", "timezone", {"asia/seoul"}),
        ("copd sufferer so stairs are a struggle", "health.condition", {"copd"}),
        ("epileptic since i was a teen", "health.condition", {"epilepsy"}),
        ("ive had colitis for about ten years", "health.condition", {"ulcerative colitis"}),
        ("got gout so go easy on the red meat", "health.condition", {"gout"}),
        ("i come out in welts from mango", "allergy.food", {"mango"}),
        ("i carry an epipen because of peanuts", "allergy.food", {"peanut", "peanuts"}),
        ("latex = epipen for me", "allergy.other", {"latex"}),
        ("emojis annoy me, leave them out", "response.emoji", {"false"}),
        ("go nuts with the emojis", "response.emoji", {"true"}),
        ("tinned tuna makes me want to heave", "food.dislike", {"tinned tuna"}),
    ],
)
def test_value_wording_is_read(text: str, key: str, values: set[str]) -> None:
    got = _items(text, key)
    assert got and got <= values | {v.rstrip("s") for v in values}


@pytest.mark.parametrize(
    "text",
    [
        "i can get by in most places",
        "my boss says emojis are unprofessional",
        "my son carries an epipen for nuts",
        "i carry an epipen for work trips",
        "this traffic makes me want to scream",
        "i had chickenpox as a kid",
    ],
)
def test_look_alike_stores_nothing(text: str) -> None:
    assert not stored(text)
