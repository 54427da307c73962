"""A retraction that names a topic ("ignore the budget I gave") takes the stored budget back;
the same words scoped to one answer ("just this once", "this time", "for this search") set it
aside for that answer only and must leave the record active (issue 12)."""

from __future__ import annotations

import pytest

from shared_core import UserMemory


def _budget_status(follow_up: str) -> str:
    m = UserMemory("sqlite:///:memory:")
    try:
        m.observe("u", "My budget is at most 800 dollars.")
        m.observe("u", follow_up)
        rows = [r for r in m.export("u")["records"] if r["key"] == "budget.max"]
        assert len(rows) == 1
        return str(rows[0]["status"])
    finally:
        m.close()


@pytest.mark.parametrize(
    "text",
    [
        "just this once ignore my budget",
        "ignore the budget this time, I want to see the premium ones",
        "scratch the budget for this search",
    ],
)
def test_a_retraction_for_one_answer_keeps_the_record(text: str) -> None:
    assert _budget_status(text) == "active"


@pytest.mark.parametrize(
    "text", ["scratch what I said about the budget", "please disregard the budget I mentioned"]
)
def test_a_retraction_naming_the_topic_takes_it_back(text: str) -> None:
    assert _budget_status(text) == "revoked"
