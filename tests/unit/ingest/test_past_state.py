"""What used to be true is not stored as true now; a one-off "say it again in English" is a
signal, not a standing reply language; how a job feels ("my job is killing me") is no job
title (issue 12: nothing bogus is stored)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ingest_probe import active_records


def _stored(*turns: str) -> dict[str, Any]:
    return {
        r["key"]: r["status"]
        for r in active_records(*turns, statuses=("active", "pending"), session_per_turn=True)
    }


@pytest.mark.parametrize(
    "text",
    [
        "I used to be allergic to shellfish as a kid.",
        "used to be vegetarian back in college",
        "I used to work as a bartender.",
        "我小时候对牛奶过敏，长大就好了。",
        "我曾经是个程序员。",
        "以前吃素，后来放弃了",
    ],
)
def test_a_past_state_is_not_stored_as_current(text: str) -> None:
    stored = _stored(text)
    assert not [k for k, s in stored.items() if s == "active"], stored


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I'm still allergic to shellfish, like I used to be.", "allergy.food"),
        ("我从以前就对牛奶过敏，现在也是。", "allergy.food"),
        ("I used to live in Leeds but now I live in York.", "location.city"),
        ("I used to live in Leeds but now I live in York.", "location.city.previous"),
    ],
)
def test_what_is_still_true_or_meant_as_past_keeps(text: str, key: str) -> None:
    assert any(k.startswith(key) and s == "active" for k, s in _stored(text).items())


def test_say_it_again_in_english_is_a_signal_until_three() -> None:
    assert _stored("用英文再讲一遍").get("language") != "active"
    assert _stored("用英文再讲一遍", "用英文再讲一遍", "用英文再讲一遍").get("language") == "active"
    assert _stored("以后都用英文回复我").get("language") == "active"


@pytest.mark.parametrize(
    "text", ["my job is killing me", "My job is secure but dull.", "my job is kinda hectic"]
)
def test_how_a_job_feels_is_no_job_title(text: str) -> None:
    assert "job.title" not in _stored(text)


@pytest.mark.parametrize("text", ["My job is nursing.", "my job is a part-time barista"])
def test_a_job_named_after_my_job_is_keeps(text: str) -> None:
    assert _stored(text).get("job.title") == "active"
