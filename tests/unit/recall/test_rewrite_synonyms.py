"""The key-synonym scan finds exactly what one regex alternation of every synonym finds
(leftmost, longest first, ASCII words bounded), in the same order."""

from __future__ import annotations

import random
import re

import pytest

from shared_core.recall import rewrite as rw


def _alternation(text: str) -> tuple[str, ...]:
    words = sorted(rw._PREFIXES, key=len, reverse=True)
    pat = re.compile(
        "|".join(
            rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])" if w.isascii() else re.escape(w)
            for w in words
        )
    )
    found: list[str] = []
    for m in pat.finditer(text.lower()):
        for p in rw._PREFIXES[m.group(0)]:
            if p not in found:
                found.append(p)
    return tuple(found)


@pytest.mark.parametrize(
    "text",
    [
        "How should you contact me? Text or call?",
        "can I phone the customer after 9pm",
        "recall the callback number",  # no bounded match inside a word
        "我的电话号码是多少，用短信还是微信联系我",
        "what is my budget for hotels in Lisbon",
        "",
        "ЖЖЖ İstanbul straße",
    ],
)
def test_the_scan_equals_the_alternation(text: str) -> None:
    assert rw._key_prefixes(text) == _alternation(text)


def test_the_scan_equals_the_alternation_on_generated_text() -> None:
    rng = random.Random(7)
    vocab = [*rw._PREFIXES, "x", "a", "mecall", "9", "-", "Text", "PHONE", "电话号码"]
    for _ in range(3000):
        words = [rng.choice(vocab) for _ in range(rng.randint(1, 6))]
        text = rng.choice([" ", "", "-", "1", ", "]).join(words)
        assert rw._key_prefixes(text) == _alternation(text), text
