"""Hostile text never makes a call super-linear, and a bad number never costs a turn.

Issue 16, findings 3 and 4: each adversarial input below used to take from 8 s to 157 s
in one ``observe()``; a 400-digit budget dropped the allergy stated in the same turn. The
checks compare CPU seconds (``time.process_time``, so a loaded CI machine does not fail
them) on a text and on a quarter of it: the point is linear growth, not speed
(``benchmarks/`` measures that); a generous absolute ceiling catches a catastrophe.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_core import FakeClock, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.entities import ChangeAction
from shared_core.errors import InvalidInputError
from shared_core.ingest.lexicon import MAX_AMOUNT_DIGITS, canonical_value, parse_number

N = 32_000
#: CPU seconds one call may take on a 32,000-character text (the default length limit).
BUDGET_32K = 1.0


def _rep(fragment: str, n: int = N) -> str:
    return (fragment * (n // len(fragment) + 1))[:n]


#: The inputs of issue 16, finding 3 (plus a few neighbours of the same shapes).
ADVERSARIAL: dict[str, str] = {
    "digits": "1" * N,
    "budget_digits": "my budget is " + "9" * 16_000,
    "one_comma": "1," * 8_000,
    "not": " not " * 6_400,
    "hash_spaces": "##" + " " * (N - 3) + "x",
    "allergic": _rep("I'm allergic to "),
    "last_friday": _rep("last Friday "),
    "dates": _rep("12 April "),
    "zh": _rep("我对青霉素过敏，预算两万，"),
    "zh_numerals": _rep("一二三四五六七八九十百千万"),
    "commas": _rep("a, "),
    "not_comma": _rep("not a, "),
    "money": _rep("$1 "),
}


@pytest.fixture(scope="module")
def mem() -> Iterator[UserMemory]:
    m = UserMemory.from_url(
        "sqlite:///:memory:",
        clock=FakeClock(datetime(2026, 4, 15, 9, 0, tzinfo=UTC)),
        embedder=HashingEmbedder(),
    )
    m.observe("warmup", "I'm allergic to penicillin. 我对青霉素过敏，预算两万。")
    m.recall("warmup", "过敏 allergy")
    yield m
    m.close()


def _cpu(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


#: A call on 4x the text may take this many times the CPU (linear: ~4; quadratic: 16).
GROWTH_4X = 7.0
#: Absolute CPU ceiling on a 32,000-character text: catches a catastrophe outright.
CEILING_32K = 5.0


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_turn_is_linear(mem: UserMemory, name: str) -> None:
    """The CPU of ``observe`` grows linearly from a quarter of the text to all of it (the
    growth, not a speed: a slow or busy machine scales both sides)."""
    text = ADVERSARIAL[name]
    assert len(text) <= mem.config.max_text_chars
    quarter = _cpu(lambda: mem.observe(f"q_{name}", text[: len(text) // 4]))
    spent = _cpu(lambda: mem.observe(f"u_{name}", text))
    assert spent < GROWTH_4X * quarter + 0.1, (
        f"observe({name}): {quarter:.3f} s of CPU on a quarter, {spent:.3f} s on all of it"
    )
    assert spent < CEILING_32K, f"observe({name}) took {spent:.2f} s of CPU"
    spent = _cpu(lambda: mem.remember(f"u_{name}", "note.text", text[:4000]))
    assert spent < BUDGET_32K, f"remember({name}) took {spent:.2f} s of CPU"


def test_allergic_to_repeated_to_100k_is_linear(mem: UserMemory) -> None:
    """ "I'm allergic to " repeated to 100 K (above the default limit: the extractor)."""
    from shared_core.entities import Turn
    from shared_core.ingest.extract import RuleExtractor

    def extract(n: int) -> float:
        text = _rep("I'm allergic to ", n)
        turn = Turn(user_id="u", text=text, session_id="s", turn_id="t", at=datetime.now(UTC))
        return _cpu(lambda: RuleExtractor().extract(turn))

    quarter, spent = extract(25_000), extract(100_000)
    assert spent < GROWTH_4X * quarter + 0.1, f"{quarter:.3f} s on 25 K, {spent:.3f} s on 100 K"
    assert spent < 3 * CEILING_32K


# ---- property: any text built from pattern-triggering pieces stays linear ------------------
_PIECES = [
    "1",
    "9",
    ",",
    ".",
    " ",
    "  ",
    "##",
    "$",
    "k",
    "万",
    "两",
    "千",
    "一",
    " not ",
    "not ",
    "I'm allergic to ",
    "allergic",
    "last Friday ",
    "next Monday",
    "12 April ",
    "2026-04-",
    "my budget is ",
    "budget ",
    "between ",
    " and ",
    " to ",
    "at most ",
    "我",
    "是",
    "不是",
    "，",
    "对",
    "过敏",
    "预算",
    "最多",
    "我叫",
    "I live in ",
    "moved to ",
    " from ",
    "call me ",
    "never ",
    "don't ",
    "Do not ever recommend ",
    "SMS",
    "短信",
    "I love ",
    "不要",
    "了",
    "-",
    " -- ",
    ":",
    "：",
    "(",
    "'",
    "\u2028",
    "\t",
    "a",
    "Z",
    "青霉素",
    "点",
    "以后",
]


@st.composite
def _hostile(draw: st.DrawFn) -> str:
    """A few pieces repeated to 4-8 KB: the shapes that make a backtracking regex blow up."""
    unit = "".join(draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4)))
    size = draw(st.integers(4_000, 8_000))
    return _rep(unit, size)


#: CPU seconds per KB for one call, plus a fixed allowance: generous, because a shared CI
#: machine is noisy; a super-linear pattern costs seconds to minutes on 4-8 KB.
BUDGET_PER_KB = 0.1
BUDGET_BASE = 0.5


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=_hostile())
def test_hostile_text_stays_linear(mem: UserMemory, text: str) -> None:
    kb = len(text) / 1000
    user = f"fuzz_{uuid.uuid4().hex}"  # a fresh user: the time is the text's, not history's
    assert _cpu(lambda: mem.observe(user, text)) < BUDGET_PER_KB * kb + BUDGET_BASE
    assert _cpu(lambda: mem.recall(user, text[:2000])) < BUDGET_PER_KB * kb + BUDGET_BASE
    assert _cpu(lambda: mem.remember(user, "note.fuzz", text)) < BUDGET_PER_KB * kb + BUDGET_BASE


# ---- numbers never crash a turn --------------------------------------------------------------
def test_huge_budget_keeps_the_allergy(mem: UserMemory) -> None:
    changes = mem.observe("ada", "I'm allergic to penicillin. My budget is " + "9" * 400)
    assert mem.profile("ada") == {"allergy.medication": "penicillin"}
    skipped = [c for c in changes if c.key == "budget.max"]
    assert [c.action for c in skipped] == [ChangeAction.IGNORED]
    assert "invalid value" in skipped[0].reason


@pytest.mark.parametrize("value", ["9" * 400, "1" + "0" * MAX_AMOUNT_DIGITS, "1" + "0" * 14 + "万"])
def test_remember_out_of_range_amount_is_typed(mem: UserMemory, value: str) -> None:
    with pytest.raises(InvalidInputError, match="out of range"):
        mem.remember("bob", "budget.max", value)
    assert mem.profile("bob") == {}


def test_remember_giant_int_and_non_finite_float_are_typed(mem: UserMemory) -> None:
    for value in (10**5000, float("inf"), float("nan")):
        with pytest.raises(InvalidInputError):
            mem.remember("carl", "budget.max", value)
    assert mem.profile("carl") == {}


def test_parse_number_is_bounded() -> None:
    assert parse_number("9" * MAX_AMOUNT_DIGITS) == int("9" * MAX_AMOUNT_DIGITS)
    assert parse_number("2万") == 20_000
    with pytest.raises(InvalidInputError):
        parse_number("9" * (MAX_AMOUNT_DIGITS + 1))
    with pytest.raises(InvalidInputError):
        parse_number("1" + "0" * 400 + "k")
    assert canonical_value("budget.max", "at most 300 dollars") == "300"
