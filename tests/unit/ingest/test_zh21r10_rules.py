"""Families of Chinese wording the dev21zh set exposed (round 10).

Readings said lasting before 高 (我血脂一直偏高, 胆固醇常年偏高, 偏高好几年了) name their condition
(有点高 alone may be today's);
Chinese varieties named by their region (闽南语, 四川话, 广东话) are Chinese, languages named
with 文 (意大利文) are languages, and a language fronted before 都会 / 从小就会 / 是母语 / 还在学
is spoken; a list of known words run together without a separator (鱼虾, 火锅烧烤啥的) is read
item by item, also fronted before 都 with the subject dropped; of two scales, one turned
down (别用华氏度, 英制的我看不懂) asks for the other; a standing channel before 上说 / 给我
with 有事 or 最方便; 台中 is a city though it ends in 中, and a move after 后来 is the state now;
birthdays with a two-digit year, the date then 的生日, and a weekday after 下礼拜 before
是我生日; a correction opening with 是我儿子 / 是我老婆 is about someone else.

The sentences here are worded for the tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored


def _values(found: set[tuple[str, str]], prefix: str) -> set[str]:
    return {v for k, v in found if k == prefix or k.startswith(prefix + ".")}


@pytest.mark.parametrize(
    ("text", "conditions"),
    [
        ("我血脂一直偏高", {"高血脂", "high cholesterol"}),
        ("我胆固醇常年偏高", {"高胆固醇", "high cholesterol"}),
        ("我尿酸长期偏高", {"高尿酸", "hyperuricemia"}),
    ],
)
def test_a_reading_high_with_adverbs_names_its_condition(text: str, conditions: set[str]) -> None:
    found = _values(stored(text), "health.condition")
    assert len(found) == 1 and found <= conditions


@pytest.mark.parametrize("text", ["我血脂不高", "我血糖偏高吗", "我妈血压一直偏高"])
def test_a_reading_not_high_or_asked_or_someone_elses_stores_no_condition(text: str) -> None:
    assert not _values(stored(text), "health.condition")


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("我会说四川话和英语", {"zh", "en"}),
        ("我会讲闽南语", {"zh"}),
        ("广东话日语都会", {"zh", "ja"}),
        ("东北话我从小就会说", {"zh"}),
        ("我会说意大利文", {"it"}),
        ("法语是母语", {"fr"}),
        ("韩语我还在学", {"ko"}),
    ],
)
def test_regional_varieties_and_fronted_languages_are_spoken(text: str, codes: set[str]) -> None:
    assert _values(stored(text), "language.spoken") == codes


@pytest.mark.parametrize("text", ["这些题我都会", "我老婆法语在学", "数学我都会忘"])
def test_no_language_without_a_language_word_or_for_someone_else(text: str) -> None:
    assert not _values(stored(text), "language.spoken")


@pytest.mark.parametrize(
    ("text", "key", "items"),
    [
        ("我喜欢吃火锅烧烤啥的", "food.like", {"火锅", "烧烤"}),
        ("鱼虾都过敏", "allergy.food", {"fish", "shrimp"}),
        ("奶茶咖啡我都爱喝", "food.like", {"奶茶", "咖啡"}),
        ("苦瓜芹菜这种我都受不了", "food.dislike", {"苦瓜", "芹菜"}),
        ("摄影书法什么的我都挺有兴趣", "interest", {"摄影", "书法"}),
        ("家里兔子乌龟都有", "pet.species", {"rabbit", "turtle"}),
        ("肥肉类的我都不爱吃", "food.dislike", {"肥肉"}),
    ],
)
def test_lists_run_together_are_read_item_by_item(text: str, key: str, items: set[str]) -> None:
    assert _values(stored(text), key) == items


@pytest.mark.parametrize("text", ["我喜欢吃鸡蛋", "我对牛奶过敏"])
def test_a_known_word_is_not_split_into_smaller_ones(text: str) -> None:
    found = stored(text)
    assert len(found) == 1


@pytest.mark.parametrize(
    "text", ["他们家猫狗都有", "我同事鱼虾都过敏", "鱼虾都过敏吗", "小朋友们火锅烧烤都爱吃"]
)
def test_a_fronted_list_of_someone_else_or_asked_stores_nothing(text: str) -> None:
    assert not stored(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("别给我用12小时制", "units.time_format", "24h"),
        ("英制的我看不懂", "units.system", "metric"),
        ("不要用摄氏度，我习惯看华氏", "units.temperature", "fahrenheit"),
        ("公制单位我看着别扭", "units.system", "imperial"),
    ],
)
def test_a_scale_turned_down_asks_for_the_other(text: str, key: str, value: str) -> None:
    assert (key, value) in stored(text)
    assert {v for k, v in stored(text) if k == key} == {value}


@pytest.mark.usefixtures("rules_alone")
@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("以后邮件上说吧", "email"),
        ("有事发邮件给我", "email"),
        ("有啥事传短信给我", "sms"),
        ("平时telegram上聊", "telegram"),
    ],
)
def test_a_standing_channel_before_its_verb(text: str, channel: str) -> None:
    assert ("contact.channel", channel) in stored(text)


def test_a_bare_call_me_request_is_no_standing_channel() -> None:
    assert not _values(stored("打个电话给我"), "contact.channel")


@pytest.mark.parametrize(
    ("text", "city", "previous"),
    [
        ("我住台中", "taichung", None),
        ("我原来在成都住，后来搬来重庆了", "chongqing", "chengdu"),
        ("从台北搬到台中三年了", "taichung", "taipei"),
    ],
)
def test_cities_ending_in_zhong_and_moves_after_houlai(
    text: str, city: str, previous: str | None
) -> None:
    found = stored(text)
    assert ("location.city", city) in found
    if previous:
        assert ("location.city.previous", previous) in found


def test_a_spot_is_still_no_city() -> None:
    assert not _values(stored("我住在山里"), "location.city")


def test_a_state_given_up_later_stays_past() -> None:
    assert not stored("我以前不吃香菜，后来习惯了")  # nothing says it holds now


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("我是92年4月18号生的", "1992-04-18"),
        ("我是十一月三号的生日", "11-03"),
        ("下个礼拜五是我生日", "04-24"),
        ("明天就是我的生日", "04-16"),
    ],
)
def test_birthdays_with_short_years_and_relative_days(text: str, day: str) -> None:
    assert ("birthday", day) in stored(text)


@pytest.mark.parametrize("text", ["下礼拜五是我儿子生日", "明天是我的生日派对"])
def test_someone_elses_birthday_or_a_party_is_no_birthday(text: str) -> None:
    assert not _values(stored(text), "birthday")


@pytest.mark.parametrize(
    "turns",
    [
        ("我对芒果过敏", "哎呀说反了，是我女儿过敏，不是我"),
        ("我不吃辣", "其实是我老公不吃辣"),
    ],
)
def test_a_correction_naming_a_relative_stores_nothing_for_them(turns: tuple[str, ...]) -> None:
    found = stored(*turns)
    assert not any(v in ("女儿", "老公") for _, v in found)
    assert not stored(turns[1])


def test_a_reading_somewhat_high_alone_may_be_todays() -> None:
    assert not _values(stored("这两天我血压有点高"), "health.condition")
    assert _values(stored("我血脂偏高好几年了"), "health.condition")


@pytest.mark.parametrize(
    ("text", "airline"),
    [("川航这辈子不会再坐了", "川航"), ("飞过一次酷航之后再也不坐了", "酷航")],
)
def test_an_airline_refused_for_good(text: str, airline: str) -> None:
    assert _values(stored(text), "travel.airline.avoid") == {airline}


@pytest.mark.parametrize(
    ("text", "topic"),
    [("我对相亲节目一点兴趣都没有", "相亲节目"), ("以后少给我推那些养生课", "养生课")],
)
def test_topics_of_no_interest_or_to_push_less(text: str, topic: str) -> None:
    assert _values(stored(text), "recommend.never") == {topic}


def test_no_interest_of_someone_else_stores_nothing() -> None:
    assert not stored("我室友对相亲节目一点兴趣都没有")


@pytest.mark.parametrize(
    ("text", "methods"),
    [
        ("结账的话银联现金都可以", {"unionpay", "cash"}),
        ("我一般都是给现金", {"cash"}),
    ],
)
def test_payments_either_is_fine_and_cash_by_habit(text: str, methods: set[str]) -> None:
    assert _values(stored(text), "payment.method") == methods


@pytest.mark.parametrize(
    ("text", "name"),
    [("我大女儿（朵朵，9岁）在学游泳", "朵朵"), ("我儿子(Max, 4岁)很调皮", "max")],
)
def test_a_child_named_in_brackets(text: str, name: str) -> None:
    assert _values(stored(text), "family.child.names") == {name}


@pytest.mark.parametrize("text", ["我儿子（高一）住校", "我朋友的女儿（朵朵，9岁）在学游泳"])
def test_a_grade_or_someone_elses_child_in_brackets_is_no_name(text: str) -> None:
    assert not _values(stored(text), "family.child.names")


def test_a_drug_fronted_and_taken_for_months() -> None:
    assert _values(stored("氟西汀我吃了一年多了"), "medication") == {"氟西汀"}
    assert not _values(stored("阿莫西林我吃了两天了"), "medication")
