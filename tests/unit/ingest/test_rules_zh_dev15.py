"""Chinese wordings the dev15zh set exposed (issue 12): plain everyday chat, where the fact
is the reason given for a one-off request ("帮我推荐个餐厅，我吃素") or comes after a habit
or time adverbial ("我下班以后喜欢…", "我这几年一直在吃…").

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from shared_core.taxonomy import canonical
from tests.unit.ingest.test_rules_zh_dev11 import stored


def found(*turns: str) -> set[tuple[str, str]]:
    """The stored records in the schema's format (canonical key without its slug, value)."""
    out = set()
    for key, value in stored(*turns):
        k, v = canonical(key, value, value)
        out.add((k, v))
    return out


def has(records: set[tuple[str, str]], key: str, value: str) -> bool:
    """A record under ``key`` (or ``key.<slug>``) with one of the ``|``-separated values."""
    wanted = {w.lower() for w in value.split("|")}
    return any((k == key or k.startswith(key + ".")) and v.lower() in wanted for k, v in records)


# ---- the reason given for a one-off request is a lasting fact ----------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("帮我挑家火锅店，我吃素的", "diet", "vegetarian"),
        ("给我推荐几款零食，我对芒果过敏", "allergy.food", "芒果|mango"),
        ("帮我找个健身房，我住在苏州", "location.city", "苏州|suzhou"),
        ("帮我选个奶茶，我乳糖不耐受", "intolerance", "乳糖"),
        ("帮我安排下周的菜单，因为我有痛风", "health.condition", "痛风|gout"),
    ],
)
def test_a_first_person_reason_after_a_request_is_stored(text: str, key: str, value: str) -> None:
    assert has(found(text), key, value)


@pytest.mark.parametrize(
    "text",
    [
        "帮我订个靠过道的位子，我要靠过道的",
        "帮我订一间房，我想住两晚",
        "帮我找个餐厅",
    ],
)
def test_the_request_itself_stays_one_off(text: str) -> None:
    assert not found(text)


# ---- a habit or time adverbial between 我 and the verb --------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我放学以后喜欢踢足球", "interest", "踢足球"),
        ("我这两年一直在吃阿司匹林", "medication", "阿司匹林"),
        ("我周末一般都去钓鱼", "interest", "钓鱼"),
        ("我通常用支付宝", "payment.method", "alipay"),
    ],
)
def test_a_habit_adverbial_does_not_hide_the_verb(text: str, key: str, value: str) -> None:
    assert has(found(text), key, value)


# ---- "跟你说个事，…": the 你 of a lead-in is whom the user tells, not chat about the assistant


@pytest.mark.parametrize(
    "text", ["跟你讲一下，我从来不抽烟", "告诉你个事，我晕船", "和你说一声，我是夜猫子"]
)
def test_a_note_after_telling_the_assistant_is_kept(text: str) -> None:
    assert any(k.startswith("note") for k, _v in found(text))


def test_a_note_about_the_assistant_is_not() -> None:
    assert not found("我觉得你是个夜猫子")


# ---- liking or disliking a medium names the key, not a taste -------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我讨厌接电话，有事留言", "contact.call", "never"),
        ("我比较喜欢刷银联卡", "payment.method", "unionpay"),
        ("付款别让我用花呗", "payment.avoid", "alipay"),
        ("我偏好简短的回复", "response.length", "short"),
    ],
)
def test_liking_a_medium_is_read_as_its_key(text: str, key: str, value: str) -> None:
    records = found(text)
    assert has(records, key, value)
    assert not any(k.startswith(("food.", "interest")) for k, _v in records)


def test_an_avoided_payment_is_not_also_a_used_one() -> None:
    assert not has(found("结账别让我用信用卡"), "payment.method", "credit_card")


# ---- pets and children named in plain chat ------------------------------------------------


def test_a_pet_named_gives_its_species_too() -> None:
    records = found("我家的猫叫年糕")
    assert has(records, "pet.species", "cat")
    assert has(records, "pet.names", "年糕")


def test_someone_elses_pet_named_is_not_the_users() -> None:
    assert not has(found("我邻居的狗叫大黄"), "pet.species", "dog")


def test_an_only_child_is_counted_and_named() -> None:
    records = found("我就一个儿子，名字叫乐乐")
    assert has(records, "family.children", "1")
    assert has(records, "family.child.names", "乐乐")


# ---- allergies said by the reaction -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我一用阿莫西林脸上就起红疹", "allergy.medication", "阿莫西林|amoxicillin"),
        ("我被马蜂蛰了会休克", "allergy.other", "马蜂|bee stings"),
    ],
)
def test_an_allergy_told_by_its_reaction_names_the_allergen(
    text: str, key: str, value: str
) -> None:
    assert has(found(text), key, value)


# ---- a topic fronted before "not interested" ----------------------------------------------


def test_a_fronted_topic_not_of_interest_is_not_to_be_recommended() -> None:
    assert has(found("基金我一点都不感兴趣"), "recommend.never", "基金")


# ---- must store nothing ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "turns",
    [
        ("我有个室友是吃素的",),
        ("我有位朋友住在大理",),
        ("我养了一只仓鼠", "前面说的养仓鼠是瞎说的"),
    ],
)
def test_an_acquaintance_or_a_joke_retraction_stores_nothing(turns: tuple[str, ...]) -> None:
    assert not found(*turns)


# ---- value words said a little differently --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("回答不要用分点，写成一整段", "response.format", "prose"),
        ("不要给我打电话，急事除外", "contact.call.emergency", "allowed"),
        ("随时可以打我手机", "contact.call", "allowed"),
        ("商品价格都按欧元来", "currency", "EUR"),
        ("我目前在读本科", "job.status", "student"),
        ("我的人称代词是“她”", "pronouns", "she/her"),
        ("我是男生，别弄错了", "pronouns", "he/him"),
    ],
)
def test_a_value_said_in_plain_chat_is_read(text: str, key: str, value: str) -> None:
    assert has(found(text), key, value)


def test_a_past_school_time_is_no_student_status() -> None:
    assert not has(found("我在上高中的时候住在杭州"), "job.status", "student")


# ---- programmes, airlines, conditions and channels named in plain chat ----------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我办了东航东方万里行的卡", "travel.loyalty", "东方万里行"),
        ("我有万豪旅享家的金卡", "travel.loyalty", "万豪旅享家|旅享家"),
        ("出差优先坐海航", "travel.airline", "海航|hainan airlines"),
        ("提醒我的话发邮件", "contact.channel", "email"),
        ("我有颈椎病，久坐不行", "health.condition", "颈椎病|cervical spondylosis"),
    ],
)
def test_a_name_said_in_plain_chat_is_read(text: str, key: str, value: str) -> None:
    assert has(found(text), key, value)


def test_a_bank_card_is_no_loyalty_programme() -> None:
    assert not any(k.startswith("travel.loyalty") for k, _v in found("我有招商银行的卡"))


# ---- a language rated without 说得 ----------------------------------------------------------


def test_a_language_rated_plainly_is_spoken() -> None:
    assert has(found("我韩语还行，看剧不用字幕"), "language.spoken", "ko")


@pytest.mark.parametrize("text", ["我英语不太好", "我的日语老师挺好"])
def test_a_weak_language_or_a_teacher_is_not(text: str) -> None:
    assert not any(k.startswith("language.spoken") for k, _v in found(text))
