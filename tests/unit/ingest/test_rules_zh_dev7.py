"""Chinese wordings the dev7 set exposed (issue 12): a topic fronted before the verb, name
words other than 名字, midnight as 零点, and cue words that only count in their idiom.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_rules_zh_general import extract, has


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # midnight as 零点 starts a quiet-hours range
        ("零点到六点半别发消息给我", "contact.quiet_hours", "00:00-06:30"),
        # the phone fronted as the topic of a refusal
        ("有事发短信，电话一律不接", "contact.call", "never"),
        ("电话我从来不接的", "contact.call", "never"),
        # other words for one's name, and a greeting with a particle
        ("我全名叫欧阳娜娜", "name", "欧阳娜娜"),
        ("我真名是李卫东，网上一般不说", "name", "李卫东"),
        ("嗨呀 我是赵子龙", "name", "赵子龙"),
        # "上次" in a story is not "like last time": the standing refusal stays explicit
        ("我再也不坐川航了，上次丢了我的行李", "travel.airline.avoid", "川航"),
        # "太长的" is an aversion to long answers in general, not a complaint about this one
        ("简短点吧，太长的我看不进去", "response.length", "short"),
        # 现居 / 本人, living alone in a city, "we" with the partner, 满 after 今年
        ("本人现居苏州", "location.city", "suzhou"),
        ("我独自在广州闯荡", "location.city", "guangzhou"),
        ("我老公叫大伟，我们有两个孩子", "family.children", "2"),
        ("我属猴，今年已经满五十了", "age", "50"),
        # the eating verb and a doubled leisure verb are not part of the item
        ("周末最喜欢喝奶茶", "food.like", "奶茶"),
        ("我平时下班没事就逛逛博物馆", "interest", "博物馆"),
        ("有时候听听相声", "interest", "相声"),
        # the usual way to pay without a paying verb; "不方便用X" is no method
        ("买东西基本都是支付宝", "payment.method", "alipay"),
        # "我这人…" / "我这个人…" is the speaker
        ("我这个人只用微信联系", "contact.channel", "wechat"),
        ("我这人不吃羊肉", "diet.avoid", "羊肉"),
        # short answers asked for by what they need not be; prices shown in a currency
        ("回答不需要那么详细", "response.length", "short"),
        ("金额都显示成欧元吧", "currency", "EUR"),
        # a birthday without the year, and a settled move
        ("我是五月二十号出生的", "birthday", "05-20"),
        ("我们决定了下个月搬去厦门", "location.moving_to", "xiamen"),
    ],
)
def test_dev7_wordings_are_read(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # "like last time" is still a behavioural cue, not a standing request
        ("跟上次一样回答简短一点", "response.length"),
        # a complaint about this answer stays a one-off signal
        ("这个回答太长了", "response.length"),
        # a strange number at night is not a refusal of all calls
        ("陌生电话我都不接", "contact.call"),
        # a question word near the end asks; it states nothing
        ("乳糖不耐的人早餐吃什么好", "intolerance"),
        ("对青霉素过敏的人能用哪些药", "allergy.medication"),
        # "没有对X过敏" denies the allergy
        ("我没有对花生过敏", "allergy.food"),
        # someone else's children
        ("他们有三个孩子", "family.children"),
        # a habit word before a place or a copula names no hobby
        ("周末一般都在家", "interest"),
        ("出国不方便用微信支付", "payment.method"),
        # a child born on a date is no birthday of the user's
        ("我3月8号生了个女儿", "birthday"),
    ],
)
def test_dev7_non_statements_stay_implicit(text: str, key: str) -> None:
    assert not any(k.startswith(key) for k, _ in extract(text)), extract(text)
