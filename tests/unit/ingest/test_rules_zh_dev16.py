"""Chinese wordings the dev16zh set exposed (issue 12): everyday chat where the fact is
fronted before 我 (二甲双胍我一天吃两次), the drug is named after its class, a budget is
said beside a request, and look-alikes that must store nothing (a passage shown after a
colon, a wish hung on a later day, someone else's judgement of the user, a retraction
that opens with an interjection).

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_rules_zh_dev11 import stored
from tests.unit.ingest.test_rules_zh_dev15 import found, has

# ---- look-alikes that store nothing -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # a piece of writing asked for, with the style it should have
        "帮我写篇周报，语气轻松点",
        "帮我起草一封辞职信，正式一点",
        # this question only
        "这道题讲得详细点",
        # a supposition with words between 万一 and 我
        "万一以后我搬去深圳，租房贵不贵",
        # a passage shown after a colon, or quoted with 本人
        "帮我改改这段文字：本人对芒果过敏，望周知",
        "下面这段帮我润色：我是一名教师",
        "群公告“本人素食，勿扰”是谁发的",
        # a wish hung on a later day, something to try that has not started
        "等退休了我想去大理住",
        "等攒够钱我想坐一次商务舱",
        "我准备下个月试试吃素",
        "低碳水我想试一下，还没开始",
        # animals and kinds of people as the subject
        "小孩一般都对花生过敏",
        "猫咪基本上都乳糖不耐",
        # someone else's judgement of the user
        "朋友都说我日语还可以",
        "同事说我适合当老师",
        # liking what nobody likes
        "我就喜欢被领导批评，真的",
        # for a meal or a few days only
        "今晚我吃素",
        "这两天我在吃头孢消炎",
        # a pet, an acquaintance or people around here as the subject
        "我家猫咪对牛肉过敏",
        "我认识好多人对芒果过敏",
        "我们老家都用现金",
        # something done once or twice
        "我用微信付过一次",
        "我坐过两回海航",
        # allergy as a topic
        "我在看一本关于过敏的书",
        # the conversation itself
        "我喜欢你刚才那个建议",
        # an assistant's reply pasted as the user's turn
        "我是AI助手，没有生日哦。",
        "建议您选择靠过道的座位。",
        "已为您预订明早的高铁，靠窗。",
    ],
)
def test_look_alikes_store_nothing(text: str) -> None:
    assert not found(text)


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("我对芒果过敏", "啊不对，那是我表妹"),
        ("我在阿里上班", "前面那条消息删了吧"),
        ("我在阿里上班", "这条别存，不想让你记"),
        ("我生日是6月1号", "搞错了，回头再说"),
        ("我的邮箱是x@y.cn", "刚刚那个邮箱是我室友的"),
        ("我叫小红", "名字这条不算"),
        ("我今年40岁", "年龄那个是瞎写的"),
    ],
)
def test_retractions_in_other_words_take_the_turn_back(before: str, text: str) -> None:
    assert not stored(before, text)


# ---- a budget said beside a request -------------------------------------------------------


def test_a_budget_beside_a_request_is_kept() -> None:
    assert has(found("帮我挑台电脑，预算六千"), "budget.max", "6000")
    records = found("帮我看看冰箱，三千到五千之间")
    assert has(records, "budget.min", "3000")
    assert has(records, "budget.max", "5000")
    records = found("给孩子买个书包，两百到三百块吧")
    assert has(records, "budget.min", "200")
    assert has(records, "budget.max", "300")


def test_a_bare_price_or_hours_in_a_request_stay_one_off() -> None:
    assert not found("帮我订个酒店，五点到八点之间入住")
    assert not found("给我爸挑个礼物，三百块左右")


# ---- the object fronted before 我 --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("虾我是过敏的", "allergy.food", "虾|shrimp"),
        ("阿莫西林我吃了会起疹子", "allergy.medication", "阿莫西林|amoxicillin"),
        ("乳糖我是不耐受的", "intolerance", "乳糖"),
        ("肥肉我不怎么爱吃", "food.dislike", "肥肉"),
        ("苦瓜真的吃不下", "food.dislike", "苦瓜"),
        ("缬沙坦我一天吃一片", "medication", "缬沙坦"),
        ("阿卡波糖我一直在吃", "medication", "阿卡波糖"),
        ("国航凤凰知音我是金卡", "travel.loyalty", "凤凰知音|国航凤凰知音"),
    ],
)
def test_a_fronted_object_is_read(text: str, key: str, value: str) -> None:
    assert has(found(text), key, value)


def test_fronted_allergens_are_all_kept() -> None:
    records = found("花生和芒果我都过敏")
    assert has(records, "allergy.food", "花生|peanuts")
    assert has(records, "allergy.food", "芒果|mango")


def test_no_verb_or_tier_is_kept_as_an_item() -> None:
    records = found("火锅我不太爱吃，太油")
    assert has(records, "food.dislike", "火锅")
    assert not has(records, "food.dislike", "吃")
    assert not has(found("国航凤凰知音我是金卡"), "travel.loyalty", "金卡|金")


def test_a_food_with_a_count_is_no_medication() -> None:
    assert not any(k.startswith("medication") for k, _v in found("苹果我一天吃两个"))


# ---- the drug named after its class --------------------------------------------------------


def test_the_drug_after_its_class_is_kept() -> None:
    assert has(found("降脂药我一直在吃，瑞舒伐他汀"), "medication", "瑞舒伐他汀")
    assert has(found("他汀我每天睡前一粒，辛伐他汀"), "medication", "辛伐他汀")


def test_a_remark_after_the_class_is_no_drug() -> None:
    assert not any(
        k.startswith("medication") and v != "降压药" for k, v in found("降压药我一直在吃，效果还行")
    )


# ---- subjectless clauses and short standing preferences --------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我高血压，盐要少放", "health.condition", "高血压|hypertension"),
        ("我痛风，另外有哮喘", "health.condition", "哮喘|asthma"),
        ("我现在在华为上班", "job.employer", "华为"),
        ("我住上海，做电商", "industry", "电商"),
        ("有事就发短信", "contact.channel", "sms"),
        ("我平时用WhatsApp", "contact.channel", "whatsapp"),
        ("我姓李，全名李明轩", "name", "李明轩"),
        ("我也算个足球迷", "interest", "足球"),
        ("吃的只能是清真的", "diet", "halal"),
        ("刚失业，在家待着", "job.status", "unemployed"),
        ("我现在也还单着", "relationship.status", "single"),
        ("楼层越高越好", "hotel.room", "high_floor"),
        ("有话直说吧", "response.tone", "direct"),
        ("对比度调高点", "accessibility", "high_contrast"),
        ("打电话就免了", "contact.call", "never"),
        ("我是he/they", "pronouns", "he/they"),
        ("买高铁票都选靠窗", "travel.seat", "window"),
        ("我35，已婚", "age", "35"),
        ("人在东京，跟国内有时差", "timezone", "Asia/Tokyo"),
        ("没事就去游泳", "interest", "游泳"),
        ("我超喜欢韩料", "food.like", "韩料"),
        ("我都用微信付", "payment.method", "wechat_pay"),
        ("坐高铁喜欢靠过道", "travel.seat", "aisle"),
        ("字号放大一点", "accessibility", "large_text"),
    ],
)
def test_short_everyday_wordings_are_read(text: str, key: str, value: str) -> None:
    assert has(found(text), key, value)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我德语法语都会讲", "language.spoken", "de"),
        ("德语法语我都会讲", "language.spoken", "fr"),
        ("我西班牙语讲得还挺地道", "language.spoken", "es"),
    ],
)
def test_languages_spoken_in_chat(text: str, key: str, value: str) -> None:
    assert has(found(text), key, value)


def test_a_slur_is_no_condition() -> None:
    assert not any(k.startswith("health.condition") for k, _v in found("我是神经病"))


@pytest.mark.parametrize("text", ["我至今不会骑自行车", "我独居"])
def test_lasting_traits_are_notes(text: str) -> None:
    assert any(k.startswith("note") for k, _v in found(text))


def test_the_users_own_ai_work_is_not_an_assistant_reply() -> None:
    assert has(found("我是AI工程师"), "job.title", "ai工程师|AI工程师")


def test_what_starts_today_is_kept() -> None:
    assert has(found("从今天起我吃素"), "diet", "vegetarian")
