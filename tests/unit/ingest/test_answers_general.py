"""Answers to questions read by structure rather than by listed wordings: wrapped questions
(openers, reasons, numbered form fields, polite tails), questions named only by their topic
(the taxonomy's words for a key), concept questions (quiet hours, contact channel, budget),
names and places answered in lower case, Chinese yes answers such as 当然是 / 肯定, and the
look-alikes that must still frame nothing. Wordings are this file's own."""

from __future__ import annotations

import pytest

from shared_core.ingest.answers import frame
from tests.ingest_probe import answered, conversation, has_value

POSITIVE = [
    # wrappers: openers, reasons, numbering, polite tails
    ("Quick question: which town do you live in?", "Harrogate", "location.city", "harrogate"),
    (
        "So I can show local listings, what city are you based in?",
        "Cardiff",
        "location.city",
        "cardiff",
    ),
    ("2. Full name:", "Nadia Rahman", "name", "nadia rahman"),
    ("If you don't mind me asking, how old are you?", "45", "age", "45"),
    ("Pronouns (optional):", "she/her", "pronouns", "she/her"),
    ("方便问一下，你在哪个城市生活？", "厦门", "location.city", "xiamen"),
    ("想了解下，您平时用什么方式付款？", "支付宝", "payment.method", "alipay"),
    # a topic named by the taxonomy's words, no row wording
    ("What's your go-to cuisine?", "korean", "food.like", "korean"),
    ("Occupation:", "electrician", "job.title", "electrician"),
    ("How do you normally like to pay?", "apple pay", "payment.method", "apple_pay"),
    ("Which currency should I quote prices in?", "euros", "currency", "eur"),
    ("您所在的国家是？", "德国", "location.country", "de"),
    ("回复语言：", "英文", "language", "en"),
    # concepts in any order
    ("When should I avoid pinging you?", "11pm to 7am", "contact.quiet_hours", "23:00-07:00"),
    (
        "What's the simplest way to keep in touch with you?",
        "whatsapp",
        "contact.channel",
        "whatsapp",
    ),
    ("How much do you want to spend?", "no more than £250", "budget.max", "250 GBP"),
    # negated topics
    ("Is there a payment method you'd rather not use?", "paypal", "payment.avoid", "paypal"),
    ("有没有不想用的支付方式？", "信用卡", "payment.avoid", "credit_card"),
    # Chinese yes answers with a frame
    ("你吃辣吗？", "肯定吃嘛", "food.like", "辣"),
    ("你喜欢吃甜的吗？", "当然是喜欢啦", "food.like", "甜"),
    ("你现在在哪个城市？", "在南京呢", "location.city", "nanjing"),
    ("你是学生还是已经工作了？", "学生", "job.status", "student"),
    ("需要大字体吗？", "需要", "accessibility", "large_text"),
    # a yes with a comment is still a yes
    ("Do you have a peanut allergy?", "yes, a bad one", "allergy.food", "peanuts"),
    ("Where are you planning to move?", "Porto, next spring", "location.moving_to", "porto"),
]


@pytest.mark.parametrize(("question", "answer", "key", "value"), POSITIVE)
def test_a_question_read_by_its_structure_frames_the_answer(
    question: str, answer: str, key: str, value: str
) -> None:
    found = answered(question, answer)
    assert has_value(found, key, value), found


@pytest.mark.parametrize(
    ("question", "answer", "key", "value"),
    [
        ("Before we begin, what should I call you?", "jen", "name.preferred", "Jen"),
        ("What's your first name?", "marcus", "name", "Marcus"),
        ("Whereabouts are you based?", "york", "location.city", "York"),
        ("Which city do you live in?", "it's new york", "location.city", "New York"),
        ("Where are you relocating to?", "stoke-on-trent", "location.moving_to", "Stoke-on-Trent"),
    ],
)
def test_a_name_or_place_in_lower_case_is_stored_properly_cased(
    question: str, answer: str, key: str, value: str
) -> None:
    records = conversation(("assistant", question), ("user", answer))
    assert [r["value"] for r in records if r["key"] == key] == [value], records


NEGATIVE = [
    ("What time should I set the reminder for?", "6:30"),
    ("Where does your brother live now?", "Cardiff"),
    ("If you could live anywhere, where would it be?", "Kyoto"),
    ("Quick question: which city are you in?", "I'd rather not say"),
    ("What should I call you?", "why do you ask?"),
    ("What's the budget for the office party?", "500"),
    ("Which hotel are you staying at?", "the Hilton"),
    ("What's the recipient's email?", "tom@example.com"),
    ("Which city should I check the weather for?", "Paris"),
    ("How much did you pay for it?", "£40"),
    ("Which dish would you like?", "the risotto"),
    ("这个文件是什么语言的？", "德语"),
    ("你吃香菜吗？", "看心情"),
    ("你朋友做什么工作的？", "医生"),
    ("要帮你订几点的高铁？", "下午三点"),
    ("这次旅行打算花多少钱？", "一万"),
    ("你住哪个城市？", "随便"),
]


@pytest.mark.parametrize(("question", "answer"), NEGATIVE)
def test_a_look_alike_question_frames_nothing(question: str, answer: str) -> None:
    assert answered(question, answer) == set()


def test_a_negated_topic_never_frames_the_positive_statement() -> None:
    assert frame("Any airlines you'd rather avoid?", "Ryanair") == ("I never fly Ryanair",)
    assert "I usually pay with cash" not in frame("Which payment method don't you use?", "cash")
    assert frame("Which payment method don't you use?", "cash")[0] == "I don't use cash"


def test_a_yes_no_topic_question_tries_the_turned_question_first() -> None:
    out = frame("Do you collect miles with any airline?", "yes, Avios")
    assert out[0] == "I collect miles with Avios"


@pytest.mark.parametrize(
    ("question", "answer", "statement"),
    [
        ("What is your name?", "call me jen", "My name is Jen"),
        ("What is your name?", "name's jen btw", "My name is Jen"),
        ("Where do you live?", "i live in york", "I live in York"),
        ("Where do you live?", "near manchester", "I live near Manchester"),
        ("Where do you live?", "london, ontario", "I live in London, Ontario"),
        ("你住哪？", "住杭州", "我住在杭州"),
        ("你住哪？", "杭州这边", "我住在杭州"),
        ("你喜欢吃辣吗？", "那必须的", "我喜欢吃辣"),
    ],
)
def test_an_answer_with_a_short_frame_of_its_own_gives_the_plain_statement(
    question: str, answer: str, statement: str
) -> None:
    assert frame(question, answer)[0] == statement


def test_a_budget_asked_as_what_the_user_wants_to_spend_is_read_unless_it_is_one_off() -> None:
    assert has_value(
        answered("How much do you want to spend?", "up to $900"), "budget.max", "900 USD"
    )
    assert answered("How much do you want to spend on dinner tonight?", "up to $90") == set()


@pytest.mark.parametrize(
    ("question", "answer", "key", "value"),
    [
        ("你住北京吗？", "对", "location.city", "beijing"),
        ("你对芒果过敏吗？", "会过敏", "allergy.food", "mango"),
        ("回答要简洁一点吗？", "要", "response.length", "short"),
        ("你是素食主义者吗？", "算是吧", "diet", "vegetarian"),
        ("Do you speak Italian?", "a little", "language.spoken", "it"),
    ],
)
def test_a_yes_said_by_degree_or_by_the_question_s_own_verb_is_a_yes(
    question: str, answer: str, key: str, value: str
) -> None:
    assert has_value(answered(question, answer), key, value)


def test_the_answer_s_it_is_the_thing_the_question_asks_the_user_s_reaction_to() -> None:
    assert has_value(
        answered("Is aspirin alright for you?", "no, it gives me hives"),
        "allergy.medication",
        "aspirin",
    )
    assert frame("Does dairy bother you?", "yes, it wrecks my stomach")[0] == (
        "dairy wrecks my stomach"
    )
    assert answered("Is this font ok for you?", "no, it is too small") == set()


@pytest.mark.parametrize(
    ("question", "answer", "key", "value"),
    [
        ("吃虾会过敏吗？", "会", "allergy.food", "shrimp"),
        ("你成家了吗？", "结婚了", "relationship.status", "married"),
        ("家里有几个小朋友？", "两个", "family.children", "2"),
        ("结账的时候一般用什么？", "微信支付", "payment.method", "wechat_pay"),
        ("Would you prefer we carry on in another language?", "yes, german", "language", "de"),
        ("Is email the best way to reach you?", "yes", "contact.channel", "email"),
        ("What sort of things do you enjoy?", "sailing", "interest", "sailing"),
    ],
)
def test_more_question_shapes_frame_their_answer(
    question: str, answer: str, key: str, value: str
) -> None:
    assert has_value(answered(question, answer), key, value)


def test_a_would_you_prefer_question_frames_only_a_preference_key() -> None:
    assert answered("Would you prefer a different city for the meetup?", "Leeds") == set()


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Which city are you flying to?", "Rome"),
        ("What country are you travelling to?", "Spain"),
        ("你下个月去哪个城市？", "西安"),
        ("你住哪个城市？", "问这个干嘛"),
    ],
)
def test_a_trip_s_place_or_a_question_asked_back_frames_nothing(question: str, answer: str) -> None:
    assert frame(question, answer) == ()
