"""Chinese families dev18zh / dev19zh left failing (issue 12).

A reading said to be high names its condition (我血糖高 is 高血糖, 尿酸高 is 高尿酸),
the classical "and" in an age (本人二十有五), a district after 坐标 once the city has been
named (人在杭州，坐标滨江), and "not one cent more" after a budget is no food disliked
(多一块都不行); a language rated (我法语一般, 德语我马马虎虎) is spoken; a card tier is no
name (我是金卡); a known drug the user cannot take is an allergy (磺胺类的药我用不了); a
city-state lived in is the city as well as the country (我定居新加坡); a budget for
buying for someone (给我爸买…，预算…) is the user's, the spender's.

The sentences here are worded for the tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from shared_core.ingest.lexicon import parse_number
from tests.unit.ingest.test_gate_generalize import stored


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("我血糖高，在控制饮食", "高血糖"),
        ("我尿酸高好几年了", "hyperuricemia"),
        ("我血压高，每天吃药", "hypertension"),
        ("我有点血脂高", "high cholesterol"),
        ("我有高尿酸，啤酒不敢喝", "hyperuricemia"),
    ],
)
def test_a_high_reading_names_its_condition(text: str, value: str) -> None:
    assert stored(text).get("health.condition") == value


@pytest.mark.parametrize(
    ("text", "age"),
    [("本人三十有二，在杭州上班", "32"), ("我今年四十有六了", "46")],
)
def test_the_classical_and_in_an_age(text: str, age: str) -> None:
    assert stored(text).get("age") == age


def test_parse_number_reads_the_classical_and() -> None:
    assert parse_number("五十有八") == 58
    assert parse_number("二十五") == 25


@pytest.mark.parametrize(
    ("text", "city"),
    [("人在杭州，坐标滨江", "hangzhou"), ("我住在苏州，坐标吴中", "suzhou")],
)
def test_a_district_after_the_city_does_not_replace_it(text: str, city: str) -> None:
    assert stored(text).get("location.city") == city


def test_a_district_alone_after_zuobiao_still_stores() -> None:
    assert "location.city" in stored("坐标滨江")


@pytest.mark.parametrize(
    "text",
    ["换手机预算六千五，多一块都不行", "装修预算压在八万，差一分也不行"],
)
def test_not_one_cent_more_is_no_dislike(text: str) -> None:
    got = stored(text)
    assert "budget.max" in got
    assert not any(k.startswith("taste.") for k in got)


def test_a_food_that_cannot_be_stood_still_is_disliked() -> None:
    assert "芹菜" in stored("芹菜我实在不行").values()


@pytest.mark.parametrize(
    ("text", "spoken"),
    [
        ("我法语一般，西班牙语还行", {"fr", "es"}),
        ("德语我马马虎虎", {"de"}),
        ("帮我改下简历。意大利语一般般", {"it"}),
    ],
)
def test_a_language_rated_is_spoken(text: str, spoken: set[str]) -> None:
    got = stored(text)
    assert {v for k, v in got.items() if k.startswith("language.spoken")} == spoken


def test_usually_after_a_language_is_no_rating() -> None:
    assert stored("英语一般怎么表达感谢") == {}


@pytest.mark.parametrize(
    "text",
    ["订东航的票，会员号等下发你，我是白金卡", "帮我订万豪，我是金卡", "我是钻石卡，帮我升舱"],
)
def test_a_card_tier_is_no_name(text: str) -> None:
    got = stored(text)
    assert "name" not in got
    assert "name.preferred" not in got


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        ("头孢我不能用，上次用完喘不上气", "cephalosporin"),
        ("磺胺类的药我用不了", "sulfa"),
        ("布洛芬我是碰不了", "ibuprofen"),
    ],
)
def test_a_drug_the_user_cannot_take_is_an_allergy(text: str, drug: str) -> None:
    assert stored(text).get("allergy.medication") == drug


def test_asking_whether_a_drug_can_be_taken_stores_nothing() -> None:
    assert stored("头孢我不能用吗") == {}


@pytest.mark.parametrize("text", ["我在新加坡住了六年", "我定居新加坡"])
def test_a_city_state_lived_in_is_the_city(text: str) -> None:
    got = stored(text)
    assert got.get("location.city") == "singapore"
    assert got.get("location.country") == "SG"


@pytest.mark.parametrize(
    ("text", "amount"),
    [("给我爸挑个电动轮椅，预算八千出头", "8000"), ("想给我老婆订个民宿，预算六百以内", "600")],
)
def test_a_budget_when_buying_for_someone_is_the_users(text: str, amount: str) -> None:
    assert stored(text).get("budget.max", "").split()[0] == amount


@pytest.mark.parametrize(
    "text", ["帮我老公挑个耳机，他预算一千五", "我婆婆的预算是三千以内，我觉得不够"]
)
def test_someone_elses_budget_stays_theirs(text: str) -> None:
    assert "budget.max" not in stored(text)


@pytest.mark.parametrize(
    ("text", "channel"),
    [("你们有事还是发邮件给我吧，电话老漏接", "email"), ("以后还是发微信给我吧", "wechat")],
)
def test_haishi_states_the_standing_way(text: str, channel: str) -> None:
    assert stored(text).get("contact.channel") == channel


def test_haishi_keeps_what_is_still_allowed() -> None:
    got = stored("平时别打电话，急事还是可以打的")
    assert got.get("contact.call") == "never"
    assert got.get("contact.call.emergency") == "allowed"


def test_haishi_this_time_is_still_a_one_off() -> None:
    assert stored("这次还是用支付宝吧") == {}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我没有护照，出不了国", "我没有护照"),
        ("我没驾驶证，平时坐公交", "我没驾驶证"),
        ("我戒烟五年多了", "我戒烟五年多了"),
    ],
)
def test_a_lasting_fact_said_in_the_negative_is_a_note(text: str, words: str) -> None:
    assert words in stored(text).values()


def test_asking_about_a_licence_is_no_note() -> None:
    assert stored("我没驾照能租车吗") == {}
