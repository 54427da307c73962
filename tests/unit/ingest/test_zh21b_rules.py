"""Round-10 follow-up Chinese families (dev21zh): a widow(er) without a subject, fronted
likes, rough amounts and ranges, and pastimes said with a doubled verb.

Wordings here are in no benchmark file.
"""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored


@pytest.mark.parametrize("text", ["老伴去年过世了", "老伴儿前年走了，孩子都在外地"])
def test_partner_gone_without_subject_is_widowed(text: str) -> None:
    assert ("relationship.status", "widowed") in stored(text)


@pytest.mark.parametrize("text", ["我朋友的老伴走了", "老伴走了吗？", "我邻居老伴去年过世了"])
def test_someone_elses_partner_or_a_question_is_not_widowed(text: str) -> None:
    assert not any(k == "relationship.status" for k, _ in stored(text))


@pytest.mark.parametrize(("text", "code"), [("海航我挺喜欢的", "海航"), ("川航我比较喜欢", "川航")])
def test_fronted_airline_liked(text: str, code: str) -> None:
    assert ("travel.airline", code) in stored(text)


@pytest.mark.parametrize("text", ["东航我不太了解", "川航我比较喜欢吗？", "我妈说南航她比较喜欢"])
def test_fronted_airline_not_liked_by_the_user(text: str) -> None:
    assert not any(k.startswith("travel.airline") for k, _ in stored(text))


@pytest.mark.parametrize(("text", "food"), [("奶茶我真的离不开", "奶茶"), ("可乐我戒不掉", "可乐")])
def test_fronted_food_the_user_cannot_do_without(text: str, food: str) -> None:
    assert (f"food.like.{food}", food) in stored(text)


@pytest.mark.parametrize("text", ["手机我离不开", "老婆我离不开", "奶茶我离不开吗"])
def test_not_a_food_or_a_question_is_no_taste(text: str) -> None:
    assert not any(k.startswith(("food.like", "taste")) for k, _ in stored(text))


def test_rough_amount_with_lai() -> None:
    assert ("budget.max", "200000") in stored("装修预算二十来万")


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [("预算四五千吧", "4000", "5000"), ("租房预算一两万", "10000", "20000")],
)
def test_neighbouring_digits_are_a_range(text: str, lo: str, hi: str) -> None:
    got = stored(text)
    assert ("budget.min", lo) in got
    assert ("budget.max", hi) in got


@pytest.mark.parametrize("text", ["这个月花了两三百", "上次装修花了大概三到五万", "家里两三百本书"])
def test_money_spent_or_a_count_is_no_budget(text: str) -> None:
    assert not any(k.startswith("budget") for k, _ in stored(text))


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("没事的时候我就爱逛逛街看看书", {"逛街", "看书"}),
        ("周末我喜欢散散步遛遛狗", {"散步", "遛狗"}),
    ],
)
def test_doubled_verb_pastimes(text: str, items: set[str]) -> None:
    got = stored(text)
    assert {(f"interest.{i}", i) for i in items} <= got


@pytest.mark.parametrize("text", ["下下周我要去北京出差", "帮我看看这个表格"])
def test_doubled_verb_that_is_no_pastime(text: str) -> None:
    assert not any(k.startswith(("interest", "taste", "food")) for k, _ in stored(text))
