"""Chinese families of round 23: precision first (jokes, a finding in a story of the past,
a named retraction, a voice-typed lead-in), then misses (a move told as "那几年…现在改住…",
fronted objects, a treated reading, compound pastimes). Wordings of our own, in no
benchmark file."""

from __future__ import annotations

import pytest

from tests.ingest_probe import has_value, stored

# ---- precision: nothing stored ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # names offered in turn, each as good as the other: no name is chosen
        "喊我孙悟空也行，喊我猪八戒也行，随你",
        "叫我老板也可以叫我老大也可以 哈",
        # a body part working like a gadget tuned to one thing
        "我的耳朵只对下班两个字有自动识别功能",
        "我的鼻子只对烧烤有感应",
        "我的胃自带奶茶雷达",
        # a self-label in a sentence that ends laughing
        "我是火星人，刚来地球报到 😂",
        "我是资深沙发土豆，周末只会躺着哈哈哈",
    ],
)
def test_jokes_store_nothing(text: str) -> None:
    assert not stored(text)


def test_a_name_offered_with_ye_xing_alone_is_kept_without_the_words() -> None:
    assert has_value(stored("叫我阿凯也行"), "name.preferred", "阿凯")
    assert has_value(stored("我叫陈立，叫我小陈也可以"), "name.preferred", "小陈")


def test_a_straight_self_label_with_a_laugh_elsewhere_stays() -> None:
    found = stored("我住成都，天天吃火锅 😂")
    assert has_value(found, "location.city", "chengdu")
    assert stored("我是素食主义者")


@pytest.mark.parametrize(
    "text",
    [
        # a finding that was the turn of a story of the past
        "以前天天喝奶茶，后来体检查出血糖高就戒了",
        "那时候跑马拉松，后来检查出半月板损伤就放弃了",
        # a condition said to be over
        "前年查出脂肪肝，现在已经好了",
        "我的鼻炎早就治好了",
    ],
)
def test_a_condition_that_is_over_is_not_stored(text: str) -> None:
    assert not any(k.startswith("health.condition") for k, _ in stored(text))


def test_a_condition_found_and_still_held_stays() -> None:
    assert any(k.startswith("health.condition") for k, _ in stored("去年查出痛风以后就戒啤酒了"))
    assert has_value(stored("我有湿疹，已经好了很多"), "health.condition", "eczema")


@pytest.mark.parametrize(
    "text",
    ["刚才说我住厦门是打错了，别管它", "前面说我养狗那句不算", "之前讲我对虾过敏是逗你的"],
)
def test_a_retraction_that_names_what_it_takes_back_stores_it_not(text: str) -> None:
    assert not stored(text)


@pytest.mark.usefixtures("rules_alone")
def test_a_retraction_named_then_a_new_fact_keeps_the_new_one() -> None:
    found = stored("刚才说我住厦门是打错了，我住福州")
    assert has_value(found, "location.city", "fuzhou")
    assert not has_value(found, "location.city", "xiamen")


def test_a_named_retraction_takes_back_the_turn_before() -> None:
    assert not has_value(stored("我住在厦门", "前面说我住厦门那句不算"), "location.city", "xiamen")


def test_a_spoken_lead_in_does_not_hide_whom_it_is_about() -> None:
    assert not stored("我跟你说啊我那个堂哥他对花生过敏然后每次聚餐都很麻烦")
    assert has_value(stored("我跟你讲啊我对花生过敏"), "allergy.food", "peanuts")


# ---- misses: stored now ----------------------------------------------------------------


def test_a_stretch_of_years_then_where_now() -> None:
    found = stored("前些年我住在武汉，现在改住长沙了")
    assert has_value(found, "location.city", "changsha")
    assert has_value(found, "location.city.previous", "wuhan")


def test_a_move_told_of_someone_else_is_not_the_users() -> None:
    assert not stored("我表哥那几年住在武汉，现在改住长沙了")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("护照我一直没办", "护照我一直没办"),
        ("滑雪我不会", "滑雪我不会"),
        ("船我从来没坐过", "船我从来没坐过"),
    ],
)
def test_a_fronted_thing_the_user_never_did_is_a_note(text: str, words: str) -> None:
    assert any(k.startswith("note.") and v == words for k, v in stored(text))


@pytest.mark.parametrize("text", ["这题我不会", "作业我还没写", "明天我没空", "他我不会理"])
def test_a_fronted_pointer_or_one_off_is_no_note(text: str) -> None:
    assert not stored(text)


def test_a_fronted_food_the_user_cannot_quit_is_liked() -> None:
    assert has_value(stored("可乐我是戒不掉了"), "food.like", "可乐")


def test_a_treated_reading_is_the_condition() -> None:
    assert has_value(stored("我血糖偏高，每天在吃药"), "health.condition", "高血糖")
    assert not stored("这几天血压有点高")


def test_a_condition_with_how_long_it_lasted() -> None:
    assert has_value(stored("我痛风十几年了"), "health.condition", "gout")


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("我喜欢骑行旅游和钓鱼", "骑行旅游"),
        ("我爱好户外运动", "户外运动"),
        ("周末爱去野外露营", "野外露营"),
    ],
)
def test_a_pastime_named_by_how_it_is_done_stays_one_item(text: str, item: str) -> None:
    found = stored(text)
    assert any(k.endswith("." + item) for k, _ in found), found


# ---- round two: more look-alikes and misses ------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # a question about what the service takes, asked of 你们 without 吗
        "你们那边能不能刷信用卡呀",
        "请问你们支不支持云闪付",
        # a rule of the workplace, not the user's
        "我们单位规定晚上不能打电话",
        # "不能打电话" allows nothing
        "晚上不能打电话",
        # a time fronted is no topic of a note
        "小时候我特别怕黑，现在好了",
    ],
)
def test_more_look_alikes_store_nothing(text: str) -> None:
    assert not stored(text)


def test_a_request_of_you_all_for_the_user_still_counts() -> None:
    assert has_value(stored("你们能不能以后用日语回复我"), "language", "ja")


def test_a_laugh_opening_a_reply_to_the_assistant_covers_only_that_sentence() -> None:
    found = stored("哈哈你真有意思。我叫阿杰，住在苏州")
    assert has_value(found, "name", "阿杰")
    assert has_value(found, "location.city", "suzhou")
    assert not stored("哈哈。我是玉皇大帝")


def test_a_name_given_without_wo() -> None:
    found = stored("真名是刘洋，叫我洋洋就行")
    assert has_value(found, "name", "刘洋")
    assert has_value(found, "name.preferred", "洋洋")
    assert not any(k == "name" for k, _ in stored("小说主角本名叫刘洋"))


def test_a_drug_after_its_class_and_a_condition_with_its_years_are_clean_values() -> None:
    assert {v for k, v in stored("降糖药我吃的是阿卡波糖") if k.startswith("medication")} == {
        "阿卡波糖"
    }
    found = {v for k, v in stored("确诊哮喘七八年了") if k.startswith("health.condition")}
    assert found == {"asthma"}


def test_currencies_by_their_chinese_names() -> None:
    assert has_value(stored("报价请用日元"), "currency", "jpy")
    assert has_value(stored("价格请用港元"), "currency", "hkd")


def test_the_most_disliked_food_said_with_a_lifetime() -> None:
    assert has_value(stored("我这辈子最讨厌的就是苦瓜"), "food.dislike", "苦瓜")


def test_a_fronted_thing_with_no_use_for_it_then_do_not_recommend() -> None:
    assert has_value(stored("彩票我从来不买，别推了"), "recommend.never", "彩票")
    assert not stored("这个我不用，别推了")


# ---- round three ----------------------------------------------------------------------


def test_a_drug_after_the_condition_it_treats() -> None:
    found = stored("我有痛风 吃别嘌醇，另外有高血压，吃缬沙坦")
    assert has_value(found, "medication", "缬沙坦")
    assert not stored("我爸有高血压，吃缬沙坦")


def test_where_one_lives_said_with_ye() -> None:
    assert has_value(stored("我是苏州人，现在也在苏州生活"), "location.city", "suzhou")
    assert not stored("我表姐是苏州人，现在也在苏州生活")


def test_calls_waved_away_or_welcome_with_an_adverb() -> None:
    assert has_value(stored("來電就免了，發訊息就好"), "contact.call", "never")
    assert has_value(stored("打电话绝对没问题"), "contact.call", "allowed")


@pytest.mark.parametrize("text", ["打电话可以吗", "给你们打电话可以么"])
def test_asking_whether_a_call_is_fine_allows_nothing(text: str) -> None:
    assert not stored(text)


def test_a_pet_fronted_and_kept_for_years() -> None:
    assert has_value(stored("柯基我养了四年多"), "pet.species", "dog")
    assert not stored("仓鼠养了半年就死了")
    assert not stored("鹦鹉养了两年，后来送人了")


# ---- round four -----------------------------------------------------------------------


def test_a_class_the_body_cannot_take_is_not_the_class_wanted() -> None:
    found = stored("国际航班我都坐商务舱，经济舱我腿受不了")
    assert has_value(found, "travel.class", "business")
    assert not has_value(found, "travel.class", "economy")
    assert not stored("经济舱我实在坐不惯")


def test_a_refusal_that_points_back_at_what_was_pushed() -> None:
    assert has_value(stored("又给我推基金，说了多少次不要推这个"), "recommend.never", "基金")
    assert not stored("我都说了别推了")
    assert not stored("能不能别推这些")


# ---- round five -----------------------------------------------------------------------


def test_a_channel_the_user_misses_things_on_is_not_the_channel() -> None:
    found = stored("邮件通知我老是看不到，以后发我微信吧")
    assert has_value(found, "contact.channel", "wechat")
    assert not has_value(found, "contact.channel", "email")


def test_an_address_after_a_space_keeps_the_channel_asked_for() -> None:
    found = stored("以后发我邮箱吧 chen.l@example.com")
    assert has_value(found, "contact.channel", "email")
    assert has_value(found, "contact.email", "chen.l@example.com")


def test_a_weak_spot_then_its_condition() -> None:
    assert any(k.startswith("health.condition") for k, _ in stored("我胃一直不太好，慢性胃炎"))
    assert not stored("我爸胃不好，慢性胃炎")


def test_fish_then_every_other_meat_refused_is_pescatarian() -> None:
    assert has_value(stored("海鲜我吃，其余的肉一律不碰"), "diet", "pescatarian")
    assert not stored("我妹吃鱼，但别的肉都不吃")


def test_an_intolerance_named_in_english_inside_chinese() -> None:
    assert has_value(stored("我对lactose不耐受"), "intolerance", "lactose")


def test_a_count_of_characters_and_a_clock_by_its_kind() -> None:
    assert has_value(stored("回答别超过一百五十字"), "response.length", "short")
    assert not stored("作文要求不超过八百字")
    assert has_value(stored("时间请用24小时的格式"), "units.time_format", "24h")


def test_text_made_bigger_and_motion_that_makes_one_sick() -> None:
    assert has_value(stored("字号给我调大一些，看着费劲"), "accessibility", "large_text")
    assert has_value(stored("动效一多我看着就头晕"), "accessibility", "reduced_motion")
    assert not stored("这个动画挺好看")


def test_a_ne_of_something_under_way_asks_nothing() -> None:
    assert has_value(stored("我迷上了书法，在攒钱买字帖呢"), "interest", "书法")
    assert not stored("我喜欢狗，在哪领养呢")


@pytest.mark.parametrize(
    ("text", "title"),
    [("我是收银员", "收银员"), ("我在商场上班，做导游", "导游"), ("我是美团骑手", "美团骑手")],
)
def test_trades_of_the_street_and_the_counter_are_jobs(text: str, title: str) -> None:
    assert has_value(stored(text), "job.title", title)


def test_someone_elses_trade_is_not_the_users() -> None:
    assert not stored("我表哥是外卖骑手")


def test_a_freelance_trade_is_both_the_status_and_the_trade() -> None:
    found = stored("我是freelance摄影师") | stored("我是自由职业翻译")
    assert has_value(found, "job.status", "self_employed")
    assert has_value(stored("我是自由职业的程序员"), "job.title", "程序员")


def test_a_seat_picked_and_a_place_whose_time_is_the_users() -> None:
    assert has_value(stored("高铁给我挑靠过道的"), "travel.seat", "aisle")
    assert has_value(stored("我人在温哥华，时间按这边来"), "timezone", "america/vancouver")
    assert not stored("我同学在温哥华，时间按这边来")


# ---- round six: precision ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "我们经理对芒果过敏",  # "our" manager is someone else
        "咱们主管不吃香菜",
        "我昨天过敏了，手上起了疹子",  # a day is no allergen
        "我看动画片看晕了",  # a cartoon once is no need for reduced motion
    ],
)
def test_round_six_look_alikes_store_nothing(text: str) -> None:
    assert not stored(text)


def test_our_friends_calling_the_user_still_names_the_user() -> None:
    assert has_value(stored("我们朋友都叫我小雨"), "name.preferred", "小雨")
