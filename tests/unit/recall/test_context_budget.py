"""Fitting the context block to its token budget (recall/inject.py).

A user with many open confirmation questions (each quick change of a value leaves one
until answered) used to cost one full render of the block per question dropped:
forty questions, forty renders per ``context()`` (measured: 42 ms of a 45 ms call on
PostgreSQL). The block is now cut by bisection; these tests pin that it keeps exactly the
items the one-at-a-time cut kept, and that it renders a handful of times, not once per
dropped item.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.recall import inject
from shared_core.scripts import one_line


def _linear_fit(
    parts: Any,
    tpl: Any,
    token_budget: int,
    count_tokens: Callable[[str], int],
) -> str:
    """The previous cut: drop the last item and render again until the block fits."""
    text = inject._render(parts, tpl)
    for bucket in (parts.episodes, parts.reconfirm, parts.soft, parts.confirm, parts.hard):
        while bucket and count_tokens(text) > token_budget:
            bucket.pop()
            text = inject._render(parts, tpl)
    return text


@pytest.fixture(scope="module")
def crowded() -> Iterator[UserMemory]:
    """A user with 39 open questions (39 keys, each changed within the confirmation
    window), a current city, an allergy and an episode."""
    mem = UserMemory("sqlite:///:memory:", embedder=HashingEmbedder())
    for n in range(39):
        mem.remember("u1", f"project.town{n}", f"Town{n}a")
        mem.remember("u1", f"project.town{n}", f"Town{n}b")
    mem.observe("u1", "I live in Town40x.", session_id="s1")
    mem.observe("u1", "I'm allergic to peanuts.", session_id="s1")
    mem.observe("u1", "We talked about a trip to Lisbon.", session_id="s2")
    assert len(mem.records.conflicts("u1")) >= 39
    yield mem
    mem.close()


@pytest.mark.parametrize("query", ["Where do I live?", "What did we say about the Lisbon trip?"])
@pytest.mark.parametrize("budget", [20, 60, 120, 200, 333, 400, 650, 1000, 1500, 5000])
def test_bisection_keeps_what_dropping_one_at_a_time_kept(
    crowded: UserMemory, budget: int, query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = crowded.context("u1", query, token_budget=budget)
    monkeypatch.setattr(inject, "_fit", _linear_fit)
    slow = crowded.context("u1", query, token_budget=budget)
    assert fast == slow
    assert fast.rstrip().endswith(inject.END_MARKER)


def test_renders_a_handful_of_times_not_once_per_dropped_item(
    crowded: UserMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders = 0
    real = inject._render

    def counting(parts: Any, tpl: Any) -> str:
        nonlocal renders
        renders += 1
        return real(parts, tpl)

    monkeypatch.setattr(inject, "_render", counting)
    block = crowded.context("u1", "Where do I live?", token_budget=400)
    questions = block.count("Which one should I follow?")
    assert 0 < questions < 39  # the budget cut most of the 39 questions
    # one-at-a-time: 1 + (39 - questions) + the soft items dropped; bisection: a few per
    # bucket cut (log2 of its size, + 1)
    assert renders <= 16


def test_one_line_fast_path_still_neutralises_invisible_characters() -> None:
    assert one_line("a\u2028b\u202ec\u200bd\te\x00f") == "a b c d e f"
    assert one_line("  plain  text ") == "plain text"
    assert inject.render_field("x\u2029y") == "x\\u2029y"
    assert inject.render_field("plain.key") == "plain.key"


def test_quoted_values_are_memoised_only_during_one_call(
    crowded: UserMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0
    real = inject.quote_data

    def counting(text: Any, *, limit: int = 300) -> str:
        nonlocal calls
        calls += 1
        return real(text, limit=limit)

    monkeypatch.setattr(inject, "quote_data", counting)
    crowded.context("u1", "Where do I live?", token_budget=400)
    # each distinct value once, although the cut renders the block several times
    assert 0 < calls <= len(crowded.records.conflicts("u1")) + 10
    assert inject._QUOTED.get() is None  # nothing kept once the call returned
    assert inject.quote_data is counting
    first = calls
    crowded.context("u1", "Where do I live?", token_budget=400)
    assert calls == 2 * first  # a new call quotes again: no cache across calls
