"""A short answer to the assistant's question is a declaration (issue 12): the question
frames it ("Which town do you live in?" + "Bath" -> location.city = Bath), through the
ordinary extractor and gate, on a real SQLite store. Wordings are this file's own."""

from __future__ import annotations

import pytest

from shared_core.ingest import answers
from tests.ingest_probe import answered, conversation, has_value

# -- wh questions ------------------------------------------------------------------------------
EN_WH = [
    ("Which town do you live in these days?", "Bath", "location.city", "Bath"),
    ("So where are you living at present?", "in Cardiff", "location.city", "Cardiff"),
    ("And what country are you based in?", "Portugal", "location.country", "PT"),
    ("How should I address you?", "Robbie works", "name.preferred", "Robbie"),
    ("What's your full name, please?", "Marta Lindqvist", "name", "Marta Lindqvist"),
    ("What are your pronouns?", "they/them", "pronouns", "they/them"),
    ("How old are you, if you don't mind me asking?", "41", "age", "41"),
    ("When's your birthday?", "9 November", "birthday", "11-09"),
    (
        "What sort of budget do you have in mind for the bike?",
        "about 900 dollars",
        "budget.max",
        "900 USD",
    ),
    ("Do you have any drug allergies I should note?", "codeine", "allergy.medication", "codeine"),
    ("Any food intolerances?", "gluten", "intolerance", "gluten"),
    ("What medications are you on?", "levothyroxine", "medication", "levothyroxine"),
    ("What do you do for work?", "plumber", "job.title", "plumber"),
    ("Who do you work for?", "Siemens", "job.employer", "Siemens"),
    ("Which languages do you speak?", "Polish and English", "language.spoken", "pl"),
    ("What's the best way to reach you?", "WhatsApp", "contact.channel", "whatsapp"),
    ("What's your seating preference on trains?", "aisle", "travel.seat", "aisle"),
    ("What's your cat's name?", "Miso", "pet.names", "Miso"),
    ("What's your husband's name?", "Tomasz", "family.partner.name", "Tomasz"),
    ("How many children do you have?", "three", "family.children", "3"),
    ("What time zone are you in?", "Pacific time", "timezone", "America/Los_Angeles"),
    ("What do you like to do in your spare time?", "bouldering", "interest", "bouldering"),
    ("How do you normally pay?", "Apple Pay", "payment.method", "apple_pay"),
]

ZH_WH = [
    ("你现在定居在哪里？", "成都", "location.city", "chengdu"),
    ("请问怎么称呼您？", "老周", "name", "老周"),
    ("你今年多大了？", "三十五", "age", "35"),
    ("你有什么药物过敏吗？", "阿莫西林", "allergy.medication", "amoxicillin"),
    ("这次装修的预算大概多少？", "十万", None, None),  # 这次: a one-off, not framed
    ("你买车的预算大概多少？", "二十万左右", "budget.max", "200000"),
    ("你是做什么工作的？", "会计", "job.title", "会计"),
    ("你平时有什么爱好？", "钓鱼", "interest", "钓鱼"),
    ("饮食上有什么忌口吗？", "羊肉", "diet.avoid", "羊肉"),
    ("你在哪家公司上班？", "华为", "job.employer", "华为"),
]


def _stored_as(got: set[tuple[str, str]], key: str | None, value: str | None) -> None:
    """Nothing stored when no key is expected, else the expected (key, value) among them."""
    if key is None:
        assert got == set()
    else:
        assert value is not None
        assert has_value(got, key, value), got


@pytest.mark.parametrize(("question", "answer", "key", "value"), EN_WH + ZH_WH)
def test_a_short_answer_to_a_wh_question_is_stored(
    question: str, answer: str, key: str | None, value: str | None
) -> None:
    _stored_as(answered(question, answer), key, value)


# -- yes/no questions: a pronoun swap; a "no" only where the key takes a negation ---------------
YES_NO = [
    ("Are you vegan, by any chance?", "yeah", "diet", "vegan"),
    ("Are you vegan?", "yep, since 2019", "diet", "vegan"),
    ("Do you own any pets?", "yes, a rabbit", "pet.species", "rabbit"),
    ("Do you have kids?", "yes, two of them", "family.children", "2"),
    ("Are you retired?", "I am", "job.status", "retired"),
    ("Do you drink alcohol?", "nope", "diet.avoid", "alcohol"),
    ("Is it alright to phone you?", "please don't", None, None),
    ("Is it alright to phone you?", "no", "contact.call", "never"),
    ("Are you married?", "no", None, None),  # not a relationship status
    ("Do you have any allergies?", "no", None, None),
    ("你吃香菜吗？", "不吃", "food.dislike", "香菜"),
    ("你喝酒吗？", "不喝", "diet.avoid", "酒"),
    ("你养宠物吗？", "养了，一只狗", "pet.species", "dog"),
    ("你是学生吗？", "是的", "job.status", "student"),
]


@pytest.mark.parametrize(("question", "answer", "key", "value"), YES_NO)
def test_a_yes_or_no_answer_turns_the_question_around(
    question: str, answer: str, key: str | None, value: str | None
) -> None:
    _stored_as(answered(question, answer), key, value)


CHOICE = [
    ("Tea or coffee?", "coffee, can't stand tea", "food.like", "coffee"),
    ("Tea or coffee?", "coffee, can't stand tea", "food.dislike", "tea"),  # its own words too
    ("Is a window seat okay?", "yes", "travel.seat", "window"),  # one option checked
    ("Is a window seat okay?", "aisle is better", "travel.seat", "aisle"),
    ("Longer or shorter replies?", "medium", "response.length", "medium"),
    ("火锅还是烧烤？", "烧烤吧", "food.like", "烧烤"),
    ("Do you usually go for window or aisle?", "window, always", "travel.seat", "window"),
    ("Celsius or Fahrenheit?", "fahrenheit please", "units.temperature", "fahrenheit"),
    ("Should answers be short or detailed?", "detailed", "response.length", "long"),
    ("你喜欢靠窗还是靠过道？", "靠窗", "travel.seat", "window"),
    ("回复用中文还是英文？", "英文", "language", "en"),
]


@pytest.mark.parametrize(("question", "answer", "key", "value"), CHOICE)
def test_a_choice_question_stores_the_option_named(
    question: str, answer: str, key: str, value: str
) -> None:
    assert has_value(answered(question, answer), key, value)


# -- what is never framed ----------------------------------------------------------------------
NOTHING = [
    ("Is a window seat okay?", "no"),
    ("Are you thinking of moving?", "yes, maybe to Bristol"),  # a thought is no plan
    ("Are you planning to move?", "no"),
    ("Are you okay?", "tired"),  # a passing state, no fact
    ("Do you know the address?", "42 Elm Street"),
    ("Are you a student or working?", "neither really"),
    ("What time do you want the taxi?", "half six"),  # a one-off task
    ("Which hotel should I book for Friday?", "the Hilton"),
    ("How many nights will you stay?", "three"),
    ("订几号的机票？", "十五号"),
    ("今晚想吃什么？", "火锅"),
    ("If you won the lottery, where would you live?", "Monaco"),  # a hypothetical
    ("要是能换工作，你想做什么？", "厨师"),
    ("Where does your brother live?", "Glasgow"),  # another person
    ("Is your daughter allergic to anything?", "eggs"),
    ("你妈妈住在哪里？", "南京"),
    ("Where are you based?", "no clue"),  # not an answer
    ("Where are you based?", "I'd prefer not to say"),
    ("Where are you based?", "why do you want to know?"),
    ("Where are you based?", "the moon haha"),
    ("你住在哪个城市？", "保密"),
    ("你有什么忌口吗？", "都可以"),
    ("Any allergies?", "none"),
    ("Any allergies?", "nope"),
    ("Would you like me to save this search?", "yes"),  # an offer
    ("Are you happy with the result?", "yes"),
    ("Window or aisle?", "either is fine"),
    ("Do you prefer email or text?", "both"),
]


@pytest.mark.parametrize(("question", "answer"), NOTHING)
def test_answers_that_declare_nothing_store_nothing(question: str, answer: str) -> None:
    assert answered(question, answer) == set()


FAMILIES = [
    # the assistant's guess corrected: the correction is the answer
    ("What's your name — Ann, right?", "no, Anya", "name", "Anya"),
    ("Are you employed at the moment?", "no, retired", "job.status", "retired"),
    # a form field is a question too
    ("Medication allergies:", "aspirin", "allergy.medication", "aspirin"),
    ("饮食禁忌：", "牛肉", "diet.avoid", "牛肉"),
    # a yes that names the pet
    ("Do you have a cat?", "yes, a tabby named Biscuit", "pet.species", "cat"),
    ("Do you have a cat?", "yes, a tabby named Biscuit", "pet.names", "Biscuit"),
    # a Chinese yes that repeats the question's words
    ("你对猫毛过敏吗？", "过敏，一摸就打喷嚏", "allergy.other", "cats"),
    ("你结婚了吗？", "结了，好几年了", "relationship.status", "married"),
    # lists split over two sentences
    ("Any foods you dislike?", "mushrooms. and olives", "food.dislike", "olives"),
    ("有什么不爱吃的吗？", "香菜，还有芹菜", "food.dislike", "芹菜"),
    ("Where did you move from?", "Bristol", "location.city.previous", "Bristol"),
    # a yes/no question answered by naming the thing instead of yes
    ("Are you into board games?", "chess mostly", "interest", "chess"),
    ("Are you vegetarian?", "pescatarian actually", "diet", "pescatarian"),
    ("Do you play any sports?", "tennis", "interest", "tennis"),
    (
        "Are you planning to move anytime soon?",
        "yes, to Bristol in spring",
        "location.moving_to",
        "Bristol",
    ),
    # an offer's answer still states a standing preference in the user's own words
    (
        "Would you like to hear about our loan offers?",
        "no thanks, not interested in loans",
        "recommend.never",
        "loans",
    ),
]


@pytest.mark.parametrize(("question", "answer", "key", "value"), FAMILIES)
def test_answer_families(question: str, answer: str, key: str, value: str) -> None:
    got = answered(question, answer)
    assert has_value(got, key, value), got


def test_the_frame_never_adds_an_open_reading_to_a_turn_that_names_the_fact() -> None:
    got = answered("Are you a student or working?", "working, I'm a nurse")
    assert got == {("job.title", "nurse")}


SILENCED = [
    # somebody else's facts, somebody's words, a hypothetical: even the turn's own reading
    ("Where does your aunt live?", "lives in Bristol"),
    ("你姐住在哪个城市？", "住在南京"),  # alone, 住在南京 is the user's city
    ("What's the line you want translated?", "I am allergic to cats"),
    ("What did the landlord tell you?", "that I'd love living in Bath"),
    ("If you could move anywhere, where to?", "Oslo"),
    ("Which language is this leaflet in?", "Spanish please"),  # a thing
    ("Which language is this leaflet in?", "Spanish, I believe"),  # a hedge, no self
    ("这次装修的预算是多少？", "这次两千以内"),  # the answer names the occasion itself
    ("What should the shop sign say?", "vegan and proud"),
]


def test_a_one_off_question_still_hears_a_standing_preference() -> None:
    assert has_value(
        answered("Was that too detailed?", "yes, keep it short in general"),
        "response.length",
        "short",
    )


@pytest.mark.parametrize(("question", "answer"), SILENCED)
def test_answers_about_others_or_quoted_words_store_nothing(question: str, answer: str) -> None:
    assert answered(question, answer) == set()


def test_without_a_question_the_same_answer_stores_nothing() -> None:
    assert conversation(("user", "Bath")) == []
    assert conversation(("assistant", "Noted, thanks."), ("user", "Bath")) == []


def test_a_full_sentence_answer_is_read_once_on_its_own() -> None:
    recs = conversation(
        ("assistant", "Which town do you live in?"), ("user", "I live in Bath, near the river.")
    )
    city = [r for r in recs if r["key"] == "location.city"]
    assert len(city) == 1 and city[0]["value"].lower() == "bath"
    assert "answering" not in city[0]["metadata"]  # the user's own sentence, not a frame


def test_a_framed_record_keeps_the_users_words_and_the_question() -> None:
    (rec,) = conversation(("assistant", "Great. Which town do you live in?"), ("user", "Bath."))
    assert rec["key"] == "location.city"
    assert rec["provenance"]["span"] == "Bath."
    assert rec["metadata"]["answering"] == "Which town do you live in?"
    assert rec["source"] == "user_declare"  # a declaration: the normal confidence
    assert rec["confidence"] == conversation(("user", "I live in Bath."))[0]["confidence"]


# -- the mechanics -----------------------------------------------------------------------------
def test_question_of_keeps_the_last_question_only() -> None:
    assert answers.question_of("Sure! What's your budget? And which brand?") == "And which brand?"
    assert answers.question_of("Where are you based? Then I can look nearby.") == (
        "Where are you based?"
    )
    assert answers.question_of("好的，明白了。你住在哪个城市") == "你住在哪个城市"
    assert answers.question_of("Done, the file is saved.") is None
    assert answers.question_of("好的，已经保存了。") is None
    long = "Which " + "very " * 200 + "long question is this?"
    got = answers.question_of(long)
    assert got is not None and len(got) <= answers.MAX_QUESTION_CHARS
    assert got.endswith("question is this?")


def test_frame_cleans_the_answer_and_says_repeated_words_once() -> None:
    assert answers.frame("Where do you live?", "um, in Bath I think") == ("I live in Bath",)
    assert answers.frame("Any allergies?", "allergic to latex") == ("I'm allergic to latex",)
    assert answers.frame("你对什么过敏？", "对花粉过敏吧") == ("我对花粉过敏",)
    assert answers.frame("How old are you?", "52 years old")[0] == "I am 52 years old"
    assert answers.frame("Where do you live?", "x" * 200) == ()  # long replies read alone


CHATTER_QUESTIONS = [
    "Which town do you live in?",
    "Do you have any drug allergies?",
    "What do you do for work?",
    "What do you like to do in your spare time?",
    "Which airline do you prefer?",
    "Are you into board games?",
    "你住在哪个城市？",
    "你叫什么名字？",
]
CHATTER_ANSWERS = [
    "hang on",
    "ok great",
    "cheers",
    "hmm let me see",
    "same as last time",
    "can we skip this",
    "it's personal",
    "I'll let you know later",
    "等一下哈",
    "好的谢谢",
    "以后再说吧",
]


@pytest.mark.parametrize("question", CHATTER_QUESTIONS)
def test_chatter_fills_no_slot(question: str) -> None:
    for answer in CHATTER_ANSWERS:
        got = {kv for kv in answered(question, answer) if not kv[0].startswith("note.")}
        assert got == set(), (answer, got)


OFF_TOPIC = [
    "the parcel is late again",  # a sentence of its own
    "could you check my order",
    "I'm on the train",
    "the red one",  # a pointer
    "loads",  # an amount
    "next Tuesday",  # a time, where no time is asked
    "not saying",
    "我在开会",
    "下周再说",
    "你猜呀",
]


@pytest.mark.parametrize("question", CHATTER_QUESTIONS)
def test_an_off_topic_reply_fills_no_slot(question: str) -> None:
    for answer in OFF_TOPIC:
        got = {kv for kv in answered(question, answer) if not kv[0].startswith("note.")}
        assert got == set(), (answer, got)


def test_a_value_before_a_condition_is_still_the_answer() -> None:
    assert has_value(
        answered("Any preferred hotel chain?", "Hyatt if there's one"), "hotel.chain", "Hyatt"
    )
    assert has_value(
        answered("When's your birthday?", "next Tuesday actually"), "birthday", "04-21"
    )


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("除了看书，你还有别的爱好吗？", "当然啦，我还挺喜欢下围棋的"),
        ("除了看书，你还有别的爱好吗？", "当然啦"),
        ("除了看书，你还有别的爱好吗？", "有的呀"),
        ("你有什么药物过敏吗？", "有啦"),
    ],
)
def test_a_chinese_yes_with_a_particle_is_no_value(question: str, answer: str) -> None:
    """A yes (当然啦, 有的呀) fills no slot: the particle is no hobby, and a sentence of the
    user's own after it is read on its own, not wrapped in the question's template."""
    keys = {(r["key"], r["value"]) for r in conversation(("assistant", question), ("user", answer))}
    assert not any("当然" in k or "啦" in v or "呀" in v for k, v in keys)
    if "围棋" in answer:
        assert any("围棋" in k or "围棋" in v for k, v in keys)


def test_a_chinese_yes_with_a_particle_still_names_what_follows() -> None:
    recs = conversation(("assistant", "你对什么过敏吗？"), ("user", "有啦，虾"))
    assert [(r["key"], r["normalized"]) for r in recs] == [("allergy.food", "shrimp")]
