"""Chinese phrasings the way people type them to an assistant (issue 12, dev4): degree
adverbs and dialect pronouns before a taste verb, subject-less later clauses, fronted items
with internet praise, traditional characters, and sarcasm that must not become a taste.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.entities import Turn
from shared_core.ingest import lexicon as L
from shared_core.ingest.extract import RuleExtractor
from shared_core.taxonomy import canonical

AT = datetime(2026, 4, 15, 9, 0, tzinfo=UTC)
#: The signals the gate rejects a candidate for (shared_core.ingest.gate).
REJECTING = frozenset(
    {"joke", "irony", "retraction", "question", "hypothetical", "third_party", "negated", "quoted"}
)


def extract(text: str) -> set[tuple[str, str]]:
    """(canonical key, canonical value) of the candidates the gate would accept."""
    turn = Turn(user_id="u", text=text, session_id="s", turn_id="t", at=AT)
    out = set()
    for c in RuleExtractor().extract(turn):
        if c.signals & REJECTING or c.intent.value != "assert" or not c.explicit:
            continue
        out.add(canonical(c.key, c.value, c.normalized))
    return out


def has(found: set[tuple[str, str]], key: str, value: str) -> bool:
    return any(k.startswith(key) and v.lower() == value.lower() for k, v in found)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # degree adverbs and dialect subjects before the verb
        ("我巨爱喝奶茶", "food.like", "奶茶"),
        ("俺老喜欢吃面了", "food.like", "面"),
        ("咱可爱吃烤鸭了", "food.like", "烤鸭"),
        ("我蛮喜欢吃酸菜鱼的", "food.like", "酸菜鱼"),
        ("我不怎么爱吃青椒", "food.dislike", "青椒"),
        ("我不大喜欢喝可乐", "food.dislike", "可乐"),
        # a later clause without its subject
        ("我爱吃米线，不爱吃米粉", "food.dislike", "米粉"),
        ("我是南方人，最爱吃螺蛳粉", "food.like", "螺蛳粉"),
        # vegetables and dishes are foods, not interests
        ("我讨厌吃韭菜", "food.dislike", "韭菜"),
        ("我不喜欢吃冬瓜", "food.dislike", "冬瓜"),
        # a fronted item with praise, or with a comment and "I can't get used to it"
        ("烤冷面yyds", "food.like", "烤冷面"),
        ("螺蛳粉是我的命", "food.like", "螺蛳粉"),
        ("香菜味道太冲了，我受不了", "food.dislike", "香菜"),
        # traditional characters
        ("我很喜歡吃鮮蝦餃", "food.like", "鲜虾饺"),
        # a reaction after eating, with the subject between
        ("吃了芒果我就起荨麻疹", "allergy.food", "mango"),
    ],
)
def test_tastes(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


@pytest.mark.parametrize(
    "text",
    ["呵呵，我就喜欢被人插队", "我真是爱死下雨天了🙄", "我妹妹爱吃辣，不爱吃甜"],
)
def test_sarcasm_and_others_are_no_taste(text: str) -> None:
    assert not any(k.startswith(("food.", "taste.", "interest")) for k, _ in extract(text))


def test_dialect_pronouns_and_typos_read_as_standard() -> None:
    assert L.fix_typos("俺的名子叫张三") == "我的名字叫张三"
    assert "我們會講法語".translate(L.T2S) == "我们会讲法语"


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # a country is a country, a country-then-city both
        ("我现在住在法国", "location.country", "FR"),
        ("我住在日本大阪", "location.city", "osaka"),
        ("我住在日本大阪", "location.country", "JP"),
        # where home is, said without 住
        ("我们家在南京鼓楼", "location.city", "nanjing"),
        ("我家住青岛", "location.city", "qingdao"),
        ("我人在厦门", "location.city", "xiamen"),
        ("我定居在佛山", "location.city", "foshan"),
        # a planned move, with the month, or back home
        ("我们下个月底搬到珠海", "location.moving_to", "zhuhai"),
        ("我打算五月份搬回老家洛阳", "location.moving_to", "luoyang"),
        # before, then now
        ("我以前在天津，现在在北京", "location.city.previous", "tianjin"),
        ("我以前在天津，现在在北京", "location.city", "beijing"),
        # pets by slang, with a classifier, named after the breed
        ("我家喵星人叫团子", "pet.names", "团子"),
        ("我养了一缸锦鲤", "pet.species", "fish"),
        ("我有只猫，布偶，叫雪球", "pet.names", "雪球"),
        # time zones and currencies said by region or conversion
        ("我用美西时间", "timezone", "america/los_angeles"),
        ("金额都折算成欧元吧", "currency", "EUR"),
    ],
)
def test_places_pets_and_units(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


@pytest.mark.parametrize("text", ["我住酒店一般住如家", "我住在学校宿舍", "我妈住在哈尔滨"])
def test_no_home_city(text: str) -> None:
    assert not any(k.startswith("location.city") for k, _ in extract(text))


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("大半夜十一点到早上七点半别吵我", "contact.quiet_hours", "23:00-07:30"),
        ("下午一点到三点我午休，别找我", "contact.quiet_hours", "13:00-15:00"),
        ("我的名字是林小雨", "name", "林小雨"),
        ("敝姓王，叫王磊", "name", "王磊"),
        ("说到我的时候用“她”就好", "pronouns", "she/her"),
        ("我阳历生日是7月9号", "birthday", "07-09"),
        ("我生日是腊月初八", "birthday", "12-08"),
        ("我会讲英语，也能说一点韩语", "language.spoken", "ko"),
        ("我全素", "diet", "vegan"),
        ("我戒掉了奶茶", "diet.avoid", "奶茶"),
        ("荤的我不吃，不过海鲜可以", "diet", "pescatarian"),
        ("找我的话直接发邮件", "contact.channel", "email"),
        ("我一般就用Telegram", "contact.channel", "telegram"),
        ("我在一家银行上班，当柜员经理", "job.title", "柜员经理"),
        ("我自己做点小生意", "job.status", "self_employed"),
        ("我在互联网行业工作", "industry", "tech"),
        ("我还是学生，研一", "job.status", "student"),
    ],
)
def test_contact_identity_diet_and_work(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


@pytest.mark.parametrize("text", ["我今天不吃了", "我戒了烟", "我在家里上班"])
def test_no_food_or_employer(text: str) -> None:
    assert not any(k.startswith(("diet.avoid", "job.employer")) for k, _ in extract(text))


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("回复长度中等就行，不长不短", "response.length", "medium"),
        ("写长一点，我喜欢细节", "response.length", "long"),
        ("分段落写，别列表", "response.format", "prose"),
        ("措辞正式一点的语气", "response.tone", "formal"),
        ("有话直说，别拐弯抹角", "response.tone", "direct"),
        ("讲得通俗点，我是门外汉", "response.style", "simple"),
        ("举一些例子吧", "response.style", "with_examples"),
        ("给我点鼓励吧", "response.tone", "encouraging"),
        ("下班后我一般去健身", "interest", "健身"),
        ("吉他我弹了好几年", "interest", "吉他"),
        ("摄影是我唯一的爱好", "interest", "摄影"),
        ("我最近在学书法", "interest", "书法"),
        ("我对历史特别感兴趣", "interest", "历史"),
        ("我是个宅男，特别爱打游戏", "interest", "打游戏"),
        ("我在吃降糖药二甲双胍", "medication", "二甲双胍"),
        ("每天晚上吃褪黑素", "medication", "褪黑素"),
        ("我不收PayPal", "payment.avoid", "paypal"),
        ("我一般用支付宝和微信付款", "payment.method", "wechat_pay"),
        ("我有个儿子，叫乐乐", "family.child.names", "乐乐"),
        ("我家仨娃，老大叫一一，老二叫二二", "family.child.names", "二二"),
        ("我再也不会坐东航了", "travel.airline.avoid", "东航"),
        ("海航是我最喜欢的", "travel.airline", "海航"),
        ("我是厦航白鹭会员", "travel.loyalty", "白鹭"),
        ("我晕船", "note", "我晕船"),
        ("我怕狗，看到就躲", "note", "我怕狗"),
    ],
)
def test_style_interests_health_family_travel_notes(text: str, key: str, value: str) -> None:
    found = extract(text)
    assert has(found, key, value), found


def test_child_count_said_with_lia() -> None:
    assert has(extract("我家俩娃"), "family.children", "2")


@pytest.mark.parametrize("text", ["不要列点", "别用表格回答"])
def test_a_negative_imperative_is_no_format(text: str) -> None:
    assert not any(k == "response.format" and v in ("bullets", "table") for k, v in extract(text))


@pytest.mark.parametrize(
    "text",
    [
        "你能不能说日语",  # what the assistant can do, not how to answer the user
        "你会讲粤语吗",
        "我是秦始皇，打钱",  # a meme persona
        "朕乃玉皇大帝",
        "我是你爸爸",
        "帮我订一张去成都的机票，要靠过道的",  # one ticket for one trip
        "订两张去西安的高铁票，靠窗",
    ],
)
def test_ability_questions_personas_and_one_trip_store_nothing(text: str) -> None:
    assert extract(text) == set()


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("能不能用日语回复我", "language", "ja"),
        ("给我订靠过道的座位", "travel.seat", "aisle"),
        ("帮我订票的时候每次都选靠窗", "travel.seat", "window"),
    ],
)
def test_requests_about_the_user_still_count(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我是做律师的", "job.title", "律师"),
        ("我是做金融的", "industry", "finance"),
        ("我有哮喘，而且不喝酒", "diet.avoid", "酒"),
    ],
)
def test_job_or_sector_and_a_joined_clause(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


def test_loyalty_keeps_the_words_and_normalizes_the_programme() -> None:
    turn = Turn(user_id="u", text="我是国航凤凰知音会员", session_id="s", turn_id="t", at=AT)
    c = next(c for c in RuleExtractor().extract(turn) if c.key.startswith("travel.loyalty"))
    assert (c.value, c.normalized) == ("国航凤凰知音", "凤凰知音")


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我平时都是微信联系", "contact.channel", "wechat"),
        ("我的邮箱地址是lili88@126.com", "contact.email", "lili88@126.com"),
        ("我只吃素", "diet", "vegetarian"),
        ("我吃不了辣", "food.dislike", "辣"),
        ("我特别能吃辣", "food.like", "辣"),
        ("我每天吃两片二甲双胍", "medication", "二甲双胍"),
        ("我老家是湖南的，现在在深圳", "location.city", "shenzhen"),
        ("我结婚十年了", "relationship.status", "married"),
        ("我还没结婚", "relationship.status", "single"),
        ("我养了两只猫，一只叫大黄一只叫小白", "pet.names", "小白"),
        ("我常坐国泰", "travel.airline", "国泰"),
        ("请简明扼要", "response.length", "short"),
        ("说得详细些", "response.length", "long"),
        ("用要点列出来", "response.format", "bullets"),
        ("我不需要理财推荐", "recommend.never", "理财"),
        ("我今年刚满三十", "age", "30"),
        ("我睡眠不好", "note", "我睡眠不好"),
    ],
)
def test_more_ways_to_say_it(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


@pytest.mark.parametrize("text", ["书里写着：我叫孔乙己", "他说：我不吃辣"])
def test_words_after_a_colon_are_someone_elses(text: str) -> None:
    assert extract(text) == set()


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我的预算大概是八千块", "budget.max", "8000 CNY"),
        ("23点到7点不要推送", "contact.quiet_hours", "23:00-07:00"),
        ("金额用人民币", "currency", "CNY"),
        ("我看不清小字", "accessibility", "large_text"),
        ("我是国航金卡", "travel.loyalty", "国航"),
        ("我有个女朋友", "relationship.status", "partnered"),
        ("我有一对双胞胎", "family.children", "2"),
        ("我养了一条狗和两只猫", "pet.species", "cat"),
        ("我有轻度抑郁", "health.condition", "抑郁"),
        ("我喝牛奶会拉肚子", "intolerance", "牛奶"),
        ("我会说一点点西班牙语", "language.spoken", "es"),
        ("我目前待业在家", "job.status", "unemployed"),
        ("我网名叫小鱼儿", "name.preferred", "小鱼儿"),
        ("请一步步教我", "response.format", "numbered_steps"),
        ("可以加emoji", "response.emoji", "true"),
        ("我属龙的，今年36", "age", "36"),
    ],
)
def test_still_more_ways_to_say_it(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


def test_a_symptom_clause_adds_no_second_intolerance() -> None:
    found = extract("我乳糖不耐，喝牛奶会拉肚子")
    assert {v for k, v in found if k.startswith("intolerance")} == {"乳糖"}


@pytest.mark.parametrize(
    ("turns", "key", "value"),
    [
        (["太长了", "还是太长", "能不能再短点"], "response.length", "short"),
        (["这次订靠窗的", "还是靠窗", "靠窗"], "seat", "window"),
        (["这次用微信发我", "还是微信吧", "微信发我"], "contact.channel", "wechat"),
    ],
)
def test_three_behavioural_signals_make_the_preference(
    turns: list[str], key: str, value: str
) -> None:
    with UserMemory("sqlite:///:memory:", embedder=HashingEmbedder(256)) as mem:
        for n, text in enumerate(turns):
            mem.observe("u", text, session_id="s1", turn_id=f"t{n}", at=AT + timedelta(minutes=n))
        stored = {
            (r["key"], r["normalized"])
            for r in mem.export("u")["records"]
            if r["status"] == "active" and r["kind"] != "episode"
        }
    assert (key, value) in stored, stored
