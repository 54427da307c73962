"""Self-descriptions read as names (found while tuning on dev16): a nationality after
"I'm" and a remark about one's name are no name; real names in the same frames still are."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared_core.entities import Turn
from shared_core.ingest.extract import RuleExtractor


def _read(text: str) -> dict[str, str]:
    turn = Turn(
        user_id="u", text=text, session_id="s", turn_id="t", at=datetime(2026, 4, 15, tzinfo=UTC)
    )
    return {c.key: c.normalized for c in RuleExtractor().extract(turn)}


@pytest.mark.parametrize(
    "text",
    [
        "I'm Scottish.",
        "I'm Ghanaian, living in Accra",
        "Hi, I'm Vietnamese",
        "I'm Filipina and I work nights",
        "my name is tricky to pronounce",
        "my name is important to me, please get it right",
    ],
)
def test_a_nationality_or_a_remark_is_no_name(text: str) -> None:
    got = _read(text)
    assert "name" not in got
    assert "name.preferred" not in got


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I'm Julian.", "julian"),
        ("Hi, I'm Christian", "christian"),
        ("my name is Vivian Osei", "vivian osei"),
    ],
)
def test_names_that_look_like_adjectives_are_still_names(text: str, name: str) -> None:
    assert _read(text).get("name") == name


def test_the_city_beside_a_nationality_is_still_read() -> None:
    assert _read("I'm Kenyan, based in Nairobi").get("location.city") == "nairobi"
