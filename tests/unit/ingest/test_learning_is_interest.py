"""A skill being learned is an interest in both languages (keys.json: 学画画 is an
interest): "I've been learning to cook" stored `taste.cooking = like` while 我在学做菜
stored `interest.做菜`, and MemoryBank's labels count the taste as the wrong key."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared_core.entities import Kind, Turn
from shared_core.ingest.extract import RuleExtractor


def _read(text: str) -> list[tuple[str, str, Kind]]:
    turn = Turn(
        user_id="u", text=text, session_id="s", turn_id="t", at=datetime(2026, 4, 15, tzinfo=UTC)
    )
    return [(c.key, c.normalized, c.kind) for c in RuleExtractor().extract(turn)]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Lately I've been learning to paint, it's relaxing.", "interest.painting", "painting"),
        ("i'm learning to knit, finally", "interest.knitting", "knitting"),
        ("I'm learning to play the violin", "interest.violin", "violin"),
        ("I've been getting into bouldering", "interest.bouldering", "bouldering"),
        ("我最近在学画画", "interest.画画", "画画"),
    ],
)
def test_a_skill_being_learned_is_an_interest(text: str, key: str, value: str) -> None:
    got = _read(text)
    assert (key, value, Kind.PREFERENCE) in got
    assert not [k for k, _, _ in got if k.startswith("taste.")]


def test_liking_an_activity_stays_a_taste() -> None:
    assert ("taste.painting", "like", Kind.PREFERENCE) in _read("I love painting.")
