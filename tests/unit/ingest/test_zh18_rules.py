"""Chinese wordings the dev18zh set exposed (issue 12, round 9), and the lead's note that a
Chinese appointment should be kept as English keeps "I have a flight tomorrow": everyday
chat with the object fronted before 我, an adverb between 我 and the verb (才 / 都 / 就),
a measure word instead of a verb, a correction of a number or a name in one breath
(不是35，是36岁), two allergens in two clauses of one turn, and look-alikes that must store
nothing.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_rules_zh_dev11 import stored
from tests.unit.ingest.test_rules_zh_dev15 import found, has

# ---- appointments one has on a day are events, as in English -----------------------------


@pytest.mark.parametrize(
    ("text", "item"),
    [
        # a bare weekday is the next one from today on
        ("我礼拜四有个笔试", "笔试"),
        ("我星期六有一场比赛", "比赛"),
        # an appointment said without a measure word
        ("我后天有体检", "体检"),
        ("我大后天有航班，得早起", "航班"),
        ("我周二有答辩", "答辩"),
    ],
)
def test_appointment_on_a_day_is_an_event(text: str, item: str) -> None:
    keys = {k for k, _ in stored(text)}
    assert f"event.{item}" in keys, stored(text)


@pytest.mark.parametrize(
    "text",
    [
        # free time, an errand, a habit and a range of days are no appointment
        "我后天有空",
        "我周四有事",
        "我每周三有个例会",
        # a plan said with 要 stays a one-off plan (benchmarks/phrasing/SCHEMA.md)
        "我后天要去广州开会",
        "下个礼拜我要飞一趟大连",
    ],
)
def test_no_event_without_an_appointment(text: str) -> None:
    assert not any(k.startswith("event.") for k, _ in stored(text)), stored(text)


# ---- a correction of a number or a name in one breath ----------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("不对，我不是41，是42岁", "age", "42"),
        ("说错了，预算不是八千，是九千", "budget.max", "9000"),
        ("不对不对，我不叫王芳，叫王方", "name", "王方"),
    ],
)
def test_correction_reads_the_corrected_value(text: str, key: str, value: str) -> None:
    records = found(text)
    assert has(records, key, value), records
    assert not has(records, key, {"age": "41", "budget.max": "8000", "name": "王芳"}[key])


# ---- the fact fronted, or said with an adverb or a measure word --------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # a date before 是我生日
        ("11月3号是我生日，别忘了", "birthday", "11-03"),
        # the age with 才 / 都
        ("我才22，还不急着买房", "age", "22"),
        ("我都45了，熬不了夜", "age", "45"),
        # 就 before the place, 干 for the job
        ("我就住成都，推荐点近的", "location.city", "成都|chengdu"),
        ("我在字节干前端工程师", "job.employer", "字节"),
        # the employer before the role, and the role itself
        ("我是美团的运营", "job.employer", "美团"),
        ("我是京东的设计师", "job.title", "设计师"),
        # a subjectless halal clause after the user's own
        ("我是回民，一直吃清真", "diet", "halal"),
        # the household moving
        ("我们家打算明年搬去青岛", "location.moving_to", "青岛|qingdao"),
        # an airline fronted, not to be booked
        ("亚航那种就别订了", "travel.airline.avoid", "亚航"),
        # pronouns after the word for them
        ("代词用he/they就行", "pronouns", "he/they"),
        # the spouse named says the status
        ("我老婆叫陈红，在医院上班", "relationship.status", "married"),
        # a move with how long ago after the city
        ("我从郑州搬来西安快三年了", "location.city.previous", "郑州|zhengzhou"),
        # a country lived in for a while
        ("我来英国已经两年了", "location.country", "GB"),
        # the bound with 得 after it
        ("起码得三百以上，便宜的质量不行", "budget.min", "300"),
        ("帮我挑个显示器，不能超过1500", "budget.max", "1500"),
        # quiet hours in the day and in the small hours
        ("白天10点到下午3点我在补觉，别打扰", "contact.quiet_hours", "10:00-15:00"),
        ("夜里两点到早上八点别发消息", "contact.quiet_hours", "02:00-08:00"),
        ("晚上11点后到第二天7点前别推送", "contact.quiet_hours", "23:00-07:00"),
        # a food fronted and liked, or disliked by what it does to the user
        ("酸菜鱼和毛血旺我都爱吃", "food.like", "酸菜鱼"),
        ("臭豆腐我闻着就恶心", "food.dislike", "臭豆腐"),
        ("我一般都点酸辣粉", "food.like", "酸辣粉"),
        # a topic fronted with no interest
        ("直播带货我是真没兴趣", "recommend.never", "直播带货"),
        # a drug by its class, a pill a day, a sleep aid
        ("降压药我吃的是缬沙坦", "medication", "缬沙坦"),
        ("每天睡前一片艾司唑仑", "medication", "艾司唑仑"),
        # languages rated
        ("德语和英语我都挺流利的", "language.spoken", "de"),
        ("韩语能聊几句", "language.spoken", "ko"),
        # a time zone by a city
        ("时区以东京为准", "timezone", "Asia/Tokyo"),
        # an airline chosen whenever it can be
        ("能坐川航就坐川航", "travel.airline", "川航"),
        # a pet counted by a measure word
        ("我阳台上养了三只小乌龟", "pet.species", "turtle"),
        # a channel and a payment said without a subject
        ("平时邮件联系就好", "contact.channel", "email"),
        ("买东西我基本走微信支付", "payment.method", "wechat_pay"),
        # response and room preferences in chat words
        ("字少一点，我眼睛累", "response.length", "short"),
        ("你把结论放在最前面", "response.format", "summary_first"),
        ("跟我聊天随便点", "response.tone", "casual"),
        ("房间别挨着电梯", "hotel.room", "away_from_elevator"),
        ("我受不了闪来闪去的特效", "accessibility", "reduced_motion"),
        ("我和前妻早就离了", "relationship.status", "divorced"),
        ("我研三了，在写论文", "job.status", "student"),
        ("信用卡我从来没办", "payment.avoid", "credit_card"),
        ("我前阵子刚订婚", "relationship.status", "engaged"),
        # an allergen after a word of regret, a one-character food eaten, catkins
        ("我吃蟹会起疹子", "allergy.food", "蟹|crab"),
        ("可惜猫毛过敏，没法养", "allergy.other", "猫毛|cats"),
        ("我对杨絮过敏", "allergy.other", "杨絮|catkins"),
        ("别给我打电话，有急事的话也能打", "contact.call.emergency", "allowed"),
    ],
)
def test_fronted_and_adverb_wordings(text: str, key: str, value: str) -> None:
    records = found(text)
    assert has(records, key, value), records


def test_a_kind_of_place_is_no_employer() -> None:
    records = found("我是银行的柜员")
    assert not has(records, "job.employer", "银行"), records


def test_word_of_regret_is_no_part_of_the_allergen() -> None:
    assert not any("可惜" in v for _, v in stored("可惜狗毛过敏，不然早养了")), stored(
        "可惜狗毛过敏，不然早养了"
    )


def test_two_allergens_in_two_clauses_both_stay() -> None:
    records = found("虾我过敏，花生也过敏")
    assert has(records, "allergy.food", "虾|shrimp"), records
    assert has(records, "allergy.food", "花生|peanuts"), records


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # a value the user cannot live with is not the one chosen
        ("我住酒店要大床，双床我睡不惯", "hotel.room", "twin_beds"),
        ("温度用摄氏度，华氏我真没概念", "units.temperature", "fahrenheit"),
    ],
)
def test_value_turned_down_is_not_stored(text: str, key: str, value: str) -> None:
    assert not has(found(text), key, value), found(text)


# ---- look-alikes that store nothing -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # one of our unit, by a nickname
        "我们科室的小李对海鲜过敏",
        "我们班的老赵是素食者",
        # a paper read out
        "化验单上说我血糖有点高",
        # a husband's advice is no name
        "我老公叫我少喝点酒",
        # a generic word for a drug is no allergen
        "我吃了药就过敏，不知道是哪种",
    ],
)
def test_look_alikes_store_nothing(text: str) -> None:
    records = stored(text)
    assert not {(k, v) for k, v in records if not k.startswith("note")}, records
