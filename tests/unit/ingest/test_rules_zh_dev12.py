"""Chinese wordings the dev12zh set exposed (issue 12): questions without 吗, hypotheticals
with 倘若, people in general and people named by their role, texts after a colon, jokes
and sarcasm without a laugh, retractions in other words, one-off orders and edits, and
slots that read a word around the value ("我不过敏", "常住地址：").

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_rules_zh_dev11 import stored
from tests.unit.ingest.test_rules_zh_general import extract, has

# ---- must-store-nothing look-alikes ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # questions: a how/why opening, an A-not-A cut short, a rhetorical "有多…才"
        "头孢我能吃不",
        "怎么把微信支付关掉啊",
        "为啥我一喝牛奶就难受",
        "我是有多笨才会信这个",
        # hypotheticals
        "倘若我住在海边，每天都去游泳",
        "假使我对猫过敏，就只能养狗了",
        # people in general, surveys, someone named by role
        "不少人对芒果过敏",
        "调查显示很多年轻人不吃早饭",
        "南方人一般爱吃米饭",
        "店员说这里只收现金",
        "教练讲这套动作适合初学者",
        # a text after a colon
        "例句：我住在伦敦",
        "作文开头：我叫小明，今年十岁",
        # jokes and sarcasm without a laugh
        "我是全宇宙最会做饭的人",
        "本人是资深摸鱼工程师",
        "叫我活雷锋吧",
        "我的特长是发呆",
        "我又对生活过敏了",
        "我非常喜欢被放鸽子",
        "我太爱星期一了",
        # one-off orders and edits
        "这单用现金结",
        "先用信用卡付吧",
        "把这段话整理一下",
        "这篇文章用表格总结一下",
        # a negation read as an allergen, a label read as a city
        "我不过敏，放心吧",
        "我不是过敏，是晒伤",
    ],
)
def test_dev12_look_alikes_store_nothing(text: str) -> None:
    assert not stored(text), stored(text)


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("我住在厦门", "当我没提"),
        ("我养了只仓鼠", "不好意思手滑"),
        ("我的邮箱是 qq.test@126.com", "这个邮箱不是我的"),
        ("我喜欢坐过道", "过道那个不对"),
        ("我是会计", "我乱说的"),
        ("我喜欢钓鱼", "把钓鱼那条记录删了"),
        ("我对芒果过敏", "刚刚说错了，我不过敏，是我表弟过敏"),
    ],
)
def test_dev12_retractions_take_the_turn_back(before: str, text: str) -> None:
    assert stored(before)
    assert not stored(before, text), stored(before, text)


# ---- what must still be read -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("医生说我有高血压", "health.condition", "hypertension"),
        ("老实说，我是会计", "job.title", "会计"),
        ("我跟医生说过了，我对头孢过敏", "allergy.medication", "cephalosporin"),
        ("晚上十点以后请勿打扰，年轻人也要睡觉", "contact.quiet_hours", "22:00"),
        ("本人常住地址：成都", "location.city", "chengdu"),
        ("怎么说呢，我是素食者", "diet", "vegetarian"),
    ],
)
def test_statements_beside_the_new_look_alike_words_are_kept(
    text: str, key: str, value: str
) -> None:
    found = extract(text)
    assert any(k.startswith(key) and value.lower() in v.lower() for k, v in found), found


def test_a_doctors_word_about_the_user_is_kept_but_not_about_others() -> None:
    assert has(extract("大夫说我乳糖不耐受"), "intolerance", "乳糖")
    assert not extract("大夫说很多人乳糖不耐受")


# ---- statements the dev12zh set exposed ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # a language being learned is a language spoken; a skill being learned an interest
        ("我最近在学德语", "language.spoken", "de"),
        ("我下班后在自学法语", "language.spoken", "fr"),
        ("我周末在学做面包", "interest", "做面包"),
        ("我平时在学书法", "interest", "书法"),
        # a name stops where the next word of the sentence starts
        ("我叫陈一鸣然后我住在厦门", "name", "陈一鸣"),
        ("我儿子叫豆包今年三岁", "family.child.names", "豆包"),
        ("大家好我叫林晓", "name", "林晓"),
        # Traditional characters read as simplified, and a fronted time word is no topic
        ("以後請不要推薦保健品", "recommend.never", "保健品"),
        ("我最喜歡搭華航", "travel.airline", "华航"),
        # dishes read as foods
        ("我喜欢吃烤鸭", "food.like", "烤鸭"),
    ],
)
def test_dev12_statements_are_read(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert any(k.startswith(key) and v.lower() == value.lower() for k, v in found), found


def test_learning_does_not_make_a_taste_or_read_an_adverb_as_an_item() -> None:
    found = extract("我在学做蛋糕，已经学了半年了")
    assert not any(k.startswith("food.") for k, _ in found), found
    assert not any("已经" in k for k, _ in found), found
    assert not extract("我想学意大利语")  # a wish, not a language being learned


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("我付款只用支付宝和现金", "payment.method", {"alipay", "cash"}),
        ("订酒店要无烟、安静的房间", "hotel.room", {"non_smoking", "quiet"}),
        ("我家养了兔子和仓鼠", "pet.species", {"rabbit", "hamster"}),
    ],
)
def test_a_chinese_list_of_known_values_keeps_every_item(
    text: str, key: str, values: set[str]
) -> None:
    found = {v for k, v in extract(text) if k.startswith(key)}
    assert found == values, extract(text)


def test_a_list_stops_at_a_comma_and_at_unknown_words() -> None:
    found = extract("我用微信支付，现金很少用")
    assert {v for k, v in found if k.startswith("payment.method")} == {"wechat_pay"}, found
    found = extract("我只用现金和朋友借的卡")
    assert {v for k, v in found if k.startswith("payment.method")} == {"cash"}, found


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # English words typed inside a Chinese sentence
        ("我更prefer支付宝", "payment.method", "alipay"),
        ("我现在是freelance", "job.status", "self_employed"),
        ("本人gluten intolerant，面食少吃", "intolerance", "麸质"),
        # the subject dropped in chat
        ("现居成都，老家湖南", "location.city", "chengdu"),
        ("吃全素三年了", "diet", "vegan"),
        ("离异，一个人住", "relationship.status", "divorced"),
        ("研一学生，学化学的", "job.status", "student"),
        # a taste said with 迷, a payment with 喜欢用, a time zone by its region
        ("我特别迷滑雪", "interest", "滑雪"),
        ("我最喜欢用云闪付", "payment.method", "unionpay"),
        ("我们这边用台湾时间", "timezone", "Asia/Taipei"),
        # a translator is a job, not a request for a translation
        ("我的工作是翻译", "job.title", "翻译"),
    ],
)
def test_dev12_chat_wordings_are_read(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert any(k.startswith(key) and v.lower() == value.lower() for k, v in found), found


@pytest.mark.parametrize(
    "text",
    [
        "吃素的人缺铁怎么补",
        "我不太喜欢用花呗",
        "我迷路了",
        "翻译一下：我住在巴黎",
        "对芒果过敏的人多吗",
    ],
)
def test_dev12_chat_look_alikes_state_no_use_or_fact(text: str) -> None:
    found = extract(text)
    assert not {
        k for k, _ in found if not k.startswith(("payment.avoid", "food.dislike", "taste."))
    }, found


def test_rarely_is_no_question() -> None:
    assert has(extract("我只用邮箱，短信不怎么看"), "contact.channel", "email")


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # "对了" before the allergy is no part of the allergen
        ("对了我对猕猴桃过敏，记一下", "allergy.food", "kiwi"),
        # a range starting at noon ends the same afternoon
        ("中饭后12点到1点半别找我", "contact.quiet_hours", "12:00-13:30"),
        # a refused method fronted with 是…的
        ("现金我是从来不用的", "payment.avoid", "cash"),
    ],
)
def test_dev12_fronted_and_ranged_wordings(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert any(k.startswith(key) and v.lower() == value.lower() for k, v in found), found


def test_a_value_turned_down_right_after_it_is_not_kept() -> None:
    found = extract("订酒店要双床房，大床不要")
    assert {v for k, v in found if k.startswith("hotel.room")} == {"twin_beds"}, found
    assert {v for k, v in extract("我要靠过道，靠窗不考虑") if k == "travel.seat"} == {"aisle"}


@pytest.mark.parametrize(
    "text",
    [
        "单位新来的会计对虾过敏",  # a person described before the noun
        "早上七点喊我起床",  # a call to do something, not a nickname
        "我是谁，我在干嘛",  # 谁 asks
        "以后有机会再学小提琴",  # a possibility
        "我住哪都无所谓，哪都行",  # anywhere is no city
        "我爱吃辣是假的",  # called untrue in its own sentence
    ],
)
def test_probe_look_alikes_store_nothing(text: str) -> None:
    assert not stored(text), stored(text)


def test_a_single_purchase_paid_one_way_is_only_a_signal() -> None:
    assert not stored("今天用现金买了份早餐")
    assert has(extract("我一般用现金付款"), "payment.method", "cash")


def test_a_negation_in_a_place_slot_is_no_place() -> None:
    found = stored("我以前住南京，现在不住了")
    assert not any(k == "location.city" for k, _ in found), found


@pytest.mark.parametrize(
    "text",
    [
        "刚刷到一个帖子说有人对水过敏",  # a post said without quotes
        "原话是这样的：我从不喝酒",
        "书里有一句我住在海边",
        "下面这段是AI生成的：我是一名律师",
        "我是一只快乐的小青蛙",  # an animal for oneself
        "我就是个天选打工人",
        "可不是嘛，我超爱开会了",
    ],
)
def test_more_probe_look_alikes_store_nothing(text: str) -> None:
    assert not stored(text), stored(text)


def test_the_users_own_words_in_a_group_chat_still_count() -> None:
    assert has(extract("我在群里说过我对花生过敏"), "allergy.food", "peanuts")
    assert not any(k == "note" or "joke" in k for k, _ in extract("我是一只猫的主人"))


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("设计师一枚，常驻厦门", "job.title", "设计师"),
        ("我目前在当律师", "job.title", "律师"),
        ("我在做产品经理，挺累的", "job.title", "产品经理"),
    ],
)
def test_a_self_label_with_yimei_and_a_job_done_are_the_job(
    text: str, key: str, value: str
) -> None:
    found = extract(text)
    assert any(k.startswith(key) and v == value for k, v in found), found


@pytest.mark.parametrize("text", ["本人资深吃货", "剁手党一枚", "我就是个吃瓜群众"])
def test_a_self_label_in_fun_is_no_note(text: str) -> None:
    assert not stored(text), stored(text)


def test_cooking_is_no_job_and_a_night_owl_is_still_a_note() -> None:
    assert not extract("我在做饭")
    assert any(k.startswith("note") for k, _ in extract("我是夜猫子"))


@pytest.mark.parametrize("text", ["老爸最近迷上了钓鱼", "闺蜜对榴莲过敏", "前任是东北人"])
def test_kin_named_without_wo_are_someone_else(text: str) -> None:
    assert not stored(text), stored(text)


def test_the_users_partner_named_without_wo_is_still_kept() -> None:
    assert stored("我结婚了，老公叫李强")


def test_a_second_refusal_joined_by_ye_is_one_more_item() -> None:
    found = {v for k, v in extract("我不吃牛肉也不喝白酒") if k.startswith("diet.avoid")}
    assert found == {"牛肉", "白酒"}, found


def test_a_chinese_one_off_plan_stores_nothing_but_what_happened_is_an_event() -> None:
    assert not stored("我后天要去广州参加展会")
    assert not stored("我下周一要去做体检")
    assert any(k.startswith("event.") for k, _ in stored("我昨天做了胃镜"))
