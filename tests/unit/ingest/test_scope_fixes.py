"""Scope the rules read wrongly (issue 12: nothing bogus stored, nothing real lost).

* Setting a fact aside for one answer ("disregard my budget for now", "就这一次，不用考虑我
  忌口") takes nothing back: neither the turn before (the generic retraction) nor the record
  it names; a real retraction ("scratch that", "我的预算那个你忘了吧") still does. One check,
  ``one_answer_aside``, decides it for both paths.
* A state from a time gone by goes on when 就 / 一直到现在 / 至今 says so ("上学那会儿我就住在
  成都", "我从小就住在杭州"); without them, or when it ended ("后来搬走了"), it is past.
* A loyalty tier said as who one is with its programme ("im platinum on united", "I'm a Gold
  member with Marriott", "我是国航金卡") is that loyalty programme, not a job or an employer;
  a tier with no programme ("我是银卡用户": of an airline? a bank?) stays the user's note.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.ingest_probe import active_records, stored

# ---- 1. a retraction scoped to one answer -----------------------------------------------

_BUDGET_EN = ("My budget is 800 dollars.", ("budget.max", "800 USD"))
_BUDGET_ZH = ("我的预算是五千块。", ("budget.max", "5000 CNY"))
_DIET_EN = ("I'm vegetarian.", ("diet", "vegetarian"))
_DIET_ZH = ("我吃素。", ("diet", "vegetarian"))


@pytest.mark.parametrize(
    ("before", "follow_up"),
    [
        (_BUDGET_EN, "disregard my budget for now"),
        (_BUDGET_EN, "just this once, ignore my budget"),
        (_BUDGET_EN, "forget my budget for now, show me the nicest ones"),
        (_BUDGET_EN, "don't worry about my budget this time"),
        (_BUDGET_EN, "never mind the budget for this search"),
        (_DIET_EN, "ignore my diet just this once"),
        (_DIET_EN, "forget that I'm vegetarian for this recipe"),
        (_DIET_EN, "disregard the vegetarian thing tonight"),
        (_BUDGET_ZH, "这次先别管我的预算"),
        (_BUDGET_ZH, "这次先忘掉我的预算"),
        (_BUDGET_ZH, "预算这次不算"),
        (_BUDGET_ZH, "忽略我的预算，就这一次"),
        (_DIET_ZH, "就这一次，不用考虑我忌口"),
        (_DIET_ZH, "今天先不考虑我吃素这件事"),
    ],
)
def test_setting_a_fact_aside_for_one_answer_keeps_it(
    before: tuple[str, tuple[str, str]], follow_up: str
) -> None:
    text, record = before
    assert record in stored(text, follow_up)


@pytest.mark.parametrize(
    ("before", "follow_up"),
    [
        (_BUDGET_EN, "scratch that"),
        (_BUDGET_EN, "forget what I said about my budget"),
        (_BUDGET_EN, "scratch the budget"),
        (_BUDGET_EN, "scratch that, I'm in Leeds for now"),
        (_DIET_EN, "actually ignore that, I'm not vegetarian anymore"),
        (_BUDGET_ZH, "刚才说的不算"),
        (_BUDGET_ZH, "这次说的不算"),
        (_BUDGET_ZH, "我的预算那个你忘了吧"),
        (_BUDGET_ZH, "预算那个撤回"),
    ],
)
def test_a_real_retraction_still_takes_it_back(
    before: tuple[str, tuple[str, str]], follow_up: str
) -> None:
    text, (key, _value) = before
    assert not any(k == key for k, _v in stored(text, follow_up))
    rows = [
        r
        for r in active_records(text, follow_up, statuses=("active", "revoked"))
        if r["key"] == key
    ]
    assert rows and all(r["status"] == "revoked" for r in rows)


def test_the_new_fact_after_a_retraction_for_now_is_kept() -> None:
    got = stored(*_BUDGET_EN[:1], "scratch that, I'm in Leeds for now")
    assert ("location.city", "leeds") in got


# ---- 2. a past state that goes on --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "record"),
    [
        ("上学那会儿我就住在成都", ("location.city", "chengdu")),
        ("我上学那会儿就住在成都了", ("location.city", "chengdu")),
        ("我从小就住在杭州", ("location.city", "hangzhou")),
        ("我大学时就住在上海，至今没搬过", ("location.city", "shanghai")),
        ("读书的时候我就住在武汉，现在还住这边", ("location.city", "wuhan")),
        ("以前我就住在成都", ("location.city", "chengdu")),
        ("大学的时候我就开始吃素了，一直到现在", ("diet", "vegetarian")),
        ("我从小就吃素", ("diet", "vegetarian")),
        ("小时候我就对花生过敏", ("allergy.food", "peanuts")),
        ("I've lived in Leeds since uni", ("location.city", "leeds")),
        ("I've been vegetarian since college", ("diet", "vegetarian")),
    ],
)
def test_a_state_since_a_time_gone_by_is_current(text: str, record: tuple[str, str]) -> None:
    assert record in stored(text)


@pytest.mark.parametrize(
    "text",
    [
        "上学那会儿我住在成都",
        "大学的时候我吃素",
        "以前我住在成都",
        "上学那会儿我就住在成都，后来搬走了",
        "小时候我就对牛奶过敏，长大就好了",
        "大学的时候我就开始吃素了，后来放弃了",
        "back in uni I lived in Leeds",
        "I used to be vegetarian in college",
    ],
)
def test_a_state_of_a_time_gone_by_alone_is_past(text: str) -> None:
    assert stored(text) == set()


def test_ju_still_only_stresses_a_place_said_now() -> None:
    assert ("location.city", "tokyo") in stored("我就住东京")


# ---- 3. a loyalty tier said as who one is ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("我是国航金卡", "国航"),
        ("I'm a Gold member with Marriott", "marriott"),
        ("I'm a Platinum member at Hyatt", "hyatt"),
        ("im platinum on united", "united"),
        ("i'm diamond on delta", "delta"),
        ("I'm gold with hilton", "hilton"),
    ],
)
def test_a_tier_said_as_identity_is_loyalty(text: str, value: str) -> None:
    got = stored(text)
    assert {v for k, v in got if k.startswith("travel.loyalty")} == {value}
    assert not [k for k, _v in got if k.startswith(("note", "name", "job."))]


@pytest.mark.parametrize("text", ["我是银卡用户", "我是白金会员", "我是一名钻石卡会员"])
def test_a_tier_with_no_programme_is_no_programme_nor_a_name(text: str) -> None:
    # of an airline, a bank, a shop? the tier alone is no loyalty programme (SCHEMA.md:
    # the value is the programme's name) and no name or job: the user's words stay a note
    got = stored(text)
    assert not [k for k, _v in got if k.startswith(("travel.loyalty", "name", "job."))]
    assert [v for k, v in got if k.startswith("note")] == [text]


@pytest.mark.parametrize(
    "text",
    [
        "我是会员吗？",
        "我是金卡会员吗？",
        "my wife is a Gold member",
        "我老婆是银卡会员",
        "我是新用户",
    ],
)
def test_a_tier_asked_about_or_someone_elses_stores_nothing(text: str) -> None:
    assert stored(text) == set()


def test_a_tier_beside_its_programme_is_not_a_second_programme() -> None:
    values = {v for k, v in stored("国航凤凰知音我是金卡") if k.startswith("travel.loyalty")}
    assert values and not values & {"金卡", "金"}


def test_working_at_a_hotel_chain_is_still_an_employer() -> None:
    assert ("job.employer", "marriott") in stored("I work at Marriott")
