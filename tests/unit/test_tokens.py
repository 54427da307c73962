"""Token counting: the MiniLM WordPiece tokenizer, the heuristic fallback, custom counters."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shared_core import tokens
from shared_core.errors import InvalidInputError
from shared_core.tokens import (
    count_tokens,
    heuristic_count_tokens,
    set_token_counter,
    token_counter_name,
    truncate_to_tokens,
)

EN = [
    "The user prefers SMS notifications over email, lives in Berlin, and has a budget of "
    "20000 EUR for the new car.",
    "My flight to San Francisco leaves on 2026-04-12 at 10:30; please remind me the day before.",
    "I'm allergic to peanuts and shellfish. Don't suggest Thai restaurants with satay.",
    "Call me at 555-123-4567 or email alice.smith@example.com if order #A-99812 is delayed.",
    "Hey! Can you recommend a good sci-fi novel? I loved Dune and The Three-Body Problem.",
    "Set my default currency to USD, timezone to America/Los_Angeles and units to metric.",
    "I usually work out on Wednesdays and Saturdays, mostly running (5k) and yoga.",
    "Please stop sending me push notifications after 10pm; text me instead.",
]
ZH = [
    "用户喜欢喝咖啡，不喜欢茶。他住在北京，每周三去健身房锻炼身体。",
    "我的预算是两万元，想买一辆电动车，最好是续航超过500公里的。",
    "请用中文回复我，并且不要在晚上十点以后给我发消息。",
    "我对花生过敏，点外卖的时候请帮我避开含花生的菜。",
    "下周二我要去上海出差，帮我订一家离陆家嘴近的酒店。",
    "我喜欢Python编程，也在学习Rust。",
]


@pytest.fixture(autouse=True)
def _reset_counter() -> Iterator[None]:
    set_token_counter(None)
    yield
    set_token_counter(None)


def test_uses_the_bundled_wordpiece_tokenizer() -> None:
    assert token_counter_name() == "minilm-wordpiece"
    # WordPiece splits: "una ##ffa ##ble", "2000 ##0", one token per CJK character
    assert count_tokens("unaffable") == 3
    assert count_tokens("20000") == 2
    assert count_tokens("我喜欢喝咖啡") == 6
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2  # no [CLS]/[SEP]


@pytest.mark.parametrize("text", EN + ZH)
def test_heuristic_within_35_percent_and_errs_high_on_average(text: str) -> None:
    real = count_tokens(text)
    guess = heuristic_count_tokens(text)
    assert 0.65 * real <= guess <= 1.35 * real, (guess, real)


@pytest.mark.parametrize("corpus", [EN, ZH], ids=["en", "zh"])
def test_heuristic_does_not_undercount_a_corpus(corpus: list[str]) -> None:
    real = sum(count_tokens(t) for t in corpus)
    guess = sum(heuristic_count_tokens(t) for t in corpus)
    assert real <= guess <= 1.35 * real


def test_heuristic_is_used_when_tokenizer_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "_tokenizer", None)
    monkeypatch.setattr(tokens, "_tokenizer_failed", True)
    assert token_counter_name() == "heuristic"
    assert count_tokens("我喜欢喝咖啡") == 6
    assert count_tokens("hello world") == heuristic_count_tokens("hello world") == 2


def test_custom_counter_and_reset() -> None:
    set_token_counter(lambda t: len(t.split()))
    assert token_counter_name() == "custom"
    assert count_tokens("one two three") == 3
    assert truncate_to_tokens("one two three four", 2) == "one two"
    set_token_counter(None)
    assert token_counter_name() == "minilm-wordpiece"
    with pytest.raises(InvalidInputError):
        set_token_counter("len")  # type: ignore[arg-type]


def test_custom_counter_bad_results_are_typed_errors() -> None:
    set_token_counter(lambda t: -1)
    with pytest.raises(InvalidInputError):
        count_tokens("x")
    set_token_counter(lambda t: 1.5)  # type: ignore[arg-type,return-value]
    with pytest.raises(InvalidInputError):
        count_tokens("x")


def test_bad_input() -> None:
    with pytest.raises(InvalidInputError):
        count_tokens(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        truncate_to_tokens(b"x", 3)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        truncate_to_tokens("x", -1)
    with pytest.raises(InvalidInputError):
        truncate_to_tokens("x", 2.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("counter", ["wordpiece", "heuristic"])
@pytest.mark.parametrize("n", [0, 1, 3, 7, 15, 40, 1000])
@pytest.mark.parametrize("text", [EN[0], ZH[0], ZH[5], "supercalifragilisticexpialidocious x"])
def test_truncate_fits_and_is_a_prefix(
    counter: str, n: int, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if counter == "heuristic":
        monkeypatch.setattr(tokens, "_tokenizer_failed", True)
        monkeypatch.setattr(tokens, "_tokenizer", None)
    out = truncate_to_tokens(text, n)
    assert text.startswith(out)
    assert count_tokens(out) <= n
    if count_tokens(text) <= n:
        assert out == text
    elif n >= 3:
        assert out  # something useful survives
        # maximal up to one word: adding the next piece would overflow
        assert count_tokens(text) > n


def test_truncate_cuts_at_word_boundaries() -> None:
    text = "remember that I prefer vegetarian restaurants near the office"
    out = truncate_to_tokens(text, 4)
    assert out == " ".join(text.split()[:4])


def test_repeated_counts_of_a_400_token_block_are_cache_hits() -> None:
    from shared_core import tokens

    block = (" ".join(EN) + " ") * 2
    first = count_tokens(block)
    assert 300 <= first <= 500
    if tokens.token_counter_name() != "minilm-wordpiece":
        pytest.skip("the cached WordPiece counter needs the tokenizers package")
    before = tokens._wordpiece_count.cache_info().hits
    assert all(count_tokens(block) == first for _ in range(50))
    assert tokens._wordpiece_count.cache_info().hits - before == 50
    # per-call times (cached and uncached): benchmarks/unit_speed.py
