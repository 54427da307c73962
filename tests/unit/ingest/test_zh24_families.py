"""Chinese families of round 24: look-alikes that must store nothing (a label others give
the user and the user turns down, a text to write or practise, a state of this month, what
nobody likes named as a favourite, people as allergens, a service desk's greeting, a test
message taken back) and the real statements beside them. Wordings of our own, in no
benchmark file."""

from __future__ import annotations

import pytest

from tests.ingest_probe import has_value, stored

# ---- 1. a label others give the user, turned down ---------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "我同桌老叫我小胖，其实我一点都不胖",
        "同事们都喊我卷王，我才不卷呢",
        "大家管我叫大胃王，冤枉啊，我吃得很少",
        "班上的人叫我学霸，可我成绩很一般",
        "我姐总喊我猪猪，我才不是猪",
        "别人都叫我老张，其实我姓李",
        "室友们都叫我书呆子。其实我一点也不爱看书！",
        "他们都叫我路痴，我哪有啊",
        "朋友都喊我小矮子，烦死了",
        "亲戚们都叫我胖丫，我很讨厌这个称呼",
    ],
)
def test_a_label_others_give_and_the_user_turns_down_stores_nothing(text: str) -> None:
    assert not stored(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("大家都叫我小胖", "小胖"),
        ("朋友们都管我叫阿杰", "阿杰"),
        ("同事都叫我老陈，你也这么叫吧", "老陈"),
        ("家里人叫我毛毛，你也可以这么叫我", "毛毛"),
        ("他们都叫我小雨，我挺喜欢这个名字", "小雨"),
        ("朋友都叫我阿明，其实我挺喜欢的", "阿明"),
    ],
)
def test_a_name_others_call_the_user_and_left_standing_is_kept(text: str, name: str) -> None:
    assert has_value(stored(text), "name.preferred", name)


def test_others_call_is_a_preferred_name_not_the_name() -> None:
    found = stored("大家都管我叫阿杰")
    assert not any(k == "name" for k, _ in found)


# ---- 2. a text to write, practise or check ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "老师让我们写一段自我介绍 我叫王小丫",
        "英语作业是写自我介绍，我叫陈阳，来自南京",
        "老师让我们写自我介绍。我叫刘星，今年十二岁。",
        "作文题目：我的家乡 我家在苏州",
        "下面是范文 我叫小红 我今年九岁 我喜欢跳绳",
        "语文作业 写一段话介绍自己 我叫张小花 我喜欢唱歌",
        "面试的自我介绍模板：我叫赵四，毕业于复旦大学",
        "帮我看看这句语法对不对 I live in Shanghai",
        "跟我读：I am a doctor",
        "这段话通不通顺 我是一名老师 在杭州工作",
    ],
)
def test_a_text_to_write_or_practise_stores_nothing(text: str) -> None:
    assert not stored(text)


def test_a_text_asked_to_be_written_from_the_users_own_facts_keeps_them() -> None:
    assert has_value(stored("帮我写个自我介绍，我叫周婉清"), "name", "周婉清")
    assert has_value(stored("我叫王小丫"), "name", "王小丫")


# ---- 3. a state of this month, this week, these days ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "这个月手头紧 预算只有五百",
        "这个月预算就两千",
        "本月预算三千以内",
        "这周预算五百",
        "最近手头有点紧，预算三百以内",
        "这个月钱不多，别推荐太贵的",
        "这个月在戒酒",
        "这个月我吃素",
        "这个月别给我打电话",
        "这周忙 晚上别找我",
        "最近在减肥 这几天不吃甜的",
    ],
)
def test_a_state_of_now_stores_nothing(text: str) -> None:
    assert not stored(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我每个月预算就五百", "budget.max", "500"),
        ("从这个月开始预算改成五百以内", "budget.max", "500"),
        ("我平时预算一千以内", "budget.max", "1000"),
        ("帮我挑个手机，预算两千五", "budget.max", "2500"),
    ],
)
def test_a_standing_budget_is_kept(text: str, key: str, value: str) -> None:
    assert has_value(stored(text), key, value)


def test_a_standing_quiet_hour_is_kept() -> None:
    assert any(k == "contact.quiet_hours" for k, _ in stored("平时晚上十点后别找我"))


# ---- 4. a favourite given as sure (当然是X啦 / 肯定是X嘛) ------------------------------


@pytest.mark.usefixtures("rules_alone")
@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("我最爱的当然是火锅啦", "火锅"),
        ("我的最爱肯定是奶茶嘛", "奶茶"),
        ("要说最爱吃的，那当然是饺子啦", "饺子"),
        ("说到最喜欢喝的嘛，肯定是可乐", "可乐"),
        ("我最喜欢吃的肯定是小龙虾喽", "小龙虾"),
        ("我最喜欢的水果当然是榴莲啦，一次能吃一整个", "榴莲"),
    ],
)
def test_a_favourite_food_given_as_sure_is_liked(text: str, item: str) -> None:
    assert has_value(stored(text), "food.like", item)


def test_a_favourite_keeps_no_particle() -> None:
    found = stored("我最喜欢的城市当然是成都咯")
    assert not any(v.endswith("咯") for _, v in found)


@pytest.mark.parametrize(
    "text",
    [
        "我最爱的肯定是周一嘛",
        "我最喜欢的当然是加班啦",
        "我最喜欢的一天是周一",
        "要说最爱吃的，那当然是亏啦",
        "我最喜欢的食物当然是空气啦",
    ],
)
def test_what_nobody_likes_as_a_favourite_stores_nothing(text: str) -> None:
    assert not stored(text)


def test_a_favourite_of_someone_else_is_not_the_users() -> None:
    assert not stored("要说最喜欢吃的，我妈肯定是饺子")


# ---- more look-alikes -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["我对帅哥过敏", "我对熊孩子过敏", "我对人多的地方过敏", "我对秀恩爱的过敏"],
)
def test_people_and_places_are_no_allergen(text: str) -> None:
    assert not stored(text)


def test_a_real_allergen_stays() -> None:
    assert has_value(stored("我对花生过敏"), "allergy.food", "peanuts")


def test_a_service_desk_greeting_is_no_note() -> None:
    assert not stored("您好，我是您的智能客服小美，很高兴为您服务")
    assert not stored("我是您的专属顾问小李，随时为您服务")


@pytest.mark.parametrize("retraction", ["上一句是测试，忽略", "刚才那条是测试的", "测试一下"])
def test_a_test_message_named_takes_the_turn_before_back(retraction: str) -> None:
    assert not has_value(stored("我在杭州上班", retraction), "location.city", "hangzhou")


# ---- questions, others and one-off texts that looked like statements ---------------------


@pytest.mark.parametrize(
    "text",
    [
        # the user asking what they may do, or an A-not-A about their own doing
        "我能不能用微信付港币啊",
        "我可不可以吃芒果",
        "那我要不要换个牙医",
        "我用信用卡付行不行",
        "我吃素的话蛋白质够不够",
        "我住朝阳区去机场远不远",
        "我预算三千买相机够不够",
        "我住上海，这样方便不方便",
    ],
)
def test_a_question_about_the_users_own_doing_stores_nothing(text: str) -> None:
    assert not stored(text)


def test_a_fact_beside_a_question_about_something_else_stays() -> None:
    found = stored("我对青霉素过敏，头孢能不能用")
    assert has_value(found, "allergy.medication", "penicillin")


def test_a_tag_on_a_standing_request_keeps_the_request() -> None:
    assert has_value(stored("以后用英文回复我好不好"), "language", "en")
    found = stored("以后都用微信联系我，行不行")
    assert has_value(found, "contact.channel", "wechat")
    assert not any(k.startswith(("taste.", "food.")) for k, _ in found)


def test_it_does_not_matter_is_no_question() -> None:
    assert not stored("我吃不吃辣都行")


@pytest.mark.parametrize(
    "text",
    [
        "我姊姊對芒果過敏",
        "我有个客户只用支付宝付款，挺麻烦",
        "我身边有个同事对猫过敏",
        "我认识一个人对花生过敏",
    ],
)
def test_someone_the_user_has_or_knows_is_someone_else(text: str) -> None:
    assert not stored(text)


def test_the_user_and_a_partner_together_is_the_user() -> None:
    assert has_value(stored("我和我老公都对猫过敏"), "allergy", "cats")


@pytest.mark.parametrize(
    "text",
    [
        "这封邮件帮我用正式一点的语气写",
        "这个报告帮我用英文写",
        "这几句帮我改简短一点",
        "那段话帮我翻成日语",
    ],
)
def test_a_text_pointed_at_then_asked_for_is_one_off(text: str) -> None:
    assert not stored(text)


def test_a_dislike_of_a_foods_taste_names_the_food() -> None:
    assert has_value(stored("我超討厭榴槤的味道"), "food.dislike", "榴莲")
    assert has_value(stored("我很喜欢咖啡的香味"), "food.like", "咖啡")


@pytest.mark.parametrize(
    "text",
    ["我是老师，每天批改作业，住在杭州", "跟我说话随意点就好，不用那么正式"],
)
def test_words_about_school_or_speech_in_a_real_statement_do_not_make_it_a_text(
    text: str,
) -> None:
    assert stored(text)


# ---- more jokes and one-off texts ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "我是一名资深吃货",
        "我是一个没有感情的杀手",
        "用英文帮我回复这封邮件",
        "用日语帮我回一下这条消息",
    ],
)
def test_self_labels_in_fun_and_texts_asked_for_store_nothing(text: str) -> None:
    assert not stored(text)


def test_a_trade_said_with_a_measure_word_stays() -> None:
    assert has_value(stored("我是一名护士"), "job.title", "护士")


# ---- statements the rules missed ---------------------------------------------------------


def test_a_push_given_as_the_taiwanese_word_is_push() -> None:
    assert has_value(stored("通知用App推播就好"), "contact.channel", "push")


@pytest.mark.parametrize("text", ["我不太看邮件，发短信给我更靠谱", "短信联系我比较好"])
def test_a_channel_rated_for_the_user_is_the_channel(text: str) -> None:
    assert has_value(stored(text), "contact.channel", "sms")


def test_calls_waved_away_with_an_emergency_exception() -> None:
    found = stored("电话就算了，除非有急事")
    found |= stored("电话就免了，除非真有急事")
    assert has_value(found, "contact.call", "never")
    assert has_value(found, "contact.call.emergency", "allowed")


@pytest.mark.parametrize(
    ("text", "topic"),
    [("保健品类的东西不用给我安利了", "保健品"), ("别给我安利理财课", "理财课")],
)
def test_anli_is_a_push_to_be_refused(text: str, topic: str) -> None:
    assert has_value(stored(text), "recommend.never", topic)


def test_a_husband_called_xiansheng_who_died_makes_the_user_widowed() -> None:
    assert has_value(stored("我先生去世五年了"), "relationship.status", "widowed")
    assert has_value(stored("我太太前年过世了"), "relationship.status", "widowed")


def test_xiansheng_as_the_subject_is_someone_else() -> None:
    assert not stored("我先生对芒果过敏")


def test_a_condition_called_an_old_trouble_is_the_condition() -> None:
    assert has_value(stored("我有偏头痛的老毛病"), "health.condition", "偏头痛")


@pytest.mark.parametrize(("text", "item"), [("我组胺不耐受", "组胺"), ("我咖啡因不耐受", "咖啡因")])
def test_more_intolerances_said_without_dui(text: str, item: str) -> None:
    assert any(k == "intolerance" and item in v for k, v in stored(text))


def test_drugs_known_by_their_chinese_names() -> None:
    assert has_value(stored("我对利多卡因过敏"), "allergy.medication", "lidocaine")
    found = stored("我糖尿病，一直在打胰岛素")
    assert has_value(found, "health.condition", "diabetes")
    assert any(k.startswith("medication") for k, _ in found)


def test_premium_economy_by_its_chinese_names() -> None:
    assert has_value(stored("长途我都买豪华经济舱"), "travel.class", "premium_economy")


def test_an_airline_named_as_the_favourite_is_the_airline_not_a_taste() -> None:
    found = stored("国泰是我最爱的航空公司")
    assert has_value(found, "travel.airline", "国泰")
    assert not any(k.startswith(("interest", "food")) for k, _ in found)


def test_a_language_rated_with_a_degree_word() -> None:
    assert has_value(stored("我法语讲得还不错"), "language.spoken", "fr")
    assert not stored("我女儿法语讲得还不错")


def test_a_birth_year_said_apart_completes_the_birthday() -> None:
    assert has_value(stored("我是98年的，生日在3月8号"), "birthday", "1998-03-08")
    assert stored("我是98年的")  # alone, the user's words stay


@pytest.mark.parametrize(
    ("text", "city"),
    [("明年要调去杭州工作，已经定了", "hangzhou"), ("下个月被外派到新加坡常驻", "singapore")],
)
def test_posted_to_a_city_for_work_is_a_move(text: str, city: str) -> None:
    assert has_value(stored(text), "location.moving_to", city)


@pytest.mark.parametrize(
    "text", ["会议调到周五", "我老公明年要调去深圳工作", "如果明年调去深圳工作的话"]
)
def test_a_meeting_moved_or_someone_elses_posting_is_no_move(text: str) -> None:
    assert not stored(text)


@pytest.mark.parametrize("text", ["我自己开了个奶茶店", "我开了一家花店"])
def test_a_business_opened_is_self_employment(text: str) -> None:
    assert has_value(stored(text), "job.status", "self_employed")


def test_a_friends_business_is_not_the_users() -> None:
    assert not stored("我朋友开了一家花店")


def test_pastimes_in_free_time_without_a_liking_verb() -> None:
    found = stored("我业余时间打乒乓球和跑步")
    assert has_value(found, "interest", "打乒乓球")
    assert has_value(found, "interest", "跑步")
    assert not stored("我周末要加班")
    assert not stored("我老公周末打羽毛球")


# ---- assistant words, retractions and corrections ---------------------------------------


@pytest.mark.parametrize(
    "text", ["我叫小雅，是您的专属顾问", "我的生日？我是前年才被开发出来的", "我是2024年上线的"]
)
def test_an_assistants_words_pasted_store_nothing(text: str) -> None:
    assert not stored(text)


def test_a_user_introducing_their_own_job_beside_their_name_stays() -> None:
    found = stored("我叫小雅，是一名会计")
    assert has_value(found, "name", "小雅")


@pytest.mark.parametrize(
    ("before", "retraction"),
    [
        ("我叫李强", "不好意思，那是我表哥的名字"),
        ("我是会计", "上一条是我儿子用我手机发的"),
    ],
)
def test_a_turn_taken_back_as_someone_elses(before: str, retraction: str) -> None:
    assert not stored(before, retraction)


def test_qishi_after_the_subject_still_reads_the_clause() -> None:
    assert has_value(stored("我其实很爱吃榴莲"), "food.like", "榴莲")
    assert has_value(stored("我不吃榴莲", "说反了，我其实很爱吃榴莲"), "food.like", "榴莲")


def test_waving_a_way_of_paying_away_is_no_retraction() -> None:
    assert has_value(stored("信用卡就算了，利息太高"), "payment.avoid", "credit_card")
    assert not has_value(stored("我住在广州", "那就算了"), "location.city", "guangzhou")


# ---- more statements ----------------------------------------------------------------------


def test_imperial_units_the_user_is_used_to() -> None:
    assert has_value(stored("我平时习惯用英里和磅"), "units.system", "imperial")
    assert not stored("这个包重五磅")


def test_a_city_alone_after_the_country() -> None:
    found = stored("我在德国生活，慕尼黑")
    assert has_value(found, "location.city", "munich")
    assert not stored("我在公司上班，小王")


def test_a_sector_said_as_of_the_trade() -> None:
    assert any(k == "industry" for k, _ in stored("我是金融行业的"))
    assert not stored("我老公是金融圈的")


def test_a_sum_per_head_the_user_accepts_is_a_budget() -> None:
    found = stored("人均三百到五百都能接受")
    assert has_value(found, "budget.min", "300")
    assert has_value(found, "budget.max", "500")
    assert not stored("那家店人均三百左右")


def test_a_request_made_the_rule_with_yihou_dou_zheyang() -> None:
    assert has_value(stored("回答太长了，精简一下，以后都这样"), "response.length", "short")
    assert not stored("精简一下")
    assert not any(k.startswith("rule.") for k, _ in stored("写短一点，以后就按这个来"))


def test_a_city_said_with_the_time_difference_gives_the_zone() -> None:
    found = stored("开会的时候记得我在东京，有时差")
    assert has_value(found, "timezone", "asia/tokyo")
    assert has_value(found, "location.city", "tokyo")
    assert not stored("我老公在东京，有时差")


def test_a_fronted_food_hard_to_digest_called_an_intolerance() -> None:
    assert any(
        k == "intolerance" and v == "大豆" for k, v in stored("大豆我消化不了，不是过敏，是不耐受")
    )


def test_a_sector_with_its_verb_is_the_sector() -> None:
    assert any(k == "industry" and v in ("金融", "finance") for k, v in stored("我是干金融这行的"))
    assert any(k == "industry" and v in ("互联网", "tech") for k, v in stored("我是互联网行业的"))


def test_an_allergen_in_voice_text_without_commas_is_the_one_after_wo_dui() -> None:
    found = stored("我想问下我这种情况能不能吃海鲜我对虾过敏好多年了")
    assert has_value(found, "allergy.food", "shrimp")
    assert not any("我" in v for _, v in found)


def test_a_traditional_guimi_is_someone_else() -> None:
    assert not stored("我閨蜜對芒果過敏")


def test_a_laughing_face_in_a_request_for_emoji_is_no_joke() -> None:
    assert has_value(stored("回复可以多用点表情包😂 我喜欢"), "response.emoji", "true")
    assert not stored("好啊好啊，以后都用表情包回复我吧，我最喜欢了🙄")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("我有轻微的鼻炎", "rhinitis"),
        ("我有严重的失眠", "insomnia"),
        ("我有轻度的抑郁症", "depression"),
    ],
)
def test_a_condition_without_how_bad_it_is(text: str, value: str) -> None:
    found = stored(text)
    assert any(k.startswith("health.condition") for k, _ in found)
    assert not any("的" in v for k, v in found if k.startswith("health.condition"))


def test_a_mild_cannot_eat_is_a_dislike() -> None:
    assert has_value(stored("我不太能吃辣"), "food.dislike", "辣")


@pytest.mark.parametrize(
    ("text", "item"), [("羊肉我一口都不碰", "羊肉"), ("香菜我碰都不碰", "香菜")]
)
def test_a_fronted_food_never_touched_is_a_dislike(text: str, item: str) -> None:
    assert has_value(stored(text), "food.dislike", item)


def test_a_pointer_never_touched_names_no_food() -> None:
    assert not stored("这个我都不碰")


@pytest.mark.parametrize(
    ("text", "city"),
    [("我住的小区离地铁很近，在上海浦东", "shanghai"), ("我在成都高新区", "chengdu")],
)
def test_a_city_with_its_district_after_it(text: str, city: str) -> None:
    assert has_value(stored(text), "location.city", city)


@pytest.mark.parametrize("text", ["我在上海出差", "我在北京大学读书"])
def test_a_trip_or_a_school_after_the_city_is_no_district(text: str) -> None:
    assert not stored(text)


def test_a_person_of_the_users_as_the_favourite_is_no_taste() -> None:
    assert not stored("我最爱的当然是我女儿啦")


def test_next_months_budget_is_not_a_standing_limit() -> None:
    assert not stored("下个月预算五千")
    assert has_value(stored("从下个月开始预算五千"), "budget.max", "5000")


def test_homework_is_no_sector() -> None:
    assert not stored("我在写作业")
    assert any(k == "industry" for k, _ in stored("我在制造业"))


@pytest.mark.parametrize(
    ("before", "retraction"),
    [
        ("我是医生", "哦不是，我说的是我姐"),
        ("我是设计师", "删了吧，不想让你记"),
        ("我不喝酒", "嗯…其实也不是，我能喝一点"),
    ],
)
def test_more_ways_to_take_the_turn_before_back(before: str, retraction: str) -> None:
    found = stored(before, retraction)
    assert not any(k.startswith(("job.", "diet", "food.", "interest")) for k, _ in found)


def test_how_much_is_no_part_of_the_item() -> None:
    assert has_value(stored("我能吃一点辣"), "food.like", "辣")
