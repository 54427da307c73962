"""Chinese typed the way people chat on WeChat (issue 12, dev9): shorthand (vx, base, call我,
灰常, 本人), a space or an emoji as a clause break, a trailing 😂 that covers only its own
clause, fronted and subject-less clauses, a currency said apart from the amount, and the
look-alikes that must stay unstored (a post or a book title quoted, loving to be woken up).

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from shared_core.ingest import lexicon as L
from tests.ingest_probe import active_records
from tests.unit.ingest.test_rules_zh_general import extract, has


def stored(text: str) -> set[tuple[str, str]]:
    """(key, normalized) of the active non-episode records one user turn leaves."""
    return {(r["key"], r["normalized"]) for r in active_records(text)}


def test_chat_shorthand_is_read_as_plain_chinese() -> None:
    assert L.chat_zh("wx联系我") == "微信联系我"
    assert L.chat_zh("base深圳") == "住在深圳"
    assert L.chat_zh("database很大") == "database很大"  # an English word keeps its letters
    assert L.chat_zh("过敏 吃了会喘") == "过敏，吃了会喘"
    assert L.chat_zh("I like it 🙂") == "I like it 🙂"  # no Chinese: untouched


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # shorthand: vx/wx, base, call我, 灰常, 本人 opening a clause
        ("有急事wx我就行", "contact.channel", "wechat"),
        ("目前base深圳", "location.city", "shenzhen"),
        ("千万别call我", "contact.call", "never"),
        ("我灰常讨厌吃苦瓜", "food.dislike", "苦瓜"),
        # a space or an emoji after Chinese words ends the clause
        ("我对花生过敏 吃了会喘", "allergy.food", "peanuts"),
        ("今年满三十了🎂", "age", "30"),
        ("坐标西安🙂", "location.city", "xian"),
        # a trailing 😂 covers its own clause only
        ("微信找我就好，邮件我基本不看😂", "contact.channel", "wechat"),
        # friends naming the user are no third party
        ("同事都喊我老王", "name.preferred", "老王"),
        # a seat said with 位
        ("我习惯坐靠窗位", "travel.seat", "window"),
        # a status fronted or without a subject
        ("单身，暂时没打算找", "relationship.status", "single"),
        ("离异，自己带女儿", "relationship.status", "divorced"),
        ("目前还是学生党", "job.status", "student"),
        ("失业中，在找工作", "job.status", "unemployed"),
        ("我跟男朋友同居两年了", "relationship.status", "partnered"),
        ("家里俩娃", "family.children", "2"),
        ("在字节上班", "job.employer", "字节"),
        # a fronted food with how little one stands it
        ("苦瓜我是真的吃不惯", "food.dislike", "苦瓜"),
        # a fronted condition with how long one has had it
        ("哮喘是老毛病了", "health.condition", "asthma"),
        ("糖尿病好几年了", "health.condition", "diabetes"),
        # paying: what is easiest, a card swiped, a fronted refusal
        ("支付宝最方便", "payment.method", "alipay"),
        ("只刷储蓄卡", "payment.method", "debit_card"),
        ("现金我从来不用", "payment.avoid", "cash"),
        # an airline fronted before the refusal
        ("国航我再也不坐了", "travel.airline.avoid", "国航"),
        # a place without a living verb, a city alone in a later clause
        ("人在成都", "location.city", "chengdu"),
        ("我在日本，大阪这边", "location.city", "osaka"),
        # a move with a time word or 定居 in the second clause
        ("以前住在长沙，前年搬到了广州", "location.city.previous", "changsha"),
        ("之前在青岛，现在定居大连了", "location.city", "dalian"),
        # budgets: a fronted limit, money at hand, a currency said apart
        ("两万块是上限", "budget.max", "20000 CNY"),
        ("我手上只有五百块", "budget.max", "500 CNY"),
        ("预算八千，美元", "budget.max", "8000 USD"),
        # quiet hours with 深夜 / 晚 / 早 and 至
        ("深夜一点到早上九点别吵我", "contact.quiet_hours", "01:00-09:00"),
        ("晚九点至早七点勿扰", "contact.quiet_hours", "21:00-07:00"),
        # the phone named as the topic, the refusal in a later clause
        ("电话的话，没急事就别打给我", "contact.call", "never"),
        # languages: a list with 以及 and a qualifier, a Chinese name in an English request
        ("我会说英语以及一点法语", "language.spoken", "fr"),
        ("reply in 日语 please", "language", "ja"),
        # 主要是 is no 要是, 什么的 is no question, a fronted "don't push"
        ("我主要是对芒果过敏", "allergy.food", "mango"),
        ("别给我推荐理财什么的", "recommend.never", "理财"),
        ("理财产品就别推荐给我了", "recommend.never", "理财产品"),
        ("晚上十点以后别找我，睡觉呢", "contact.quiet_hours", "after 22:00"),
        # answer length by what is too long, and the middle said with 不用
        ("太长的我一般不看", "response.length", "short"),
        ("不用太长也不用太短", "response.length", "medium"),
        ("界面动画能少就少，我容易头晕", "accessibility", "reduced_motion"),
        # a self-label in one word is a note, not a name
        ("我脸盲，认人很慢", "note", "我脸盲"),
        ("我是吃货", "note", "我是吃货"),
        # a hotel chain with a habit word; the time zone by a place
        ("我一般住汉庭", "hotel.chain", "汉庭"),
        ("时间以东京为准", "timezone", "Asia/Tokyo"),
        # a planned move after a comma, with 正式
        ("公司外派，下个月正式搬去深圳", "location.moving_to", "shenzhen"),
        # the full name right after the surname; a qualifier before X迷
        ("我姓陈，陈小红", "name", "陈小红"),
        ("我是铁杆篮球迷", "interest", "篮球"),
        # a pet named with its breed in front; a dose and 空腹 before the drug
        ("我家这只柯基叫豆包", "pet.species", "dog"),
        ("每天晚上睡前吃一粒褪黑素", "medication", "褪黑素"),
        # "不会超过" as the upper bound
        ("租房我不会超过三千块", "budget.max", "3000 CNY"),
        # a standing length limit said about replying
        ("回答的时候不要写太长", "response.length", "short"),
        # married to the partner, and the partner named in a later clause
        ("我和我老婆结婚五年了", "relationship.status", "married"),
        ("我有个男朋友，他叫阿强", "family.partner.name", "阿强"),
    ],
)
def test_chat_wordings_are_read(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("我从不用信用卡", "payment.method"),  # 从不 negates the method
        ("别叫我小张了", "name.preferred"),  # asks not to be called so
        ("我在上班", "location.city"),  # no place
        ("这个我真不行", "food.dislike"),  # a deictic is no food
        ("我是吃货", "name"),  # a self-label
        ("我住过一次希尔顿", "hotel.chain"),  # once is no habit
        ("我同事的老公，他叫李四", "family.partner.name"),  # someone else's partner
        ("别太长也别太短", "response.length.short"),  # both ends bounded: medium
    ],
)
def test_chat_non_statements_yield_no_key(text: str, key: str) -> None:
    found = extract(text)
    assert not any(k == key or k.startswith(key + ".") for k, _ in found), found


def test_a_language_one_can_speak_is_no_reply_language() -> None:
    found = extract("我会讲日语")
    assert has(found, "language.spoken", "ja"), found
    assert not any(k == "language" for k, _ in found), found


@pytest.mark.parametrize(
    "text",
    [
        "看到一条微博：我住在火星",  # a post quoted after a colon
        "那本《我在上海卖咖啡》挺好看",  # a title with 我 in it
        "我超喜欢被老板骂",  # loving to be subjected to something is sarcasm
        "我对周一过敏😂",  # a trailing laugh on a single clause
        "我的预算是零",  # no limit at all
        "我的主业是摸鱼，副业是干饭",  # an everyday activity given as a job
        "本人工作：躺平",
        "我朋友在成都",  # someone else's place
    ],
)
def test_chat_look_alikes_store_nothing(text: str) -> None:
    assert stored(text) == set()
