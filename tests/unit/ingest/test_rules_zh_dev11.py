"""Chinese wordings the dev11 set exposed (issue 12): request words read as a refused topic,
Cantonese written as spoken, relatives other than parents and siblings, retractions without
the words they take back, reposts and fortune-tellers, tasks and undecided plans.

The sentences are worded for these tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from shared_core.ingest import lexicon as L
from tests.ingest_probe import active_records
from tests.unit.ingest.test_rules_zh_general import extract, has


def stored(*turns: str) -> set[tuple[str, str]]:
    """(key, value) of every active non-episode record after the turns are observed."""
    return {(r["key"], r["normalized"] or r["value"]) for r in active_records(*turns)}


# ---- a request word is no topic --------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "我对花生过敏，请不要推荐含花生的菜",
        "我不吃辣，请别推荐川菜",
        "麻烦别推荐理财了",
        "拜托别推荐保险了",
        "麻烦你不要再推荐游戏了",
        "还请不要推荐白酒",
        "您别推荐保险了",
        "帮我别再推荐广告了",
        "劳驾别推荐股票",
    ],
)
def test_a_request_word_is_never_the_refused_topic(text: str) -> None:
    keys = {k for k, _ in extract(text)}
    assert keys & {k for k in keys if k.startswith("recommend.")}, keys  # the real topic
    for word in ("请", "麻烦", "拜托", "麻烦你", "还请", "您", "帮我", "劳驾"):
        assert f"recommend.{word}" not in keys, keys


def test_the_allergy_and_the_refusal_are_both_kept_and_nothing_bogus() -> None:
    found = extract("我对花生过敏，请不要推荐含花生的菜")
    assert has(found, "allergy.food", "peanuts"), found
    assert all(k == "allergy.food" or "花生" in k for k, _ in found), found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        *[("请", True), ("麻烦你", True), ("也请", True), ("帮我", True), ("您以后", True)],
        *[("保险", False), ("请客", False), ("", False)],
    ],
)
def test_request_words(text: str, expected: bool) -> None:
    assert L.is_request_word(text) is expected


# ---- Cantonese written as spoken, Northeastern words ------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我住喺深圳", "location.city", "shenzhen"),
        ("我唔食羊肉嘅", "diet.avoid", "羊肉"),
        ("我由佛山搬咗去广州", "location.city", "guangzhou"),
        ("我最钟意食云吞面", "food.like", "云吞面"),
        ("唔好再推基金俾我", "recommend.never", "基金"),
        ("俺贼爱喝豆浆", "food.like", "豆浆"),
    ],
)
def test_dialect_wordings_are_read(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


def test_cantonese_normalization_leaves_mandarin_words_alone() -> None:
    for text in ("请联系我", "我的系统是新的", "我在食堂吃饭", "零食我不爱吃"):
        assert L.chat_zh(text) == text


# ---- look-alikes that must store nothing -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # relatives beyond parents and siblings, with 我家 / 俺 / 是我
        "我家老头子不吃香菜",
        "俺闺女对芒果过敏",
        "我们家媳妇是素食主义者",
        # a question opened by 请问, asking permission, or with 啥
        "请问我能用微信支付吗",
        "我家附近有啥好玩的",
        # Cantonese hypothetical
        "要係我住喺北京就好啦",
        # a repost, someone's words after 写：, a fortune-teller about the user
        "转发：本人不吃香菜",
        "群里有人写：我叫张三丰",
        "星座书说我适合当老师",
        # undecided plans and one-off tasks
        "我想试试吃素，还没决定",
        "给我推荐几款五千以内的电脑",
        "帮我换算一下一百欧元是多少人民币",
        # a fragment that starts with 的 is no value
        "我最喜欢的运动是躺着，哈哈",
    ],
)
def test_look_alikes_store_nothing(text: str) -> None:
    assert not stored(text), stored(text)


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("我对桃子过敏", "那条撤回"),
        ("我住在苏州", "收回刚才那句话"),
        ("我喜欢吃榴莲", "上面那句不作数"),
        ("我养了一条狗", "刚才那句是我侄子发的"),
        ("我对猫过敏", "说错了，不是我，是我弟对猫过敏"),
    ],
)
def test_retractions_without_the_words_take_the_turn_back(before: str, text: str) -> None:
    assert stored(before)
    assert not stored(before, text), stored(before, text)


def test_a_doctors_diagnosis_is_still_the_users_fact() -> None:
    assert has(extract("医生说我对磺胺过敏"), "allergy.medication", "sulfa")


def test_the_partner_called_laoban_is_someone_else() -> None:
    assert not any(k.startswith("allergy") for k, _ in extract("我老伴对花生过敏"))


# ---- form fields: "label：value" -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("真实姓名：欧阳修", "name", "欧阳修"),
        ("出生年月日：1972年11月3日", "birthday", "1972-11-03"),
        ("年纪：58岁", "age", "58"),
        ("食物过敏史：芒果、花生", "allergy.food", "mango,peanuts"),
        ("药品过敏：青霉素", "allergy.medication", "penicillin"),
        ("日常用药：二甲双胍", "medication", "二甲双胍"),
        ("支付方式：支付宝", "payment.method", "alipay"),
        ("常住地：苏州", "location.city", "suzhou"),
        ("职业：会计", "job.title", "会计"),
        ("婚姻状态：离异", "relationship.status", "divorced"),
        ("房间偏好：无烟", "hotel.room", "non_smoking"),
        ("首选联系方式：微信", "contact.channel", "wechat"),
    ],
)
def test_form_fields_are_read_as_first_person_statements(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


def test_form_field_rewrite_keeps_other_text() -> None:
    assert L.form_fields_zh("婚姻状况：已婚。预算上限：8000元") == "我已婚。预算上限：8000元"
    assert L.form_fields_zh("他说：我叫张三") == "他说：我叫张三"


def test_a_joke_job_in_a_form_field_stays_a_joke() -> None:
    assert not stored("职业：干饭专家")


# ---- allergens, conditions and medicines as said ----------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # the class word after the allergen, the adverb before it, the allergen fronted
        ("我对贝类食物过敏", "allergy", "shellfish"),  # 贝类 is in the food allergen table
        ("我对橡胶制品过敏", "allergy", "橡胶"),
        ("每到秋天我就尘螨过敏", "allergy.other", "dust mites"),
        ("阿莫西林我吃了会过敏", "allergy.medication", "amoxicillin"),
        ("花生我一吃就过敏", "allergy.food", "peanuts"),
        # a typed condition, a longer name, a folk name
        ("我有二型糖尿病", "health.condition", "diabetes"),
        ("我患有甲状腺功能亢进", "health.condition", "hyperthyroidism"),
        ("我有骨质疏松", "health.condition", "osteoporosis"),
        # a dose and a time of day between the verb and the medicine
        ("我每天晚上吃两片氨氯地平", "medication", "氨氯地平"),
        ("我每日服用阿斯匹林", "medication", "阿斯匹林"),
    ],
)
def test_health_items_as_said(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


# ---- regional words, fronted refusals, buried facts --------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # Taiwan / Hong Kong words and a province before its city
        ("請用LINE聯絡我就好", "contact.channel", "line"),
        ("晚上十點到早上七點別傳訊息給我", "contact.quiet_hours", "22:00-07:00"),
        ("我一般坐靠走道的位子", "travel.seat", "aisle"),
        ("我住在广东省佛山市", "location.city", "foshan"),
        ("我生日系三月廿一", "birthday", "03-21"),
        ("金額請用新台幣", "currency", "TWD"),
        ("叫我阿明就得", "name.preferred", "阿明"),
        # 长荣 among the airlines, the airline fronted before the refusal
        ("坐飞机我首选长荣", "travel.airline", "长荣"),
        ("南航我是再也不会坐了", "travel.airline.avoid", "南航"),
        # a settled move, a city with 哈 in its name, "我住的是…"
        ("我下个月确定要搬到苏州", "location.moving_to", "suzhou"),
        ("我现在在哈尔滨", "location.city", "harbin"),
        ("我住的城市是青岛", "location.city", "qingdao"),
        # the favourite with 最喜欢的…是 / 还是, a drink given up, a long-time diet
        ("我最喜欢的水果是荔枝", "food.like", "荔枝"),
        ("我自己最爱吃的还是饺子", "food.like", "饺子"),
        ("我已经戒糖了", "diet.avoid", "糖"),
        ("我长年吃素", "diet", "vegetarian"),
        # push of products is a refusal, push of notifications is not about topics
        ("别给我推送基金产品", "recommend.never", "基金产品"),
        # 12/24-hour clocks in Chinese numerals, formal with a second adjective
        ("时间用二十四小时制", "units.time_format", "24h"),
        ("请用正式、客气的口吻", "response.tone", "formal"),
        # "没什么X" states; a partner who died; a breed after 我养的
        ("回答通俗点，我没啥基础", "response.style", "simple"),
        ("我老伴去年走了", "relationship.status", "widowed"),
        ("我养的那只布偶叫雪球", "pet.species", "cat"),
    ],
)
def test_dev11_wordings_are_read(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


def test_a_closing_question_about_you_does_not_hide_the_statement() -> None:
    assert has(extract("我住在厦门，海边挺舒服的，你那边呢"), "location.city", "xiamen")
    # a closing question about the user still asks
    assert not extract("我对花生过敏，你觉得我能吃吗")


def test_hyperbolic_foods_are_not_stored() -> None:
    assert not stored("我最喜欢的食物是西北风")


# ---- more look-alikes: roles, reported third persons, rhetorical questions ---------------


@pytest.mark.parametrize(
    "text",
    [
        "病人自述对磺胺过敏",
        "该客户称不吃猪肉",
        "阿公对虾过敏",
        "文章作者住在成都",
        "小李说他对芒果过敏",
        "老王说她们都不吃辣",
        "谁说我不爱吃香菜了",
        "难道我不是素食主义者吗",
        "我爱死这个功能了",
        "我叫不上来她的名字",
        "他的个性签名是：我只喝黑咖啡",
        "这是我同事的电话：13800138000",
        "我闺女的生日是六月一号",
    ],
)
def test_more_look_alikes_store_nothing(text: str) -> None:
    assert not stored(text), stored(text)


def test_the_users_own_fact_after_telling_someone_still_counts() -> None:
    assert has(extract("我跟他说过我对芒果过敏"), "allergy.food", "mango")
    assert has(extract("我超爱吃火锅了"), "food.like", "火锅")


@pytest.mark.parametrize(
    "text",
    [
        "这趟出差我住万豪",  # a hotel one stays at is no city
        "我待会儿要开会，先别打电话",  # a contact rule for an hour or a few days
        "这两天别给我发消息",
        "我有点咳嗽",  # a passing illness is no note
        "我喜欢上一个男生",  # a person is no taste
    ],
)
def test_passing_and_personal_look_alikes_store_nothing(text: str) -> None:
    assert not stored(text), stored(text)


def test_standing_times_of_day_stay_standing() -> None:
    assert has(extract("以后别给我打电话"), "contact.call", "never")
    assert has(extract("中午十二点到下午两点别打扰我"), "contact.quiet_hours", "12:00-14:00")


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我平日里爱喝豆汁", "food.like", "豆汁"),
        ("我打小就不爱吃肥肉", "food.dislike", "肥肉"),
        ("鄙人住在西安", "location.city", "xian"),
        ("我媳妇叫秀英", "family.partner.name", "秀英"),
        ("我闺女叫朵朵", "family.child.names", "朵朵"),
    ],
)
def test_formal_and_elderly_words(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


def test_a_refused_payment_method_is_not_also_a_method_used() -> None:
    found = extract("我不用花呗")
    assert not any(k.startswith("payment.method") for k, _ in found), found


@pytest.mark.parametrize(
    "text",
    ["我是来投诉的", "我是头一回用你们的服务", "我是说真的", "我是新来的", "我就是个打酱油的"],
)
def test_how_the_conversation_goes_is_no_note(text: str) -> None:
    assert not stored(text), stored(text)


def test_a_lasting_trait_is_still_a_note() -> None:
    assert any(k.startswith("note") for k, _ in stored("我是独生女"))


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我应该算是个吃素的人吧", "diet", "vegetarian"),
        ("我今年大概有五十三了", "age", "53"),
        ("我差不多算退休了吧", "job.status", "retired"),
        ("我基本不喝咖啡", "diet.avoid", "咖啡"),
    ],
)
def test_facts_hedged_by_what_the_user_knows(text: str, key: str, value: str) -> None:
    assert has(extract(text), key, value), extract(text)


def test_a_real_doubt_stays_a_doubt() -> None:
    assert not stored("我好像对芒果过敏")
    assert not stored("我可能对海鲜过敏吧")


@pytest.mark.parametrize(
    "text",
    [
        "我好喜欢挤地铁啊",  # loving a stock annoyance
        "我可喜欢被领导骂了",
        "我对老板过敏",  # hyperbole, not an allergen
        "我住在火星",  # no city
        "本人就是个社畜",  # slang, not a job
    ],
)
def test_hyperbole_and_sarcasm_store_nothing(text: str) -> None:
    assert not stored(text), stored(text)


@pytest.mark.parametrize(
    "text",
    [
        "网上都说我们南方人吃不了辣",  # hearsay
        "听我奶奶说我小时候对鸡蛋过敏",
        "我班主任说我适合学医",  # a teacher's view of the user
        "再简单点",  # asking this answer again: a behavioural signal, not yet a preference
        "上面的内容用表格整理一下",
    ],
)
def test_hearsay_and_one_off_requests_store_nothing(text: str) -> None:
    assert not stored(text), stored(text)
